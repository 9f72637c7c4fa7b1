package geoblocks.sim.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.DiskFullException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FaultyBlockStorageTest {
    private long now = 1_000;
    private final FaultTally tally = new FaultTally();
    private final FaultyBlockStorage disk = new FaultyBlockStorage(() -> now, t -> t >= 5_000 && t < 6_000, tally);
    private final BlockId id = BlockId.ofFileBlock("f1", 0);
    private final byte[] data = bytes(1, 4096);

    private static byte[] bytes(long seed, int n) {
        byte[] d = new byte[n];
        new Random(seed).nextBytes(d);
        return d;
    }

    @Test
    void flippedBlock_failsItsChecksumOnRead_untilAPutReplacesIt() throws IOException {
        disk.put(id, data, Checksums.crc32c(data));

        assertTrue(disk.flip(id, 12_345));

        assertThrows(CorruptBlockException.class, () -> disk.get(id));
        assertTrue(disk.contains(id), "a damaged block is still there, as a damaged file is");
        assertEquals(List.of(id), disk.damagedBlocks());
        disk.put(id, data, Checksums.crc32c(data)); // the scrubber's repair
        assertArrayEquals(data, disk.get(id).data());
        assertEquals(1, tally.get(FaultTally.BIT_FLIP));
        assertEquals(1, tally.get(FaultTally.CORRUPT_READ));
    }

    @Test
    void whileFull_putsAreRefusedAsDiskFull_andWorkAgainAfter() throws IOException {
        now = 5_500;
        assertThrows(DiskFullException.class, () -> disk.put(id, data, Checksums.crc32c(data)));
        assertFalse(disk.contains(id));
        now = 6_000;
        disk.put(id, data, Checksums.crc32c(data));
        assertTrue(disk.contains(id));
        assertEquals(1, tally.get(FaultTally.DISK_FULL));
    }

    @Test
    void powerCut_keepsEveryBlockPut_asAFileStoreThatSyncsBeforeReturningDoes() throws IOException {
        disk.put(id, data, Checksums.crc32c(data));
        now = 3_000;

        disk.powerCut(3_000, new Random(1), b -> false); // nothing may be torn

        assertArrayEquals(data, disk.get(id).data());
    }

    @Test
    void powerCut_tearsOnlyBlocksPutJustBefore_andOnlyWhereAllowed() throws IOException {
        BlockId old = BlockId.ofFileBlock("f0", 0);
        disk.put(old, data, Checksums.crc32c(data));
        now = 2_500;
        BlockId recent = BlockId.ofFileBlock("f2", 0);
        BlockId kept = BlockId.ofFileBlock("f3", 0);
        disk.put(recent, data, Checksums.crc32c(data));
        disk.put(kept, data, Checksums.crc32c(data));
        Random always = new Random(0) {
            @Override
            public boolean nextBoolean() {
                return true;
            }
        };

        disk.powerCut(3_000, always, b -> !b.equals(kept));

        assertArrayEquals(data, disk.get(old).data(), "put 2 s before the cut: synced long before");
        assertArrayEquals(data, disk.get(kept).data(), "no other good copy: never torn");
        assertThrows(CorruptBlockException.class, () -> disk.get(recent));
        assertEquals(1, tally.get(FaultTally.TORN_WRITE));
    }

    @Test
    void powerCut_mayUndoARecentDelete_withTheBlockAsItWas() throws IOException {
        disk.put(id, data, Checksums.crc32c(data));
        now = 2_000;
        assertTrue(disk.delete(id));
        Random always = new Random(0) {
            @Override
            public boolean nextBoolean() {
                return true;
            }
        };

        disk.powerCut(2_500, always, b -> false);

        assertArrayEquals(data, disk.get(id).data());
        assertEquals(List.of(1_000L), writtenTimes(), "listed again, with the time of its write");
        assertEquals(1, tally.get(FaultTally.DELETE_UNDONE));
    }

    private List<Long> writtenTimes() {
        List<Long> times = new ArrayList<>();
        for (int s = 0; s < disk.shards(); s++) {
            disk.listShard(s, Long.MAX_VALUE).forEach(f -> times.add(f.modifiedMillis()));
        }
        return times;
    }
}
