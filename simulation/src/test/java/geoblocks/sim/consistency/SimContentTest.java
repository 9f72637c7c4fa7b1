package geoblocks.sim.consistency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class SimContentTest {
    @Test
    void readAtAnyOffset_matchesReadingFromTheStart_andTheSinkAcceptsIt() throws IOException {
        byte[] whole = new byte[1000];
        SimContent.source(42, 1000).read(0, ByteBuffer.wrap(whole));
        for (int off : new int[] {0, 1, 7, 8, 9, 333, 999}) {
            byte[] part = new byte[Math.min(50, 1000 - off)];
            SimContent.source(42, 1000).read(off, ByteBuffer.wrap(part));
            assertArrayEquals(java.util.Arrays.copyOfRange(whole, off, off + part.length), part, "offset " + off);
            SimContent.check(42).write(off, part);
        }
    }

    @Test
    void sink_oneWrongByte_failsNamingIt() {
        byte[] b = new byte[64];
        SimContent.fill(7, 100, b, 0, 64);
        b[13] ^= 1;
        IOException e = assertThrows(IOException.class, () -> SimContent.check(7).write(100, b));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("byte 113"), e.getMessage());
        assertThrows(IOException.class, () -> SimContent.check(8).write(0, new byte[16]));
    }
}
