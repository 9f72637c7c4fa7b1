package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.ClusterReq;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.LayoutSync;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The membership through its narrow context: an admin's change is adopted, told to the node and sent to every
 * member; its answer carries the figures the file service gave; layout gossip from strangers is ignored and a
 * member's report reaches the node.
 */
class MembershipTest {
    private static final NetAddress SEOUL = NetAddress.of("10.231.0.1", 47101);
    private static final NetAddress DUBLIN = NetAddress.of("10.231.0.2", 47102);
    private static final NetAddress MUMBAI = NetAddress.of("10.231.0.4", 47104);
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 5000);
    private static final LayoutPort.ClusterFigures FIGURES = new LayoutPort.ClusterFigures(1,
            Map.of("dublin", new ManifestStore.Placed(7, 7000)), Set.of(), Map.of(), Map.of("dublin", 42L));

    private final List<Layout> adopted = new ArrayList<>();
    private final List<Map<String, Long>> reports = new ArrayList<>();
    private final List<Object[]> sent = new ArrayList<>();
    private LayoutAddresses book;

    private Membership membership() throws Exception {
        MetaLayoutStore store = MetaLayoutStore.open(new MemoryMetaEngine(),
                Map.of("seoul", "10.231.0.1:47101", "dublin", "10.231.0.2:47102"));
        book = LayoutAddresses.of(store.current(), "seoul", SEOUL);
        Membership.Context ctx = new Membership.Context() {
            @Override
            public String region() {
                return "seoul";
            }

            @Override
            public long now() {
                return 1_000_000_000L;
            }

            @Override
            public void send(NetAddress to, FileOp op) {
                sent.add(new Object[] {to, op});
            }

            @Override
            public NetAddress addressOrNull(String r) {
                return book.addressOrNull(r);
            }

            @Override
            public Optional<String> regionOf(NetAddress address) {
                return book.regionOf(address);
            }

            @Override
            public void adopted(Layout l) {
                adopted.add(l);
                book = LayoutAddresses.of(l, "seoul", SEOUL);
            }

            @Override
            public void reported(Map<String, Long> reported) {
                reports.add(reported);
            }
        };
        return new Membership(ctx, store, MemberKeys.NONE, new PeerVersions(), ClusterVersion.BUILD);
    }

    @Test
    void anAdminsChange_isAdopted_toldToTheNode_sentToEveryMember_andAnsweredWithTheNodesFigures() throws Exception {
        Membership m = membership();
        m.onSync(DUBLIN, new LayoutSync(0, m.current().version(), m.current().digest(), new byte[0]));
        sent.clear();
        m.onRequest(CLIENT, new ClusterReq(9, "add", "mumbai", "10.231.0.4:47104", "", 0, false), FIGURES);

        assertEquals(1, adopted.size());
        assertTrue(adopted.get(0).members().contains("mumbai"), adopted.get(0).members().toString());
        List<NetAddress> gossip = sent.stream().filter(s -> s[1] instanceof LayoutSync).map(s -> (NetAddress) s[0]).toList();
        assertEquals(List.of(DUBLIN, MUMBAI), gossip, "every member but this node hears of the new layout");
        Object[] answer = sent.get(sent.size() - 1);
        assertEquals(CLIENT, answer[0]);
        ClusterReply reply = (ClusterReply) answer[1];
        assertEquals(9, reply.req());
        RegionReport dublin = reply.regions().stream().filter(r -> r.region().equals("dublin")).findFirst().orElseThrow();
        assertEquals(7, dublin.replicas());
        assertEquals(7000, dublin.bytes());
        assertEquals(42, dublin.shortBytes());
    }

    @Test
    void aBadChange_isAnsweredInvalid_andChangesNothing() throws Exception {
        Membership m = membership();
        m.onRequest(CLIENT, new ClusterReq(3, "explode", "dublin", "", "", 0, false), FIGURES);
        assertEquals(List.of(), adopted);
        FileOp.Failed f = (FileOp.Failed) sent.get(0)[1];
        assertEquals(FailureCode.INVALID, f.code());
        assertEquals(3, f.req());
    }

    @Test
    void layoutGossip_fromAStranger_isIgnored_fromAMember_isReportedToTheNode() throws Exception {
        Membership m = membership();
        m.onSync(CLIENT, new LayoutSync(0, 99, 1, new byte[0]));
        assertEquals(List.of(), reports);
        assertEquals(List.of(), sent);

        m.onSync(DUBLIN, new LayoutSync(0, m.current().version(), m.current().digest(), new byte[0]));
        assertEquals(1, reports.size());
        assertEquals(m.current().version(), reports.get(0).get("dublin"));
        assertNotNull(reports.get(0).get("seoul"), "this node's own version is included");
    }
}
