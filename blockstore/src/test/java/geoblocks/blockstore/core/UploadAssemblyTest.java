package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UploadAssemblyTest {
    private final MemoryBudget budget = new MemoryBudget(1 << 20);

    private static byte[] bytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Feeds block {@code index} of {@code file} in pieces of {@code piece} bytes; the completed block. */
    private static UploadAssembly.Block feed(UploadAssembly a, byte[] file, int blockSize, int index, int piece) {
        int start = index * blockSize;
        int end = Math.min(file.length, start + blockSize);
        int crc = Checksums.crc32c(Arrays.copyOfRange(file, start, end));
        UploadAssembly.Block out = null;
        for (int off = start; off < end || (off == start && start == end); off += piece) {
            int to = Math.min(end, off + piece);
            out = a.add(index, off - start, Arrays.copyOfRange(file, off, to), to == end, crc);
            if (start == end) {
                break;
            }
        }
        return out;
    }

    @Test
    void add_blockInPieces_completesOnceWithItsBytesAndChecksum() {
        byte[] file = bytes(1, 2500);
        UploadAssembly a = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        assertEquals(3, a.blocks());
        assertNull(a.add(0, 0, Arrays.copyOfRange(file, 0, 400), false, 0));
        UploadAssembly.Block b = a.add(0, 400, Arrays.copyOfRange(file, 400, 1000), true,
                Checksums.crc32c(Arrays.copyOfRange(file, 0, 1000)));
        assertNotNull(b);
        assertEquals(0, b.index());
        assertArrayEquals(Arrays.copyOfRange(file, 0, 1000), b.data());
        assertEquals(Checksums.crc32c(b.data()), b.crc());
        assertEquals(500, a.lengthOf(2));
    }

    @Test
    void add_outOfOrderOrOverrunOrPastTheEnd_isRefused() {
        byte[] file = bytes(2, 1500);
        UploadAssembly a = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        assertThrows(IllegalArgumentException.class, () -> a.add(1, 0, new byte[10], false, 0));
        assertThrows(IllegalArgumentException.class, () -> a.add(0, 5, new byte[10], false, 0));
        UploadAssembly b = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        assertThrows(IllegalArgumentException.class, () -> b.add(0, 0, new byte[1001], true, 0));
        UploadAssembly c = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        feed(c, file, 1000, 0, 1000);
        feed(c, file, 1000, 1, 1000);
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class, () -> c.add(2, 0, new byte[1], true, 0));
        assertTrue(past.getMessage().contains("past the announced size"), past.getMessage());
    }

    @Test
    void add_wrongChecksumOrMissingLastFlag_isRefusedNamingBothChecksums() {
        byte[] file = bytes(3, 1000);
        UploadAssembly a = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.add(0, 0, file, true, Checksums.crc32c(file) ^ 1));
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
        UploadAssembly b = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        assertThrows(IllegalArgumentException.class, () -> b.add(0, 0, file, false, Checksums.crc32c(file)));
    }

    @Test
    void durablePrefix_growsOnlyOverBlocksWithEveryCopyDurable_inOrder() {
        byte[] file = bytes(4, 3000);
        UploadAssembly a = new UploadAssembly(file.length, 1000, 1 << 20, budget);
        for (int i = 0; i < 3; i++) {
            feed(a, file, 1000, i, 300);
            a.expectCopies(i, 2);
        }
        assertEquals(3000, budget.used());
        assertEquals(-1, a.copyDurable(1));
        assertEquals(-1, a.copyDurable(1)); // block 1 durable, but block 0 is not: no progress to report
        assertEquals(2000, budget.used());
        assertEquals(-1, a.copyDurable(0));
        assertEquals(2000, a.copyDurable(0)); // blocks 0 and 1 at once
        assertFalse(a.complete());
        a.copyDurable(2);
        assertEquals(3000, a.copyDurable(2));
        assertTrue(a.complete());
        assertEquals(0, budget.used());
        assertThrows(IllegalStateException.class, () -> a.copyDurable(2));
    }

    @Test
    void window_refusesDataTooFarAheadOfWhatIsDurable() {
        byte[] file = bytes(5, 5000);
        UploadAssembly a = new UploadAssembly(file.length, 1000, 2000, budget);
        feed(a, file, 1000, 0, 1000);
        feed(a, file, 1000, 1, 1000);
        feed(a, file, 1000, 2, 1000); // window + one block in flight
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> feed(a, file, 1000, 3, 1000));
        assertTrue(e.getMessage().contains("beyond what is durable"), e.getMessage());
        UploadAssembly b = new UploadAssembly(file.length, 1000, 2000, new MemoryBudget(1 << 20));
        for (int i = 0; i < 5; i++) {
            feed(b, file, 1000, i, 1000);
            b.expectCopies(i, 1);
            b.copyDurable(i); // durable as it goes: the window never fills
        }
        assertTrue(b.complete());
    }

    @Test
    void memory_isReservedPerBlockAndRefusedWhenTheBudgetIsFull_releaseAllReturnsIt() {
        MemoryBudget small = new MemoryBudget(1500);
        byte[] file = bytes(6, 3000);
        UploadAssembly a = new UploadAssembly(file.length, 1000, 1 << 20, small);
        feed(a, file, 1000, 0, 1000);
        a.expectCopies(0, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> feed(a, file, 1000, 1, 1000));
        assertTrue(e.getMessage().startsWith("node busy"), e.getMessage());
        assertEquals(1000, a.reservedBytes());
        a.releaseAll();
        assertEquals(0, small.used());
    }

    @Test
    void emptyFile_isOneEmptyBlock() {
        UploadAssembly a = new UploadAssembly(0, 1000, 1 << 20, budget);
        assertEquals(1, a.blocks());
        UploadAssembly.Block b = a.add(0, 0, new byte[0], true, Checksums.crc32c(new byte[0]));
        assertNotNull(b);
        a.expectCopies(0, 3);
        a.copyDurable(0);
        a.copyDurable(0);
        assertEquals(0, a.copyDurable(0));
        assertTrue(a.complete());
    }

    @Test
    void expectCopies_beforeTheBlockIsHandedOutOrTwice_isAProgrammingError() {
        UploadAssembly a = new UploadAssembly(2000, 1000, 1 << 20, budget);
        assertThrows(IllegalStateException.class, () -> a.expectCopies(0, 1));
        byte[] block = bytes(7, 1000);
        a.add(0, 0, block, true, Checksums.crc32c(block));
        a.expectCopies(0, 1);
        assertThrows(IllegalStateException.class, () -> a.expectCopies(0, 1));
    }

    @Test
    void add_compressedBlock_endsAtItsLastPieceAndReturnsTheUnusedMemory() {
        byte[] raw = new byte[1000];
        Arrays.fill(raw, (byte) 'x');
        Compression.Encoded e = Compression.ZSTD.encode(raw, raw.length);
        assertEquals(BlockCodec.ZSTD, e.codec());
        int storedCrc = Checksums.crc32c(e.stored());
        UploadAssembly a = new UploadAssembly(1500, 1000, 1 << 20, budget);
        long before = budget.used();
        UploadAssembly.Block b = a.add(0, 0, e.stored(), true, storedCrc, BlockCodec.ZSTD.id(), e.rawCrc());
        assertNotNull(b);
        assertArrayEquals(e.stored(), b.data());
        assertEquals(BlockCodec.ZSTD, b.codec());
        assertEquals(1000, b.rawLength());
        assertEquals(Checksums.crc32c(raw), b.rawCrc());
        assertEquals(e.stored().length, a.reservedBytes());
        assertEquals(before + e.stored().length, budget.used());
        Manifest.BlockRef ref = b.ref(List.of("seoul"));
        assertEquals(e.stored().length, ref.length());
        assertEquals(1000, ref.rawLength());
        // the next block starts at offset 0 of block 1
        assertNull(a.add(1, 0, new byte[100], false, 0));
    }

    @Test
    void add_uncompressedBlockEndingEarlyOrUnknownCodecOrTwoChecksums_isRefused() {
        UploadAssembly a = new UploadAssembly(1000, 1000, 1 << 20, budget);
        byte[] part = bytes(5, 400);
        IllegalArgumentException early = assertThrows(IllegalArgumentException.class,
                () -> a.add(0, 0, part, true, Checksums.crc32c(part)));
        assertTrue(early.getMessage().contains("ends after 400"), early.getMessage());
        UploadAssembly b = new UploadAssembly(1000, 1000, 1 << 20, budget);
        IllegalArgumentException codec = assertThrows(IllegalArgumentException.class,
                () -> b.add(0, 0, part, true, Checksums.crc32c(part), 7, 0));
        assertTrue(codec.getMessage().contains("codec id 7"), codec.getMessage());
        UploadAssembly c = new UploadAssembly(400, 1000, 1 << 20, budget);
        assertThrows(IllegalArgumentException.class,
                () -> c.add(0, 0, part, true, Checksums.crc32c(part), BlockCodec.NONE.id(), 42));
    }
}
