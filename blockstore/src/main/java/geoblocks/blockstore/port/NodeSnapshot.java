package geoblocks.blockstore.port;

import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.wire.FileOp.StatusReply;
import java.util.List;
import java.util.Map;
import se.sics.kompics.KompicsEvent;

/**
 * An immutable picture of one node at {@code timeMillis} (epoch ms), built on the file service's
 * thread: what {@code client status} answers ({@code status}: RTT per peer, refused input,
 * scrubber, transfer counters, background and LEDBAT state), the requests it served, the block
 * replicas its manifests place per region, up to {@link #MAX_FILES} files with the replicas of
 * their first {@link #MAX_BLOCKS} blocks, and its transfer memory budget. Safe to read from any thread.
 */
public record NodeSnapshot(String region, long timeMillis, StatusReply status, RequestStats.Snapshot requests,
        long files, Map<String, Placed> placed, List<FileView> recentFiles, long memoryUsedBytes,
        long memoryCapacityBytes, int openRequests) implements KompicsEvent {
    public static final int MAX_FILES = 100;
    public static final int MAX_BLOCKS = 64;

    /** Block replicas the manifests known here place at one region, and their bytes. */
    public record Placed(long blocks, long bytes) {}

    /**
     * One file: its manifest's facts and, for its first {@code blockReplicas.size()} blocks (at
     * most {@link #MAX_BLOCKS} of {@code blocks}), the regions holding each block.
     */
    public record FileView(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis,
            int blocks, List<List<String>> blockReplicas) {}
}
