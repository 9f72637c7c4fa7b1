package geoblocks.node.s3.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.s3.object.ETags;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The encrypted layout ({@link SseCipher}) and its streams ({@link SseStreams}): round trips, ranges, and damage refused. */
public class SseCipherTest {
    private static final int C = SseCipher.CHUNK;
    @TempDir
    Path dir;

    static byte[] key(long seed) {
        byte[] k = new byte[32];
        new Random(seed).nextBytes(k);
        return k;
    }

    static ByteSource bytes(byte[] b) {
        return new ByteSource() {
            @Override
            public long size() {
                return b.length;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                dst.put(b, (int) offset, dst.remaining());
            }
        };
    }

    /** The stored bytes of {@code plain}, read from the encrypting source in pieces of random sizes at random places. */
    static byte[] seal(byte[] key, byte[] plain, Random r) throws IOException {
        SseStreams.Encrypting e = new SseStreams.Encrypting(new SseCipher(key), bytes(plain));
        byte[] out = new byte[(int) e.size()];
        // first out of order (a chunk re-sealed gives the same bytes), then in order
        for (int i = 0; i < 5 && out.length > 0; i++) {
            int at = r.nextInt(out.length);
            ByteBuffer b = ByteBuffer.allocate(Math.min(out.length - at, 1 + r.nextInt(3 * C)));
            e.read(at, b);
        }
        int at = 0;
        while (at < out.length) {
            int n = Math.min(out.length - at, 1 + r.nextInt(200_000));
            ByteBuffer b = ByteBuffer.wrap(out, at, n);
            e.read(at, b.slice());
            at += n;
        }
        return out;
    }

    /** A sink collecting what it is given at its offsets, checking they come in order. */
    static final class Collect implements ByteSink {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        long start;
        int begins;

        Collect(long start) {
            this.start = start;
        }

        @Override
        public void begin() {
            begins++;
            out.reset();
        }

        @Override
        public void write(long offset, byte[] data) {
            assertEquals(start + out.size(), offset, "plaintext arrives in order");
            out.write(data, 0, data.length);
        }
    }

    /** Feeds stored bytes [from, to) to a decrypting sink in random pieces (sometimes starting before from, as whole blocks do). */
    static void feed(SseStreams.Decrypting d, byte[] stored, long from, long to, Random r) throws IOException {
        long at = Math.max(0, from - r.nextInt(1000));
        while (at < to) {
            int n = (int) Math.min(to - at, 1 + r.nextInt(100_000));
            d.write(at, Arrays.copyOfRange(stored, (int) at, (int) (at + n)));
            at += n;
        }
    }

    @Test
    void sizes_mapBothWays_andImpossibleSizesAreRefused() throws IOException {
        assertEquals(16, SseCipher.cipherSize(0));
        assertEquals(17, SseCipher.cipherSize(1));
        assertEquals(C + 16, SseCipher.cipherSize(C));
        assertEquals(C + 1 + 32, SseCipher.cipherSize(C + 1));
        for (long p : new long[] {0, 1, 13, C - 1, C, C + 1, 2L * C, 30L << 20, (5L << 30) + 7}) {
            assertEquals(p, SseCipher.plainSize(SseCipher.cipherSize(p)), "size " + p);
        }
        for (long bad : new long[] {0, 15, SseCipher.SEALED + 1, SseCipher.SEALED + 15}) {
            assertThrows(IOException.class, () -> SseCipher.plainSize(bad), "stored size " + bad);
        }
    }

    @Test
    void roundTrips_ofEverySizeAroundChunkBoundaries() throws IOException {
        Random r = new Random(1);
        for (int size : new int[] {0, 1, 13, 1000, C - 1, C, C + 1, 3 * C, 3 * C + 17}) {
            byte[] plain = new byte[size];
            r.nextBytes(plain);
            byte[] k = key(size);
            byte[] stored = seal(k, plain, r);
            assertEquals(SseCipher.cipherSize(size), stored.length);
            assertArrayEquals(plain, SseStreams.decryptBytes(new SseCipher(k), stored), "size " + size);
            if (size >= 32) { // the plaintext does not show through
                assertFalse(indexOf(stored, Arrays.copyOf(plain, 32)) >= 0, "plaintext visible in the stored bytes");
            }
        }
    }

