package geoblocks.sim.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ByteSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ContentTest {
    static final long KEY = Content.key(42, 7);

    static byte[] expected(long size) {
        byte[] all = new byte[(int) size];
        Content.fill(KEY, 0, ByteBuffer.wrap(all));
        return all;
    }

    @Test
    void source_atAnyOffset_givesTheSameBytesAsTheWholeFile() throws Exception {
        byte[] all = expected(100_003);
        byte[] part = new byte[5_001];
        Content.source(KEY, all.length).read(33_333, ByteBuffer.wrap(part));
        assertArrayEquals(Arrays.copyOfRange(all, 33_333, 38_334), part);
        assertEquals(100_003, Content.source(KEY, 100_003).size());
    }

    @Test
    void checker_intactDownloadInChunks_findsNoMismatch() {
        byte[] all = expected(200_000);
        Content.Checker c = new Content.Checker(KEY);
        for (int off = 0; off < all.length; off += 70_000) {
            c.write(off, Arrays.copyOfRange(all, off, Math.min(all.length, off + 70_000)));
        }
        assertEquals(-1, c.firstMismatch(all.length));
    }

    @Test
    void checker_flippedByte_isFoundAtItsOffset() {
        byte[] all = expected(150_000);
        all[123_456] ^= 1;
        Content.Checker c = new Content.Checker(KEY);
        c.write(0, Arrays.copyOfRange(all, 0, 100_000));
        c.write(100_000, Arrays.copyOfRange(all, 100_000, 150_000));
        assertEquals(123_456, c.firstMismatch(all.length));
    }

    @Test
    void checker_shortOrLongDownload_differsAtTheShorterLength() {
        byte[] all = expected(10_000);
        Content.Checker shortOne = new Content.Checker(KEY);
        shortOne.write(0, Arrays.copyOf(all, 9_000));
        assertEquals(9_000, shortOne.firstMismatch(10_000));
        Content.Checker longOne = new Content.Checker(KEY);
        longOne.write(0, all);
        assertEquals(8_000, longOne.firstMismatch(8_000));
    }

    @Test
    void checker_downloadStartedAgain_forgetsThePartialFirstAttempt() {
        byte[] all = expected(10_000);
        Content.Checker c = new Content.Checker(KEY);
        c.begin();
        c.write(0, Arrays.copyOf(all, 6_000)); // first attempt refused part way through
        c.begin();
        c.write(0, Arrays.copyOf(all, 5_000));
        c.write(5_000, Arrays.copyOfRange(all, 5_000, 10_000));
        assertEquals(-1, c.firstMismatch(10_000));
    }

    @Test
    void checker_gapInOffsets_isAMismatch() {
        byte[] all = expected(10_000);
        Content.Checker c = new Content.Checker(KEY);
        c.write(0, Arrays.copyOf(all, 4_000));
        c.write(5_000, Arrays.copyOfRange(all, 5_000, 10_000));
        assertEquals(4_000, c.firstMismatch(10_000));
    }

    @Test
    void readAtAnyOffset_matchesReadingFromTheStart_andTheFailingSinkAcceptsIt() throws IOException {
        byte[] whole = new byte[1000];
        Content.source(42, 1000).read(0, ByteBuffer.wrap(whole));
        for (int off : new int[] {0, 1, 7, 8, 9, 333, 999}) {
            byte[] part = new byte[Math.min(50, 1000 - off)];
            Content.source(42, 1000).read(off, ByteBuffer.wrap(part));
            assertArrayEquals(Arrays.copyOfRange(whole, off, off + part.length), part, "offset " + off);
            Content.failing(42).write(off, part);
        }
    }

    @Test
    void failingSink_oneWrongByte_failsNamingIt() {
        byte[] b = new byte[64];
        Content.fill(7, 100, ByteBuffer.wrap(b, 0, 64));
        b[13] ^= 1;
        IOException e = assertThrows(IOException.class, () -> Content.failing(7).write(100, b));
        assertTrue(e.getMessage().contains("byte 113"), e.getMessage());
        assertThrows(IOException.class, () -> Content.failing(8).write(0, new byte[16]));
    }

    @Test
    void text_isBase64Characters_atAnyOffset_andTheFailingTextSinkAcceptsIt() throws IOException {
        long key = Content.key(9, 1);
        byte[] whole = new byte[5000];
        Content.source(key, whole.length, true).read(0, ByteBuffer.wrap(whole));
        for (byte b : whole) {
            assertTrue(Character.isLetterOrDigit(b) || b == '+' || b == '/', "not base64: " + b);
        }
        byte[] part = new byte[1001];
        Content.source(key, whole.length, true).read(1234, ByteBuffer.wrap(part));
        assertArrayEquals(Arrays.copyOfRange(whole, 1234, 2235), part);
        ByteSink sink = Content.failing(key, true);
        sink.write(0, whole);
        assertThrows(IOException.class, () -> Content.failing(key, false).write(0, whole));
    }
}
