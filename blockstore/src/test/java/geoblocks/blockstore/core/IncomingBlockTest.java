package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.BlockStreamHeader;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IncomingBlockTest {
    private final MemoryBudget budget = new MemoryBudget(1 << 20);
    private final byte[] block = bytes(7, 10_000);
    private final BlockStreamHeader header = new BlockStreamHeader(5, "f-1", block.length, Checksums.crc32c(block));

    private static byte[] bytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private IncomingBlock admitAll() {
        return new IncomingBlock(budget, h -> null);
    }

    /** Feeds {@code stream} in pieces of {@code piece} bytes; the last outcome. */
    private static IncomingBlock.Outcome feed(IncomingBlock in, byte[] stream, int piece) {
        IncomingBlock.Outcome o = null;
        for (int off = 0; off < stream.length; off += piece) {
            o = in.accept(Arrays.copyOfRange(stream, off, Math.min(stream.length, off + piece)));
        }
        return o;
    }

    @Test
    void finish_wholeStreamInAnySplit_completesWithTheBlockAndHoldsItsBudget() {
        for (int piece : new int[] {1, 3, 7, 100, 1400, 20_000}) {
            IncomingBlock in = admitAll();
            assertInstanceOf(IncomingBlock.Assembling.class, feed(in, concat(header.encode(), block), piece));
            IncomingBlock.Complete c = assertInstanceOf(IncomingBlock.Complete.class, in.finish());
            assertEquals(header, c.header());
            assertArrayEquals(block, c.data());
            assertEquals(block.length, budget.used());
            budget.release(block.length);
        }
    }

    @Test
    void accept_headerNotAdmitted_refusesWithTheReasonAndReservesNothing() {
        IncomingBlock in = new IncomingBlock(budget, h -> "block " + h.blockId() + " was not expected");
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, in.accept(concat(header.encode(), block)));
        assertEquals("block f-1 was not expected", r.reason());
        assertEquals(header, r.header());
        assertFalse(in.admitted());
        assertEquals(0, budget.used());
        assertSame(r, in.accept(new byte[] {1, 2, 3}), "later bytes are ignored");
        assertSame(r, in.finish());
    }

    @Test
    void accept_badMagic_refusesWithoutHeader() {
        byte[] wire = header.encode();
        wire[0] ^= 1;
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, admitAll().accept(wire));
        assertNull(r.header());
        assertTrue(r.reason().contains("magic"), r.reason());
    }

    @Test
    void accept_moreBytesThanAnnounced_refusesAndReleasesTheBudget() {
        IncomingBlock in = admitAll();
        IncomingBlock.Outcome o = feed(in, concat(concat(header.encode(), block), new byte[1]), 1000);
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, o);
        assertTrue(r.reason().contains("more than the announced 10000 bytes"), r.reason());
        assertTrue(in.admitted());
        assertEquals(0, budget.used());
    }

    @Test
    void finish_fewerBytesThanAnnounced_refusesAndReleasesTheBudget() {
        IncomingBlock in = admitAll();
        in.accept(concat(header.encode(), Arrays.copyOf(block, 9_999)));
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, in.finish());
        assertTrue(r.reason().contains("after 9999 of 10000 bytes"), r.reason());
        assertEquals(0, budget.used());
    }

    @Test
    void finish_flippedByte_refusesNamingBothChecksums() {
        byte[] bad = block.clone();
        bad[1234] ^= 0x40;
        IncomingBlock in = admitAll();
        in.accept(concat(header.encode(), bad));
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, in.finish());
        assertTrue(r.reason().contains(Checksums.hex(Checksums.crc32c(bad))), r.reason());
        assertTrue(r.reason().contains("header says " + Checksums.hex(header.crc())), r.reason());
        assertEquals(0, budget.used());
    }

    @Test
    void finish_streamEndsInsideTheHeader_refuses() {
        IncomingBlock in = admitAll();
        in.accept(Arrays.copyOf(header.encode(), 10));
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, in.finish());
        assertTrue(r.reason().contains("after 10 header bytes"), r.reason());
    }

    @Test
    void accept_blockLargerThanTheBudget_refusesAsBusy() {
        MemoryBudget small = new MemoryBudget(5_000);
        IncomingBlock in = new IncomingBlock(small, h -> null);
        IncomingBlock.Refused r = assertInstanceOf(IncomingBlock.Refused.class, in.accept(header.encode()));
        assertTrue(r.reason().startsWith("node busy"), r.reason());
        assertEquals(0, small.used());
    }

    @Test
    void abandon_midStream_releasesTheBudget_andFinishingTwiceIsMisuse() {
        IncomingBlock in = admitAll();
        in.accept(concat(header.encode(), new byte[100]));
        assertEquals(block.length, budget.used());
        in.abandon();
        assertEquals(0, budget.used());
        assertThrows(IllegalStateException.class, in::finish);
    }

    @Test
    void accept_randomGarbage_neverCompletesAndNeverLeaksBudget() {
        Random r = new Random(11);
        for (int i = 0; i < 2000; i++) {
            IncomingBlock in = admitAll();
            byte[] junk = bytes(r.nextLong(), r.nextInt(200));
            if (r.nextBoolean() && junk.length > 4) {
                System.arraycopy(header.encode(), 0, junk, 0, 5); // valid magic and version, random rest
            }
            in.accept(junk);
            IncomingBlock.Outcome o = in.finish();
            assertInstanceOf(IncomingBlock.Refused.class, o);
            assertEquals(0, budget.used());
        }
    }
}