    @Test
    void ranges_readOnlyTheirChunks_andGiveTheRangesBytes() throws IOException {
        Random r = new Random(2);
        byte[] plain = new byte[5 * C + 1234];
        r.nextBytes(plain);
        byte[] k = key(7);
        byte[] stored = seal(k, plain, r);
        for (int i = 0; i < 300; i++) {
            long first = r.nextInt(plain.length);
            long last = first + r.nextInt((int) Math.min(plain.length - first, 3L * C));
            long[] span = SseCipher.cipherSpan(first, last, stored.length);
            assertEquals(0, span[0] % SseCipher.SEALED);
            assertTrue(span[1] - span[0] <= (last / C - first / C + 1) * (long) SseCipher.SEALED, "only the chunks needed");
            Collect out = new Collect(span[0] / SseCipher.SEALED * C);
            SseStreams.Decrypting d = new SseStreams.Decrypting(new SseCipher(k), stored.length, span[0], span[1], out);
            feed(d, stored, span[0], span[1], r);
            assertTrue(d.complete());
            byte[] got = out.out.toByteArray();
            long base = out.start;
            assertArrayEquals(Arrays.copyOfRange(plain, (int) first, (int) last + 1),
                    Arrays.copyOfRange(got, (int) (first - base), (int) (last - base + 1)), "range " + first + "-" + last);
        }
    }

    @Test
    void aDownloadStartedAgain_givesTheSameBytes() throws IOException {
        Random r = new Random(3);
        byte[] plain = new byte[3 * C + 5];
        r.nextBytes(plain);
        byte[] k = key(3);
        byte[] stored = seal(k, plain, r);
        Collect out = new Collect(0);
        SseStreams.Decrypting d = new SseStreams.Decrypting(new SseCipher(k), stored.length, 0, stored.length, out);
        d.begin();
        d.write(0, Arrays.copyOf(stored, C + 100)); // part way, then a retry from the start
        d.begin();
        feed(d, stored, 0, stored.length, r);
        assertTrue(d.complete());
        assertArrayEquals(plain, out.out.toByteArray());
    }

    @Test
    void anotherKey_anotherObjectsChunk_orChunksSwapped_doNotOpen() throws IOException {
        Random r = new Random(4);
        byte[] plain = new byte[3 * C];
        r.nextBytes(plain);
        byte[] k = key(4);
        byte[] stored = seal(k, plain, r);
        assertThrows(IOException.class, () -> SseStreams.decryptBytes(new SseCipher(key(5)), stored));
        byte[] swapped = stored.clone();
        System.arraycopy(stored, 0, swapped, SseCipher.SEALED, SseCipher.SEALED);
        System.arraycopy(stored, SseCipher.SEALED, swapped, 0, SseCipher.SEALED);
        assertThrows(IOException.class, () -> SseStreams.decryptBytes(new SseCipher(k), swapped));
        byte[] other = seal(key(6), plain, r); // the same plaintext under another object's key
        assertFalse(Arrays.equals(other, stored));
        byte[] mixed = stored.clone();
        System.arraycopy(other, SseCipher.SEALED, mixed, SseCipher.SEALED, SseCipher.SEALED);
        assertThrows(IOException.class, () -> SseStreams.decryptBytes(new SseCipher(k), mixed));
    }

