package geoblocks.blockstore.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AssemblyTest {

    @Test
    void split_dataWithinOneChunk_handsOutTheArrayItself() {
        byte[] data = new byte[1 << 20];
        List<byte[]> parts = new ArrayList<>();
        Assembly.split(data, 1 << 20, (off, p) -> parts.add(p));
        assertSame(data, parts.get(0));
        assertTrue(parts.size() == 1);
    }

    @Test
    void split_thenAdd_reassemblesTheBytes() {
        byte[] data = new byte[150_000];
        new Random(3).nextBytes(data);
        Assembly a = new Assembly(data.length, data.length);
        boolean[] done = new boolean[1];
        Assembly.split(data, 60_000, (off, p) -> done[0] = a.add(off, p));
        assertTrue(done[0]);
        assertArrayEquals(data, a.bytes());
    }

    @Test
    void add_singleWholePart_keepsItWithoutCopying() {
        byte[] whole = new byte[4096];
        Assembly a = new Assembly(whole.length, whole.length);
        assertTrue(a.add(0, whole));
        assertSame(whole, a.bytes());
    }

    @Test
    void add_gapOrOverrun_isRejectedNamingTheOffsets() {
        Assembly a = new Assembly(100, 100);
        assertFalse(a.add(0, new byte[40]));
        IllegalArgumentException gap = assertThrows(IllegalArgumentException.class, () -> a.add(50, new byte[10]));
        assertTrue(gap.getMessage().contains("50") && gap.getMessage().contains("40"), gap.getMessage());
        IllegalArgumentException over = assertThrows(IllegalArgumentException.class, () -> a.add(40, new byte[61]));
        assertTrue(over.getMessage().contains("61"), over.getMessage());
    }

    @Test
    void emptyArray_splitsIntoOneEmptyPart_andAssemblesEmpty() {
        List<byte[]> parts = new ArrayList<>();
        Assembly.split(new byte[0], 1024, (off, p) -> parts.add(p));
        Assembly a = new Assembly(0, 10);
        assertTrue(a.add(0, parts.get(0)));
        assertArrayEquals(new byte[0], a.bytes());
    }
}
