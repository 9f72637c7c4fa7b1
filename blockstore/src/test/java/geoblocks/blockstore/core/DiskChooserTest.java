package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which disk a new block goes to: the most space available, ties to the emptier, then the first. */
class DiskChooserTest {
    static final long MIB = 1 << 20;

    static DiskChooser.Disk disk(long totalMiB, long freeMiB, long reserveMiB, long storedMiB) {
        return new DiskChooser.Disk(true, new DiskSpace(totalMiB * MIB, freeMiB * MIB, reserveMiB * MIB), storedMiB * MIB, 0);
    }

    @Test
    void choose_picksTheDiskWithMostSpaceAboveItsReserve() {
        List<DiskChooser.Disk> disks = List.of(disk(100, 60, 0, 40), disk(100, 70, 20, 30), disk(200, 55, 0, 145));
        assertEquals(0, DiskChooser.choose(disks, MIB)); // 60 > 55 > 50
    }

    @Test
    void choose_skipsFailedDisks_andThoseWhereTheBlockWouldEatTheReserve() {
        List<DiskChooser.Disk> disks = List.of(
                new DiskChooser.Disk(false, new DiskSpace(100 * MIB, 90 * MIB, 0), 0, 0),
                disk(100, 12, 10, 88),
                disk(100, 5, 0, 95));
        assertEquals(2, DiskChooser.choose(disks, 3 * MIB)); // disk 1 has 2 MiB above its reserve
        assertEquals(-1, DiskChooser.choose(disks, 6 * MIB));
        assertEquals(List.of(2, 1), DiskChooser.ranked(disks, MIB));
    }

    @Test
    void choose_equalSpace_goesToTheDiskHoldingLess_thenTheFirst() {
        // two directories on one file system see the same free space
        assertEquals(1, DiskChooser.choose(List.of(disk(100, 50, 0, 30), disk(100, 50, 0, 20)), MIB));
        assertEquals(0, DiskChooser.choose(List.of(disk(100, 50, 0, 20), disk(100, 50, 0, 20)), MIB));
    }

    @Test
    void directoriesOnOneFileSystem_whoseFreeSpaceOthersMove_takeTurns() {
        long total = 500L << 30;
        long[] stored = new long[2];
        int[] chosen = new int[2];
        for (int i = 0; i < 100; i++) {
            long free = (200L << 30) - i * 7919L * 1024; // other writers move it between the two looks
            List<DiskChooser.Disk> view = List.of(
                    new DiskChooser.Disk(true, new DiskSpace(total, free, 0), stored[0], 0),
                    new DiskChooser.Disk(true, new DiskSpace(total, free - 4096 + (i % 3) * 4096, 0), stored[1], 0));
            int d = DiskChooser.choose(view, MIB);
            stored[d] += MIB;
            chosen[d]++;
        }
        assertEquals(50, chosen[0]);
        assertEquals(50, chosen[1]);
    }

    @Test
    void freeSpaceIsComparedInStepsOfOnePercentOfTheLargestDisk() {
        // 0.5 MiB apart on 100 MiB disks: the same step, so the one holding less wins
        assertEquals(1, DiskChooser.choose(List.of(
                new DiskChooser.Disk(true, new DiskSpace(100 * MIB, 50 * MIB + MIB / 2, 0), 10 * MIB, 0),
                new DiskChooser.Disk(true, new DiskSpace(100 * MIB, 50 * MIB, 0), 9 * MIB, 0)), MIB));
    }

    @Test
    void choose_countsWritesUnderWay_soABurstSpreads() {
        List<DiskChooser.Disk> disks = List.of(
                new DiskChooser.Disk(true, new DiskSpace(100 * MIB, 50 * MIB, 0), 0, 8 * MIB),
                new DiskChooser.Disk(true, new DiskSpace(100 * MIB, 45 * MIB, 0), 0, 0));
        assertEquals(1, DiskChooser.choose(disks, MIB)); // 42 MiB left on disk 0 once its writes land
    }

    @Test
    void sequentialPuts_overUnequalDisks_evenOutTheirFreeSpace() {
        long[] free = {100, 40, 70};
        long[] stored = new long[3];
        for (int i = 0; i < 150; i++) {
            List<DiskChooser.Disk> view = new ArrayList<>();
            for (int d = 0; d < 3; d++) {
                view.add(disk(100, free[d], 0, stored[d]));
            }
            int d = DiskChooser.choose(view, MIB);
            free[d]--;
            stored[d]++;
        }
        // 210 MiB free before, 60 after: 20 each
        assertEquals(List.of(20L, 20L, 20L), List.of(free[0], free[1], free[2]));
    }

    @Test
    void unknownSpace_isAlwaysRoom_andTiesGoByBytesHeld() {
        List<DiskChooser.Disk> disks = List.of(new DiskChooser.Disk(true, DiskSpace.UNKNOWN, 500, 0),
                new DiskChooser.Disk(true, DiskSpace.UNKNOWN, 100, 0));
        assertEquals(1, DiskChooser.choose(disks, Long.MAX_VALUE / 2));
    }

    @Test
    void badInput_isRefusedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DiskChooser.choose(List.of(), -1));
        assertEquals("a block has >= 0 bytes, was -1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DiskChooser.Disk(true, DiskSpace.UNKNOWN, -5, 0));
        assertEquals(-1, DiskChooser.choose(List.of(), 1));
    }
}
