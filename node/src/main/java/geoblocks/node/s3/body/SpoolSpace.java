package geoblocks.node.s3.body;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * How much the gateway may spool: request bodies wait in spool files (a PutObject's until it is stored, a
 * part's until its upload completes), on the node's first data disk, beside the metadata. A body is
 * admitted only when the spool stays within {@code quota} bytes (0: no quota) counting the bodies being
 * received, and the disk keeps {@code minFree} bytes free after it; else it is refused at once
 * ({@code 503 SlowDown}: retry later), before any byte is written. The spool's size on disk is read at most
 * every {@value #REFRESH_MS} ms; bodies admitted since count by their announced size until they end. Time
 * and the disk's figures are passed in. Thread-safe.
 */
public final class SpoolSpace {
    static final long REFRESH_MS = 1_000;
    private final long quota;
    private final long minFree;
    private final LongSupplier spooled;
    private final LongSupplier usable;
    private final LongSupplier clock;
    private long inFlight;
    private long spooledSeen;
    private long seenAt = Long.MIN_VALUE;

    /**
     * @param spooled bytes the spool holds on disk now
     * @param usable bytes the spool's disk can still take now
     */
    public SpoolSpace(long quota, long minFree, LongSupplier spooled, LongSupplier usable, LongSupplier clockMillis) {
        if (quota < 0 || minFree < 0) {
            throw new IllegalArgumentException("geoblocks.s3.spool.quota and min-free must be >= 0, were " + quota + " and "
                    + minFree);
        }
        this.quota = quota;
        this.minFree = minFree;
        this.spooled = spooled;
        this.usable = usable;
        this.clock = clockMillis;
    }

    /** An admitted body's share: released once, when it ended (its bytes are on disk then) or was dropped. */
    public final class Reservation {
        private final long bytes;
        private final AtomicBoolean released = new AtomicBoolean();

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        public void release() {
            if (released.compareAndSet(false, true)) {
                synchronized (SpoolSpace.this) {
                    inFlight -= bytes;
                    seenAt = Long.MIN_VALUE; // read the disk again: the body is there now, or gone
                }
            }
        }
    }

    /** Admits a body of {@code bytes}, or throws naming the limit it would pass. */
    public synchronized Reservation admit(long bytes) throws S3Exception {
        long now = clock.getAsLong();
        if (seenAt == Long.MIN_VALUE || now - seenAt >= REFRESH_MS) {
            spooledSeen = spooled.getAsLong();
            seenAt = now;
        }
        if (quota > 0 && spooledSeen + inFlight + bytes > quota) {
            throw new S3Exception(S3Error.SLOW_DOWN, "the gateway's spool is full: " + spooledSeen + " bytes spooled and "
                    + inFlight + " arriving, a body of " + bytes + " would pass geoblocks.s3.spool.quota (" + quota
                    + " bytes); retry later");
        }
        long free = usable.getAsLong();
        if (free - inFlight - bytes < minFree) {
            throw new S3Exception(S3Error.SLOW_DOWN, "the spool's disk is nearly full: " + free + " bytes free, " + inFlight
                    + " arriving, a body of " + bytes + " would leave less than geoblocks.s3.spool.min-free (" + minFree
                    + " bytes); retry later");
        }
        inFlight += bytes;
        return new Reservation(bytes);
    }

    /** Bytes admitted and still arriving (for tests and metrics). */
    public synchronized long inFlight() {
        return inFlight;
    }
}
