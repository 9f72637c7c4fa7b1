package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Memory storage with a capacity behaves like a small disk: space is reported, the reserve is kept. */
class MemoryBlockStorageCapacityTest {
    private static void put(BlockStorage s, String id, int bytes) throws IOException {
        byte[] d = new byte[bytes];
        s.put(new BlockId(id), d, Checksums.crc32c(d));
    }

    @Test
    void space_countsBlocks_replaceAndDeleteIncluded() throws IOException {
        MemoryBlockStorage s = new MemoryBlockStorage(1000, 100, () -> 0L);
        assertEquals(new DiskSpace(1000, 1000, 100), s.space());
        put(s, "a", 300);
        put(s, "b", 200);
        put(s, "a", 100); // replaced: counts once
        assertEquals(new DiskSpace(1000, 700, 100), s.space());
        s.delete(new BlockId("b"));
        assertEquals(900, s.space().freeBytes());
        assertEquals(100, s.usedBytes());
    }

    @Test
    void put_belowTheReserve_isRefusedAsDiskFull_andNothingChanges() throws IOException {
        MemoryBlockStorage s = new MemoryBlockStorage(1000, 100, () -> 0L);
        put(s, "a", 900);
        IOException e = assertThrows(IOException.class, () -> put(s, "b", 1));
        assertEquals(FailureCode.INSUFFICIENT_STORAGE,
                Failure.ofStorage(e).code(), "typed as no room: " + e);
        assertFalse(s.contains(new BlockId("b")));
        assertEquals(100, s.space().freeBytes());
    }

    @Test
    void unlimited_spaceIsUnknown() {
        assertEquals(DiskSpace.UNKNOWN, new MemoryBlockStorage(() -> 0L).space());
        assertThrows(IllegalArgumentException.class, () -> new MemoryBlockStorage(100, 100, () -> 0L));
    }
}
