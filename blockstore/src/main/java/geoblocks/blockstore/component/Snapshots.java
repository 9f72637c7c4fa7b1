package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.port.NodeSnapshot.FileView;
import geoblocks.blockstore.port.NodeSnapshot.Placed;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the file service's {@link NodeSnapshot} from what the {@link ManifestStore} keeps on every
 * change, never by walking the names: the live-file and name counters, the block replicas and
 * bytes per region, and the {@link NodeSnapshot#MAX_FILES} newest files from the creation index
 * (so a snapshot costs the same at a million files as at ten); then adds the status, request
 * statistics, memory budget, RTT matrix, scrubber progress and the peers whose first probes have
 * not settled. Runs on the file service's thread.
 */
final class Snapshots {
    private Snapshots() {}

    static NodeSnapshot build(NodeContext node, StatusReply status, RequestStats stats, int openRequests,
            String storageFault, NodeSnapshot.Scrub scrub, long nowMillis) {
        ManifestStore manifests = node.manifests();
        Map<String, Placed> byRegion = new TreeMap<>();
        byRegion.put(node.region(), new Placed(0, 0));
        for (String r : node.peerRegions()) {
            byRegion.put(r, new Placed(0, 0));
        }
        manifests.placed().forEach((r, p) -> byRegion.put(r, new Placed(p.blocks(), p.bytes())));
        long files = manifests.size();
        List<FileView> views = new ArrayList<>();
        for (Manifest m : manifests.newest(NodeSnapshot.MAX_FILES)) {
            views.add(view(m));
        }
        Map<String, String> states = new TreeMap<>();
        node.layout().regions().forEach((id, r) -> states.put(id, r.state().label()));
        Rebalancer.Figures f = node.rebalance();
        NodeSnapshot.Layout layout = new NodeSnapshot.Layout(node.layout().version(), states, node.layoutReports(),
                f.drainStarted(), f.drainPending(), f.drainPendingByRegion(), f.fillStarted(), f.fillPendingBytes(),
                f.shortBy(), f.committed(), f.committedBytes(), f.zoneStarted());
        return new NodeSnapshot(node.region(), nowMillis, status, stats.snapshot(), files, Map.copyOf(byRegion),
                List.copyOf(views), node.budget().used(), node.budget().capacity(), openRequests,
                new NodeSnapshot.Tombstones(manifests.names() - files, node.versions().tombstonesAcknowledged,
                        node.versions().tombstonesExpired), node.rttMatrix(), scrub, node.unsettledPeers(),
                node.downTransitions(), node.notReadyToDecideCreates(), node.admission().stats(), layout, storageFault);
    }

    private static FileView view(Manifest m) {
        List<List<String>> replicas = new ArrayList<>();
        for (Manifest.BlockRef b : m.blocks()) {
            if (replicas.size() == NodeSnapshot.MAX_BLOCKS) {
                break;
            }
            replicas.add(List.copyOf(b.replicas()));
        }
        return new FileView(m.name(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), m.createdMillis(),
                m.blocks().size(), List.copyOf(replicas));
    }
}
