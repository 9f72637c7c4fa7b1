package geoblocks.blockstore.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Manifest.BlockRef;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangePlanTest {
    private static final List<String> AT = List.of("seoul");

    /** {@code size} bytes in blocks of {@code blockSize}, each stored as {@code stored[i]} bytes (compressed when shorter). */
    private static Manifest manifest(long size, int blockSize, int... stored) {
        List<BlockRef> blocks = new ArrayList<>();
        for (int i = 0; i < stored.length; i++) {
            int raw = (int) Math.min(blockSize, size - (long) i * blockSize);
            blocks.add(stored[i] == raw ? new BlockRef(raw, 7, AT)
                    : new BlockRef(stored[i], 7, AT, BlockCodec.ZSTD, raw, 9));
        }
        return new Manifest("f.bin", "f1", size, blockSize, "local", "seoul", 1L, blocks);
    }

    @Test
    void whole_ofAnEmptyFile_needsNoBlock() {
        RangePlan p = RangePlan.whole(manifest(0, 100));
        assertEquals(0, p.blockCount());
        assertEquals(0, p.length());
        assertEquals(0, p.storedLength());
    }

    @Test
    void range_ofAnEmptyFile_isRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RangePlan.of(manifest(0, 100), 0, 0));
        assertTrue(e.getMessage().contains("beyond the last byte"), e.getMessage());
    }

    @Test
    void whole_coversEveryBlockAsStored() {
        RangePlan p = RangePlan.whole(manifest(250, 100, 100, 40, 50));
        assertEquals(new RangePlan(0, 249, 0, 3, 0, 0, 190), p);
    }

    @Test
    void rangeInOneBlock_fetchesOnlyThatBlock_andTrimsBothEnds() {
        RangePlan p = RangePlan.of(manifest(250, 100, 100, 100, 50), 120, 129);
        assertEquals(1, p.firstBlock());
        assertEquals(1, p.blockCount());
        assertEquals(100, p.rawStart());
        assertEquals(100, p.storedStart());
        assertEquals(200, p.storedEnd());
        assertEquals(20, p.keepFrom(100, 100));
        assertEquals(30, p.keepTo(100, 100));
        assertEquals(10, p.length());
    }

    @Test
    void rangeSpanningBlocks_keepsTheTailOfTheFirstAndTheHeadOfTheLast() {
        RangePlan p = RangePlan.of(manifest(400, 100, 100, 100, 100, 100), 150, 349);
        assertEquals(1, p.firstBlock());
        assertEquals(4, p.endBlock());
        assertEquals(300, p.storedLength());
        assertEquals(50, p.keepFrom(100, 100));
        assertEquals(100, p.keepTo(100, 100));
        assertEquals(0, p.keepFrom(200, 100), "a middle block is kept whole");
        assertEquals(100, p.keepTo(200, 100));
        assertEquals(0, p.keepFrom(300, 100));
        assertEquals(50, p.keepTo(300, 100));
    }

    @Test
    void lastByte_fetchesOnlyTheShortLastBlock() {
        RangePlan p = RangePlan.of(manifest(250, 100, 100, 100, 50), 249, 249);
        assertEquals(2, p.firstBlock());
        assertEquals(3, p.endBlock());
        assertEquals(200, p.storedStart());
        assertEquals(250, p.storedEnd());
        assertEquals(49, p.keepFrom(200, 50));
        assertEquals(50, p.keepTo(200, 50));
    }

    @Test
    void lastBeyondTheEnd_isClampedToTheLastByte() {
        RangePlan p = RangePlan.of(manifest(250, 100, 100, 100, 50), 240, 10_000);
        assertEquals(249, p.last());
        assertEquals(10, p.length());
        assertEquals(3, p.endBlock());
    }

    @Test
    void compressedBlocks_rangeIsOverOriginalBytes_storedOffsetsOverStoredLengths() {
        // blocks of 100 original bytes stored as 30, 100 (incompressible), 20, 10 bytes
        Manifest m = manifest(350, 100, 30, 100, 20, 10);
        RangePlan p = RangePlan.of(m, 210, 260);
        assertEquals(2, p.firstBlock());
        assertEquals(3, p.endBlock());
        assertEquals(200, p.rawStart());
        assertEquals(130, p.storedStart(), "30 + 100 stored bytes come before block 2");
        assertEquals(150, p.storedEnd());
        assertEquals(10, p.keepFrom(200, 100), "trimmed on the decompressed block");
        assertEquals(61, p.keepTo(200, 100));
    }

    @Test
    void keep_ofAPartOutsideTheRange_isEmpty() {
        RangePlan p = RangePlan.of(manifest(400, 100, 100, 100, 100, 100), 150, 249);
        assertEquals(p.keepFrom(0, 100), p.keepTo(0, 100), "before the range");
        assertEquals(p.keepFrom(300, 100), p.keepTo(300, 100), "after the range");
        assertEquals(10, p.keepFrom(140, 20), "a part of a block: offsets are the part's own");
        assertEquals(20, p.keepTo(140, 20));
    }

    @Test
    void badRanges_areRefusedWithTheValues() {
        Manifest m = manifest(250, 100, 100, 100, 50);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RangePlan.of(m, -1, 5)).getMessage()
                .contains("-1-5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RangePlan.of(m, 9, 5)).getMessage()
                .contains("9-5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RangePlan.of(m, 250, 260)).getMessage()
                .contains("250 bytes"));
    }
}
