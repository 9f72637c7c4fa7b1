package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.DiskSpace;

/**
 * What a node reports about itself in its RTT probes: the space of its block disk and its recent
 * load, the bytes of blocks it wrote and read per second over the last probe interval.
 */
public record NodeLoad(DiskSpace disk, long ioBytesPerSecond) {
    public static final NodeLoad UNKNOWN = new NodeLoad(DiskSpace.UNKNOWN, 0);

    public NodeLoad {
        if (disk == null) {
            throw new IllegalArgumentException("disk space must be given (DiskSpace.UNKNOWN when not measured)");
        }
        if (ioBytesPerSecond < 0) {
            throw new IllegalArgumentException("I/O rate must be >= 0 bytes/s, was " + ioBytesPerSecond);
        }
    }

    /** This load after {@code bytes} more were written to the disk. */
    public NodeLoad minus(long bytes) {
        return new NodeLoad(disk.minus(bytes), ioBytesPerSecond);
    }
}
