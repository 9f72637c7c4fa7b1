package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.core.layout.RegionState;
import geoblocks.blockstore.wire.BenchOp;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp;
import geoblocks.net.AccessKey;
import geoblocks.net.FileGrant;
import geoblocks.net.NetAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each family's door lets in exactly who may send its requests: admin operations and reserved names only
 * from admin clients, peer requests only from members (block reads from a just-removed region for a
 * minute), and every reply; a refusal is the Failed a node has always answered.
 */
class DoorsTest {
    private static final NetAddress SELF = NetAddress.of("10.231.0.1", 47101);
    private static final NetAddress DUBLIN = NetAddress.of("10.231.0.2", 47102);
    private static final NetAddress MUMBAI = NetAddress.of("10.231.0.4", 47104);
    private static final NetAddress GATEWAY = NetAddress.of("127.0.0.1", 5000);
    private static final NetAddress CLIENT = NetAddress.of("10.231.0.9", 6000);
    private static final long MINUTE = 60_000_000_000L;

    private final Doors doors = new Doors(new AdminGate(GATEWAY::equals, List.of(".geoblocks/")), "seoul", SELF,
            layout(1, RegionState.ACTIVE), 0);

    private static Layout layout(long version, RegionState mumbai) {
        Map<String, Region> m = new TreeMap<>();
        m.put("seoul", new Region("seoul", "10.231.0.1:47101", "seoul", 0, RegionState.ACTIVE));
        m.put("dublin", new Region("dublin", "10.231.0.2:47102", "dublin", 0, RegionState.ACTIVE));
        m.put("mumbai", new Region("mumbai", "10.231.0.4:47104", "mumbai", 0, mumbai));
        return new Layout(version, m, List.of(), 0);
    }

    @Test
    void adminOperations_enterOnlyFromAdminClients_andAreAnsweredForbidden() {
        FileOp move = new ClientOp.MoveReq(7, "a", List.of("dublin"));
        FileOp purge = new ClientOp.PurgeReq(8, "a", "v");
        FileOp remove = new ClientOp.ClusterReq(9, "remove", "dublin", "", "", 0, true);
        for (FileOp op : List.of(move, purge, remove)) {
            FileOp.Failed f = doors.refusal(CLIENT, op, 0);
            assertEquals(FailureCode.FORBIDDEN, f.code(), op.toString());
            assertEquals(op.req(), f.req());
            assertTrue(Doors.forbidden(f));
            assertNull(doors.refusal(GATEWAY, op, 0));
            assertTrue(doors.refusal(DUBLIN, op, 0) != null, "a member is no admin client either");
        }
        assertNull(doors.refusal(CLIENT, new ClientOp.ClusterReq(10, "show", "", "", "", 0, false), 0),
                "showing the layout is for everyone");
    }

    @Test
    void reservedNames_enterOnlyFromAdminClients_otherNamesFromAnyone() {
        assertEquals(FailureCode.FORBIDDEN, doors.refusal(CLIENT, new ClientOp.GetBegin(1, ".geoblocks/tokens"), 0).code());
        assertNull(doors.refusal(GATEWAY, new ClientOp.GetBegin(2, ".geoblocks/tokens"), 0));
        assertNull(doors.refusal(CLIENT, new ClientOp.GetBegin(3, "photos/a"), 0));
        assertNull(doors.refusal(CLIENT, new ClientOp.StatusReq(4), 0));
        assertNull(doors.refusal(CLIENT, new FileOp.Unknown(5, 200), 0), "answered UNSUPPORTED, to anyone");
    }

