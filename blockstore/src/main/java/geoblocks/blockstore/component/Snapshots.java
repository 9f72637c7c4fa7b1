package geoblocks.blockstore.component;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.port.NodeSnapshot.FileView;
import geoblocks.blockstore.port.NodeSnapshot.Placed;
import geoblocks.blockstore.wire.FileOp.StatusReply;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the file service's {@link NodeSnapshot}: walks every manifest known here once (counting
 * block replicas and bytes per region, keeping the {@link NodeSnapshot#MAX_FILES} newest files),
 * and adds the status, request statistics, memory budget, RTT matrix, scrubber progress and the
 * peers whose first probes have not settled. Runs on the file service's thread.
 */
final class Snapshots {
    private static final int PAGE = 1_000;

    private Snapshots() {}

    static NodeSnapshot build(NodeContext node, StatusReply status, RequestStats stats, int openRequests,
            NodeSnapshot.Scrub scrub, long nowMillis) {
        Map<String, long[]> placed = new TreeMap<>();
        placed.put(node.region(), new long[2]);
        for (String r : node.peerRegions()) {
            placed.put(r, new long[2]);
        }
        List<Manifest> newest = new ArrayList<>();
        long files = 0;
        String after = "";
        while (true) {
            List<Manifest> page = node.manifests().list(after, PAGE);
            for (Manifest m : page) {
                files++;
                for (Manifest.BlockRef b : m.blocks()) {
                    for (String r : b.replicas()) {
                        long[] p = placed.computeIfAbsent(r, x -> new long[2]);
                        p[0]++;
                        p[1] += b.length();
                    }
                }
                keepNewest(newest, m);
            }
            if (page.size() < PAGE) {
                break;
            }
            after = page.get(page.size() - 1).name();
        }
        Map<String, Placed> byRegion = new TreeMap<>();
        placed.forEach((r, p) -> byRegion.put(r, new Placed(p[0], p[1])));
        List<FileView> views = new ArrayList<>();
        for (Manifest m : trimmed(newest)) {
            views.add(view(m));
        }
        return new NodeSnapshot(node.region(), nowMillis, status, stats.snapshot(), files, Map.copyOf(byRegion),
                List.copyOf(views), node.budget().used(), node.budget().capacity(), openRequests,
                new NodeSnapshot.Tombstones(node.manifests().names() - files, node.versions().tombstonesAcknowledged,
                        node.versions().tombstonesExpired), node.rttMatrix(), scrub, node.unsettledPeers());
    }

    private static final Comparator<Manifest> NEWEST_FIRST =
            Comparator.comparingLong(Manifest::createdMillis).reversed().thenComparing(Manifest::name);

    private static void keepNewest(List<Manifest> newest, Manifest m) {
        newest.add(m);
        if (newest.size() > 2 * NodeSnapshot.MAX_FILES) {
            newest.sort(NEWEST_FIRST);
            newest.subList(NodeSnapshot.MAX_FILES, newest.size()).clear();
        }
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

    /** The newest {@link NodeSnapshot#MAX_FILES} of {@code newest}, newest first. */
    static List<Manifest> trimmed(List<Manifest> newest) {
        newest.sort(NEWEST_FIRST);
        return newest.subList(0, Math.min(NodeSnapshot.MAX_FILES, newest.size()));
    }
}
