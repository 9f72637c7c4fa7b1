package geoblocks.sim.faults;

import java.util.Map;
import java.util.TreeMap;

/** Faults injected (and corruptions detected) in one run, by kind; one thread uses it. */
public final class FaultTally {
    /** A node killed and started again on what its disk kept. */
    public static final String CRASH = "crash";
    /** Metadata batches written unsynced and dropped by a power cut. */
    public static final String UNSYNCED_META_LOST = "unsynced-meta-lost";
    /** Metadata batches written unsynced that a power cut kept (a prefix of the unsynced tail the disk had written). */
    public static final String UNSYNCED_META_KEPT = "unsynced-meta-kept";
    /** Metadata syncs refused with an injected IOException. */
    public static final String SYNC_FAILED = "sync-failed";
    /** Synced metadata writes refused with an injected IOException (while syncs fail). */
    public static final String WRITE_FAILED = "meta-write-failed";
    /** Block puts refused as disk full. */
    public static final String DISK_FULL = "disk-full";
    /** Stored blocks with one bit flipped. */
    public static final String BIT_FLIP = "bit-flip";
    /** Blocks written just before a power cut left as a prefix and zeros. */
    public static final String TORN_WRITE = "torn-write";
    /** Block deletions (never synced) undone by a power cut. */
    public static final String DELETE_UNDONE = "delete-undone";
    /** Reads of a damaged block refused by its checksum (detections, not faults). */
    public static final String CORRUPT_READ = "corrupt-read";

    private final Map<String, Long> counts = new TreeMap<>();

    public void add(String kind, long n) {
        if (n > 0) {
            counts.merge(kind, n, Long::sum);
        }
    }

    public void add(String kind) {
        add(kind, 1);
    }

    public long get(String kind) {
        return counts.getOrDefault(kind, 0L);
    }

    /** Every kind counted, in name order. */
    public Map<String, Long> counts() {
        return new TreeMap<>(counts);
    }
}
