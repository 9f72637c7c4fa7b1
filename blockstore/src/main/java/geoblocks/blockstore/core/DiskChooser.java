package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses the data directory of a node that a new block goes to, balancing free space: of the
 * healthy disks where the block fits above the reserve, the one with the most bytes available
 * (free, less the reserve, less the bytes of writes already under way to it, so that a burst of
 * concurrent writes spreads instead of piling onto the disk that looked emptiest when it began),
 * counted in steps of 1 % of the largest disk; ties go to the disk holding fewer bytes (plus those
 * under way), then to the lower index. The steps make directories on one file system tie (their
 * free space is the same but for what other writers change between two looks) and so take turns.
 * This is the "available space" policy of HDFS's volume choosers without their randomness: the
 * same inputs always give the same disk. Pure: no I/O, no clock.
 */
public final class DiskChooser {
    /** What the chooser knows of one disk: whether it works, its space, and the bytes on it and being written to it. */
    public record Disk(boolean healthy, DiskSpace space, long storedBytes, long pendingBytes) {
        public Disk {
            if (storedBytes < 0 || pendingBytes < 0) {
                throw new IllegalArgumentException("stored and pending bytes must be >= 0, were " + storedBytes
                        + " and " + pendingBytes);
            }
        }

        /** Bytes a write may still take here before the reserve (Long.MAX_VALUE when the space is unknown). */
        long available() {
            return space.known() ? space.freeBytes() - space.reserveBytes() - pendingBytes : Long.MAX_VALUE;
        }
    }

    private DiskChooser() {}

    /**
     * The disks a block of {@code bytes} may go to, best first: the first is the balanced choice, the
     * others are where to try when writing there fails. Empty when no healthy disk has room.
     */
    public static List<Integer> ranked(List<Disk> disks, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a block has >= 0 bytes, was " + bytes);
        }
        List<Integer> fit = new ArrayList<>();
        for (int i = 0; i < disks.size(); i++) {
            Disk d = disks.get(i);
            if (d.healthy() && d.available() >= bytes) {
                fit.add(i);
            }
        }
        long largest = 0;
        for (Disk d : disks) {
            largest = Math.max(largest, d.space().totalBytes());
        }
        long step = Math.max(1, largest / 100);
        fit.sort(Comparator.<Integer>comparingLong(i -> -steps(disks.get(i).available(), step))
                .thenComparingLong(i -> disks.get(i).storedBytes() + disks.get(i).pendingBytes())
                .thenComparingInt(i -> i));
        return fit;
    }

    private static long steps(long available, long step) {
        return available == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(available, step);
    }

    /** The disk a block of {@code bytes} goes to, or -1 when no healthy disk has room for it. */
    public static int choose(List<Disk> disks, long bytes) {
        List<Integer> r = ranked(disks, bytes);
        return r.isEmpty() ? -1 : r.get(0);
    }
}
