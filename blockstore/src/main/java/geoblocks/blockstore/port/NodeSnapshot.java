package geoblocks.blockstore.port;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.core.MeasuredRttMatrix;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import java.util.List;
import java.util.Map;
import se.sics.kompics.KompicsEvent;

/**
 * An immutable picture of one node at {@code timeMillis} (epoch ms), built on the file service's
 * thread: what {@code client status} answers ({@code status}: RTT per peer, refused input,
 * scrubber, transfer counters, background and LEDBAT state), the requests it served, the block
 * replicas its manifests place per region, up to {@link #MAX_FILES} files with the replicas of
 * their first {@link #MAX_BLOCKS} blocks, its transfer memory budget, its tombstones and the
 * cluster's RTT matrix as this node knows it (see RttMatrixView), the scrubber's pass progress
 * and the peers whose first RTT probes have not settled yet ({@code unsettledPeers}: neither
 * measured up nor past down-after since the node started, see {@code RttTable#unsettled}), each
 * peer's transitions from up to down since the node started ({@code peerDownTransitions}), and why
 * this node cannot decide the creates of the names it owns yet ({@code createsNotReady}, null once
 * it can: see {@code Node#notReadyToDecideCreates}). Safe to read from any thread.
 */
public record NodeSnapshot(String region, long timeMillis, StatusReply status, RequestStats.Snapshot requests,
        long files, Map<String, Placed> placed, List<FileView> recentFiles, long memoryUsedBytes,
        long memoryCapacityBytes, int openRequests, Tombstones tombstones, MeasuredRttMatrix rttMatrix, Scrub scrub,
        List<String> unsettledPeers, Map<String, Long> peerDownTransitions, String createsNotReady,
        AdmissionQueue.Stats admission, Layout layout, String storageFault)
        implements KompicsEvent {
    public NodeSnapshot {
        peerDownTransitions = Map.copyOf(peerDownTransitions);
    }

    /** A snapshot without a storage fault ({@code storageFault}: null while the metadata engine's syncs work). */
    public NodeSnapshot(String region, long timeMillis, StatusReply status, RequestStats.Snapshot requests,
            long files, Map<String, Placed> placed, List<FileView> recentFiles, long memoryUsedBytes,
            long memoryCapacityBytes, int openRequests, Tombstones tombstones, MeasuredRttMatrix rttMatrix, Scrub scrub,
            List<String> unsettledPeers, Map<String, Long> peerDownTransitions, String createsNotReady,
            AdmissionQueue.Stats admission, Layout layout) {
        this(region, timeMillis, status, requests, files, placed, recentFiles, memoryUsedBytes, memoryCapacityBytes,
                openRequests, tombstones, rttMatrix, scrub, unsettledPeers, peerDownTransitions, createsNotReady, admission,
                layout, null);
    }

    /** A snapshot of a node that runs the layout of its static config (version 0, as {@link Layout#NONE} says). */
    public NodeSnapshot(String region, long timeMillis, StatusReply status, RequestStats.Snapshot requests,
            long files, Map<String, Placed> placed, List<FileView> recentFiles, long memoryUsedBytes,
            long memoryCapacityBytes, int openRequests, Tombstones tombstones, MeasuredRttMatrix rttMatrix, Scrub scrub,
            List<String> unsettledPeers, Map<String, Long> peerDownTransitions, String createsNotReady,
            AdmissionQueue.Stats admission) {
        this(region, timeMillis, status, requests, files, placed, recentFiles, memoryUsedBytes, memoryCapacityBytes,
                openRequests, tombstones, rttMatrix, scrub, unsettledPeers, peerDownTransitions, createsNotReady, admission,
                Layout.NONE);
    }

    /**
     * The cluster layout this node acts on: its version, each region's state (active, draining,
     * removed) and the layout version each region last reported to this node. Then what its
     * rebalancer did: the moves it started to empty draining regions, and the kept versions (current
     * and earlier) with copies there it found in its last pass over its manifests, in all and per
     * draining region (-1: no pass finished yet); the moves it started to fill short regions (a
     * newcomer), and the bytes the regions were short of their share of spread copies at its last
     * pass, in all and per region (-1: no pass finished yet); the moves this node coordinated
     * that committed since it started (drains, fills, zone moves and clients' moves) with the block
     * bytes they copied; and the moves it started to spread a version's copies over zones.
     */
    public record Layout(long version, Map<String, String> states, Map<String, Long> reported, long drainMovesStarted,
            long drainPending, Map<String, Long> drainPendingByRegion, long fillMovesStarted, long fillPendingBytes,
            Map<String, Long> shortBytes, long movesCommitted, long movedBytes, long zoneMovesStarted) {
        public static final Layout NONE = new Layout(0, Map.of(), Map.of(), 0, -1, Map.of(), 0, -1, Map.of(), 0, 0, 0);

        public Layout {
            states = Map.copyOf(states);
            reported = Map.copyOf(reported);
            drainPendingByRegion = Map.copyOf(drainPendingByRegion);
            shortBytes = Map.copyOf(shortBytes);
        }
    }

    public static final int MAX_FILES = 100;
    public static final int MAX_BLOCKS = 64;

    /**
     * Deleted names whose tombstone this node keeps ({@code kept}: until every region acknowledged
     * it, see docs/consistency.md), and the tombstones it dropped since start because every region
     * had acknowledged them or because the tombstone retention expired first.
     */
    public record Tombstones(long kept, long collectedAcknowledged, long collectedExpired) {}

    /**
     * The scrubber's passes: {@code passes} finished since the node started, whether one is
     * {@code running}, the blocks it checked (verified, repaired or found unrepairable) in the
     * running pass or else the last one, when that pass started and when the last finished pass
     * ended (epoch ms, -1: never).
     */
    public record Scrub(long passes, boolean running, long passBlocks, long passStartMillis, long lastPassEndMillis) {}

    /** Block replicas the manifests known here place at one region, and their bytes. */
    public record Placed(long blocks, long bytes) {}

    /**
     * One file: its manifest's facts and, for its first {@code blockReplicas.size()} blocks (at
     * most {@link #MAX_BLOCKS} of {@code blocks}), the regions holding each block.
     */
    public record FileView(String name, long size, int blockSize, String policy, String uploadedAt, long createdMillis,
            int blocks, List<List<String>> blockReplicas) {}
}