    /** Every truncation and 2,000 random byte flips: an IOException, never plaintext that differs from what was sealed. */
    @Test
    void fuzz_truncatedOrFlippedStoredBytes_failCleanly_neverWrongPlaintext() throws IOException {
        Random r = new Random(5);
        byte[] plain = new byte[2 * C + 300];
        r.nextBytes(plain);
        byte[] k = key(8);
        byte[] stored = seal(k, plain, r);
        SseCipher cipher = new SseCipher(k);
        int refused = 0;
        // cut at every chunk boundary and around it, and at random places
        List<Integer> cuts = new ArrayList<>();
        for (int b = 0; b <= 3; b++) {
            for (int d = -17; d <= 17; d++) {
                int at = b * SseCipher.SEALED + d;
                if (at >= 0 && at < stored.length) {
                    cuts.add(at);
                }
            }
        }
        for (int i = 0; i < 200; i++) {
            cuts.add(r.nextInt(stored.length));
        }
        for (int cut : cuts) {
            byte[] t = Arrays.copyOf(stored, cut);
            try {
                SseStreams.decryptBytes(cipher, t);
                fail("a stored object cut at " + cut + " of " + stored.length + " opened");
            } catch (IOException e) {
                refused++;
            }
        }
        for (int i = 0; i < 2000; i++) {
            byte[] t = stored.clone();
            int at = r.nextInt(t.length);
            t[at] ^= (byte) (1 + r.nextInt(255));
            // the whole object, and the range of the chunk hit, through the streaming sink
            try {
                SseStreams.decryptBytes(cipher, t);
                fail("a flipped byte at " + at + " opened");
            } catch (IOException e) {
                refused++;
            }
            long chunk = at / SseCipher.SEALED;
            long[] span = {chunk * SseCipher.SEALED, Math.min(t.length, (chunk + 1) * SseCipher.SEALED)};
            Collect out = new Collect(chunk * C);
            SseStreams.Decrypting d = new SseStreams.Decrypting(cipher, t.length, span[0], span[1], out);
            try {
                feed(d, t, span[0], span[1], r);
                fail("a flipped byte at " + at + " opened in a ranged read");
            } catch (IOException e) {
                assertEquals(0, out.out.size(), "nothing of the damaged chunk was handed on");
            }
        }
        assertEquals(cuts.size() + 2000, refused);
    }

    @Test
    void files_openWithTheirMd5_andADamagedFileIsRefused() throws IOException {
        Random r = new Random(6);
        byte[] plain = new byte[C * 2 + 9];
        r.nextBytes(plain);
        byte[] k = key(9);
        byte[] stored = seal(k, plain, r);
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        Files.write(in, stored);
        byte[] md5 = SseStreams.decryptFile(new SseCipher(k), in, out);
        assertArrayEquals(plain, Files.readAllBytes(out));
        assertArrayEquals(ETags.md5().digest(plain), md5);
        try (SseStreams.FileSource f = new SseStreams.FileSource(out)) {
            assertEquals(plain.length, f.size());
            ByteBuffer b = ByteBuffer.allocate(10);
            f.read(C, b);
            assertArrayEquals(Arrays.copyOfRange(plain, C, C + 10), b.array());
        }
        // one byte short is a size an object can have: the last chunk's tag refuses it
        Files.write(in, Arrays.copyOf(stored, stored.length - 1));
        assertThrows(IOException.class, () -> SseStreams.decryptFile(new SseCipher(k), in, out));
    }

    @Test
    void sealing_isDeterministicPerChunk_butEveryObjectKeyDiffers() {
        SseCipher c = new SseCipher(key(1));
        byte[] p = new byte[100];
        assertArrayEquals(c.seal(0, true, p, 0, 100), c.seal(0, true, p, 0, 100));
        assertNotEquals(Arrays.toString(c.seal(0, true, p, 0, 100)), Arrays.toString(c.seal(1, true, p, 0, 100)));
        assertNotEquals(Arrays.toString(c.seal(0, true, p, 0, 100)), Arrays.toString(c.seal(0, false, p, 0, 100)));
        assertThrows(IllegalArgumentException.class, () -> new SseCipher(new byte[16]));
    }

    /** Where {@code needle} first occurs in {@code hay}, or -1 (shared with SpooledDownloadTest). */
    public static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
