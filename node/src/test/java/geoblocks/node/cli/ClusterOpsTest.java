package geoblocks.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutChange;
import geoblocks.blockstore.core.layout.LayoutChanges;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.ClientOp.RegionReport;
import geoblocks.node.admin.ClusterJson;
import geoblocks.node.s3.MiniJson;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterOpsTest {
    static ClusterReply reply() {
        Layout l = Layout.fromConfig(Map.of("seoul", "10.0.0.1:47101", "dublin", "10.0.1.1:47101"));
        l = LayoutChanges.apply(l, new LayoutChange.Drain("dublin"), Map.of("seoul", 0L, "dublin", 0L), Set.of(), false)
                .layout();
        return new ClusterReply(1, LayoutCodec.encode(l), List.of(new RegionReport("dublin", 0, 12, 4096, 3, 0),
                new RegionReport("seoul", 1, 30, 8192, -1, 2048)), List.of("forced: x"));
    }

    @Test
    void text_listsEveryRegionWithStateReportAndReplicas_thenTheOwners() throws Exception {
        String t = ClusterOps.text("seoul", (Map<?, ?>) MiniJson.parse(ClusterJson.render(reply())));
        assertTrue(t.startsWith("cluster layout version 1 (as node seoul holds it)"), t);
        assertTrue(t.lines().anyMatch(l -> l.matches("\\s+dublin\\s+draining\\s+10\\.0\\.1\\.1:47101\\s+dublin\\s+-\\s+0\\s+12\\s+4096\\s+3\\s+0")), t);
        assertTrue(t.lines().anyMatch(l -> l.matches("\\s+seoul\\s+active\\s+\\S+\\s+seoul\\s+-\\s+1\\s+30\\s+8192\\s+-\\s+2048")),
                t);
        assertTrue(t.contains("owners: [seoul] since version 1 (before: [dublin, seoul])"), t);
    }

    @Test
    void json_isTheLayoutWithReportsAndWarnings() throws Exception {
        assertEquals("{\"version\":1,\"clusterVersion\":\"0.2\",\"regions\":[{\"region\":\"dublin\",\"state\":\"draining\",\"address\":\"10.0.1.1:47101\","
                + "\"zone\":\"dublin\",\"capacityBytes\":0,\"reportedVersion\":0,\"replicas\":12,\"bytes\":4096,"
                + "\"pendingVersions\":3,\"shortBytes\":0,\"key\":\"\",\"previousKey\":\"\"},"
                + "{\"region\":\"seoul\",\"state\":\"active\",\"address\":\"10.0.0.1:47101\",\"zone\":\"seoul\","
                + "\"capacityBytes\":0,\"reportedVersion\":1,\"replicas\":30,\"bytes\":8192,"
                + "\"pendingVersions\":-1,\"shortBytes\":2048,\"key\":\"\",\"previousKey\":\"\"}],\"owners\":[\"seoul\"],"
                + "\"ownersSince\":1,\"ownersBefore\":[\"dublin\",\"seoul\"],\"warnings\":[\"forced: x\"]}",
                ClusterJson.render(reply()));
    }
}
