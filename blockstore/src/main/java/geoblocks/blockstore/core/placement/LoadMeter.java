package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.DiskSpace;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A node's own load, for its RTT probes: the block store counts the bytes it writes and reads
 * ({@link #recordIo}, from any thread), the RTT monitor samples the disk space and the I/O rate since
 * its previous sample ({@link #sample}, time passed in).
 */
public final class LoadMeter {
    private final Supplier<DiskSpace> disk;
    private final AtomicLong ioBytes = new AtomicLong();
    private long lastBytes;
    private long lastNanos;
    private boolean sampled;

    public LoadMeter(Supplier<DiskSpace> disk) {
        this.disk = disk;
    }

    public void recordIo(long bytes) {
        ioBytes.addAndGet(bytes);
    }

    /** The disk now and the bytes per second moved since the previous sample (0 at the first). */
    public synchronized NodeLoad sample(long nowNanos) {
        long bytes = ioBytes.get();
        long rate = 0;
        if (sampled && nowNanos > lastNanos) {
            rate = Math.round((bytes - lastBytes) * 1e9 / (nowNanos - lastNanos));
        }
        sampled = true;
        lastBytes = bytes;
        lastNanos = nowNanos;
        return new NodeLoad(disk.get(), Math.max(0, rate));
    }
}
