package geoblocks.blockstore.core;

/**
 * Space on the disk a node keeps its blocks on: total and free bytes, and the reserve a block write
 * must leave free (a write that would not is refused as "disk full"). {@code totalBytes} 0 means
 * unknown (memory storage without a capacity): such a disk always fits and has no use fraction.
 */
public record DiskSpace(long totalBytes, long freeBytes, long reserveBytes) {
    public static final DiskSpace UNKNOWN = new DiskSpace(0, 0, 0);

    public DiskSpace {
        if (totalBytes < 0 || freeBytes < 0 || reserveBytes < 0) {
            throw new IllegalArgumentException("disk space must not be negative, was total " + totalBytes + ", free "
                    + freeBytes + ", reserve " + reserveBytes);
        }
    }

    public boolean known() {
        return totalBytes > 0;
    }

    /** Share of the disk in use, 0..1 (NaN when unknown). */
    public double used() {
        return known() ? Math.min(1, Math.max(0, 1 - (double) freeBytes / totalBytes)) : Double.NaN;
    }

    /** True when writing {@code bytes} more leaves at least the reserve free (always when unknown). */
    public boolean fits(long bytes) {
        return !known() || freeBytes - bytes >= reserveBytes;
    }

    /**
     * True when the disk is known and holds no more than its reserve free: every block write is refused (as
     * "disk full") until space returns.
     */
    public boolean full() {
        return known() && freeBytes <= reserveBytes;
    }

    /** "N MiB free of M MiB, R MiB kept free": for an operator. */
    public String describe() {
        return known() ? (freeBytes >> 20) + " MiB free of " + (totalBytes >> 20) + " MiB, " + (reserveBytes >> 20)
                + " MiB kept free (min-free-disk)" : "unknown";
    }

    /** This space after {@code bytes} more were written (free never below 0). */
    public DiskSpace minus(long bytes) {
        return known() ? new DiskSpace(totalBytes, Math.max(0, freeBytes - bytes), reserveBytes) : this;
    }
}
