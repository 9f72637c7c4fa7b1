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
}
