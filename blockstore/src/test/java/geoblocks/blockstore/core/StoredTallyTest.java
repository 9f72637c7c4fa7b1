package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StoredTallyTest {
    @Test
    void startsFromTheScan_andMovesWithWritesAndDeletes() {
        StoredTally t = new StoredTally(new StoredBlocks(3, 300));
        t.wrote(-1, 50);
        assertEquals(new StoredBlocks(4, 350), t.totals());
        t.wrote(50, 20); // a replacement: same count, new size
        assertEquals(new StoredBlocks(4, 320), t.totals());
        t.deleted(20);
        assertEquals(new StoredBlocks(3, 300), t.totals());
    }

    @Test
    void aDiskChangedBehindItsBack_neverDrivesTheTotalsBelowZero() {
        StoredTally t = new StoredTally(new StoredBlocks(1, 10));
        t.wrote(500, 5); // the old file had grown on disk since the scan
        assertEquals(new StoredBlocks(1, 5), t.totals());
        t.deleted(80);
        t.deleted(0);
        assertEquals(StoredBlocks.NONE, t.totals());
    }

    @Test
    void negativeSizes_areRefused() {
        StoredTally t = new StoredTally(StoredBlocks.NONE);
        assertThrows(IllegalArgumentException.class, () -> t.wrote(-1, -1));
        assertThrows(IllegalArgumentException.class, () -> t.deleted(-1));
        assertThrows(IllegalArgumentException.class, () -> new StoredBlocks(-1, 0));
    }
}