    @Test
    void peerRequests_enterOnlyFromMembers_andAreAnsweredInvalid() {
        assertNull(doors.refusal(DUBLIN, new PeerOp.FetchBlock(1, "b-1-0"), 0));
        assertNull(doors.refusal(DUBLIN, new FileOp.ManifestPart(2, true, 0, 1, new byte[1]), 0));
        FileOp.Failed f = doors.refusal(CLIENT, new PeerOp.ReplicaData(3, "b-1-0", 0, 1, 0, false, new byte[1]), 0);
        assertEquals(FailureCode.INVALID, f.code(), f.error());
        assertEquals(3, f.req());
        assertEquals(FailureCode.INVALID, doors.refusal(CLIENT, new FileOp.ManifestPart(4, true, 0, 1, new byte[1]), 0)
                .code(), "a publication is a peer request");
        assertEquals(FailureCode.INVALID, doors.refusal(CLIENT, new BenchOp.NetBenchOpen(5, 1, "tcp"), 0).code());
        assertNull(doors.refusal(CLIENT, new BenchOp.NetBenchData(6, 1, 0, 0, 0, new byte[0]), 0));
    }

    @Test
    void aRemovedRegion_mayReadBlocksForAMinute_andNothingElse() {
        doors.layout(layout(2, RegionState.REMOVED), 10);
        assertNull(doors.refusal(MUMBAI, new PeerOp.FetchBlock(1, "b-1-0"), 10 + MINUTE - 1));
        assertNull(doors.refusal(MUMBAI, new PeerOp.FetchPaced(2, "b-1-0"), 10));
        assertEquals(FailureCode.INVALID, doors.refusal(MUMBAI, new PeerOp.FetchBlock(3, "b-1-0"), 10 + MINUTE).code());
        assertEquals(FailureCode.INVALID, doors.refusal(MUMBAI, new PeerOp.DeleteFile(4, "a"), 10).code());
    }

    @Test
    void replies_passEveryDoor_theRequestWaitingKnowsWhomItAsked() {
        assertNull(doors.refusal(CLIENT, new FileOp.Done(1, "ok"), 0));
        assertNull(doors.refusal(CLIENT, new PeerOp.BlockData(2, 0, 0, 0, new byte[0]), 0));
        assertNull(doors.refusal(CLIENT, new FileOp.ManifestPart(3, false, 0, 1, new byte[1]), 0));
    }

    /** Objects of buckets named as S3 names them (lower-case first segment), as a node with a gateway rules. */
    private static final GatewayNames S3_LIKE = new GatewayNames() {
        @Override
        public boolean holds(String name) {
            return GatewayNames.DOTTED.holds(name) || name.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/.+");
        }

        @Override
        public boolean mayHoldUnder(String prefix) {
            return GatewayNames.DOTTED.mayHoldUnder(prefix) || !prefix.contains("/") && prefix.matches("[a-z0-9.-]*")
                    || prefix.contains("/") && holds(prefix.substring(0, prefix.indexOf('/') + 1) + "x");
        }
    };
    private final Doors gated = new Doors(new AdminGate(GATEWAY::equals, List.of(".admin/")).withGateway(S3_LIKE),
            "seoul", SELF, layout(1, RegionState.ACTIVE), 0);
    private static final AccessKey KEY = new AccessKey("GBKEY", FileGrant.parseAll("Reports/:r,Reports/out/:rw,Inbox/:w"));

    @Test
    void keyedClient_readsAndWritesOnlyWhatItsGrantsAllow() {
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.GetBegin(1, "Reports/q1"), 0));
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.StatReq(2, "Reports/q1", ""), 0));
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.PutBegin(3, "Reports/out/a", 1, 1024, "default"), 0));
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.PutBegin(4, "Inbox/a", 1, 1024, "default"), 0));
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.DeleteReq(5, "Reports/out/a"), 0));
        for (FileOp op : List.of(new ClientOp.PutBegin(6, "Reports/q1", 1, 1024, "default"),
                new ClientOp.DeleteReq(7, "Reports/q1"), new ClientOp.GetBegin(8, "Inbox/a"),
                new ClientOp.VersionsReq(9, "Other/a"), new ClientOp.PutBegin(10, "Other/a", 1, 1024, "default"))) {
            assertEquals(FailureCode.FORBIDDEN, gated.refusal(CLIENT, KEY, op, 0).code(), op.toString());
        }
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.StatusReq(11), 0));
    }

    @Test
    void keyedClient_neverReachesTheGatewaysNames_whateverItsGrants() {
        AccessKey all = new AccessKey("GBALL", FileGrant.parseAll(":rw"));
        for (String name : List.of(".s3-keys/GBKEY", ".s3-buckets/photos", ".admin/tokens/x", "photos/cat.jpg")) {
            assertEquals(FailureCode.FORBIDDEN, gated.refusal(CLIENT, all, new ClientOp.GetBegin(1, name), 0).code(), name);
            assertEquals(FailureCode.FORBIDDEN, gated.refusal(CLIENT, all,
                    new ClientOp.PutBegin(2, name, 1, 1024, "default"), 0).code(), name);
        }
        assertNull(gated.refusal(CLIENT, all, new ClientOp.GetBegin(3, "Photos/cat.jpg"), 0), "no bucket is upper-case");
        assertNull(gated.refusal(CLIENT, all, new ClientOp.GetBegin(4, "notes.txt"), 0), "no object name lacks a '/'");
    }

    @Test
    void keyedClient_listsOnlyUnderAPrefixItMayReadWhole() {
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.ListReq(1, "Reports/", "", 100), 0));
        assertNull(gated.refusal(CLIENT, KEY, new ClientOp.ListReq(2, "Reports/2024", "", 100), 0));
        AccessKey all = new AccessKey("GBALL", FileGrant.parseAll(":rw"));
        for (String prefix : List.of("", "Rep", "Inbox/", ".s3-keys/", "photos/")) {
            assertEquals(FailureCode.FORBIDDEN, gated.refusal(CLIENT, KEY, new ClientOp.ListReq(3, prefix, "", 100), 0)
                    .code(), prefix);
        }
        for (String prefix : List.of("", "p", ".", "photos/")) {
            assertEquals(FailureCode.FORBIDDEN, gated.refusal(CLIENT, all, new ClientOp.ListReq(4, prefix, "", 100), 0)
                    .code(), "may list the gateway's names: '" + prefix + "'");
        }
        assertNull(gated.refusal(CLIENT, all, new ClientOp.ListReq(5, "Photos/", "", 100), 0));
    }

    @Test
    void keyedClient_passesNoPeerAdminOrBenchDoor_evenAtAMembersAddress() {
        AccessKey all = new AccessKey("GBALL", FileGrant.parseAll(":rw"));
        assertEquals(FailureCode.INVALID, gated.refusal(DUBLIN, all,
                new PeerOp.DropBlocks(1, "Reports/q1", List.of("b-1-0")), 0).code());
        assertEquals(FailureCode.INVALID, gated.refusal(DUBLIN, all, new PeerOp.FetchBlock(2, "b-1-0"), 0).code());
        assertEquals(FailureCode.INVALID, gated.refusal(DUBLIN, all, new FileOp.Done(3, "ok"), 0).code(),
                "nor answers a node's request in a member's name");
        assertEquals(FailureCode.FORBIDDEN, gated.refusal(GATEWAY, all,
                new ClientOp.ClusterReq(4, "remove", "dublin", "", "", 0, true), 0).code());
        assertEquals(FailureCode.FORBIDDEN, gated.refusal(GATEWAY, all, new ClientOp.MoveReq(5, "Reports/q1",
                List.of("dublin")), 0).code());
        assertEquals(FailureCode.INVALID, gated.refusal(CLIENT, all, new BenchOp.NetBenchReq(6, "dublin", "tcp", 1, 1, 0, 1000, 1024), 0)
                .code());
        assertNull(gated.refusal(CLIENT, all, new ClientOp.ClusterReq(7, "show", "", "", "", 0, false), 0),
                "showing the layout changes nothing: a client's, as status");
    }
}
