package geoblocks.sim.harness;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of every generated file (the load test's, the simulated clients'), as a pure function
 * of (run seed, file index, offset): a file never has to be kept to be verified. Byte {@code p} of a file with key {@code k}
 * is byte {@code p % 8} (big-endian) of {@code splitmix64(k + (p / 8 + 1) * GOLDEN)}, the
 * SplittableRandom output sequence for seed {@code k}. Files differ from each other everywhere
 * (not only in a header), so a block served for the wrong file is caught too; the data is
 * incompressible, like real media files. Uploads read it from a {@link #source} and downloads are
 * checked as they stream, by a {@link Checker} (which remembers the first difference) or a
 * {@link #failing} sink (which fails the download there), so no client keeps a file, in memory or
 * on disk.
 */
public final class Content {
    static final int CHUNK = 1 << 16;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Content() {}

    /** The key of file {@code index} in a run with {@code seed}. */
    public static long key(long seed, long index) {
        return mix(mix(seed) ^ (index + 1) * GOLDEN);
    }

    /** Fills {@code dst} (from its position to its limit) with the file's bytes from {@code offset}. */
    public static void fill(long key, long offset, ByteBuffer dst) {
        if (!dst.hasArray()) {
            while (dst.hasRemaining()) {
                dst.put(byteAt(key, offset++));
            }
            return;
        }
        byte[] a = dst.array();
        int i = dst.arrayOffset() + dst.position();
        int end = dst.arrayOffset() + dst.limit();
        long p = offset;
        while (i < end && (p & 7) != 0) { // head: up to the next 8-byte boundary
            a[i++] = byteAt(key, p++);
        }
        for (long w = p >>> 3; end - i >= 8; w++, i += 8, p += 8) {
            LONGS.set(a, i, word(key, w));
        }
        while (i < end) {
            a[i++] = byteAt(key, p++);
        }
        dst.position(dst.limit());
    }

    /** The file's bytes as an upload source, generated as the upload reads them. */
    public static ByteSource source(long key, long size) {
        return source(key, size, false);
    }

    /**
     * As {@link #source}, or with {@code text} the base64-like text variant of the file: each byte
     * is the base64 alphabet's character for the low 6 bits of the random byte ({@link #fillText}),
     * so it carries 6 bits of entropy per byte and compresses by about a quarter, like base64 text.
     */
    public static ByteSource source(long key, long size, boolean text) {
        return new ByteSource() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                fill(key, offset, dst, text);
            }
        };
    }

    private static final byte[] BASE64 =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(StandardCharsets.US_ASCII);

    /** The base64-like text variant of {@link #fill}: the alphabet's character for each byte's low 6 bits. */
    public static void fillText(long key, long offset, ByteBuffer dst) {
        int from = dst.position();
        fill(key, offset, dst);
        for (int i = from; i < dst.position(); i++) {
            dst.put(i, BASE64[dst.get(i) & 63]);
        }
    }

    /** {@link #fillText} when {@code text}, else {@link #fill}. */
    public static void fill(long key, long offset, ByteBuffer dst, boolean text) {
        if (text) {
            fillText(key, offset, dst);
        } else {
            fill(key, offset, dst);
        }
    }

    /**
     * A download sink that compares every byte with the file's expected content as it streams and
     * remembers the first offset that differs; nothing is stored. One per download (not thread-safe).
     */
    public static final class Checker implements ByteSink {
        private final long key;
        private byte[] want = new byte[CHUNK];
        private long received;
        private long firstMismatch = -1;

        public Checker(long key) {
            this.key = key;
        }

        @Override
        public void begin() {
            received = 0;
            firstMismatch = -1;
        }

        @Override
        public void write(long offset, byte[] data) {
            if (offset != received) {
                firstMismatch = firstMismatch < 0 ? Math.min(offset, received) : firstMismatch;
            }
            if (want.length < data.length) {
                want = new byte[data.length];
            }
            if (firstMismatch < 0) {
                fill(key, offset, ByteBuffer.wrap(want, 0, data.length));
                int at = Arrays.mismatch(data, 0, data.length, want, 0, data.length);
                if (at >= 0) {
                    firstMismatch = offset + at;
                }
            }
            received = offset + data.length;
        }

        /** The first offset where the download differed from a file of {@code size} bytes, or -1. */
        public long firstMismatch(long size) {
            if (firstMismatch >= 0) {
                return firstMismatch;
            }
            return received == size ? -1 : Math.min(received, size);
        }
    }

    /**
     * A download sink that fails the download (an IOException naming the offset) at the first byte
     * that differs from the file's expected content; nothing is stored. One per download.
     */
    public static ByteSink failing(long key) {
        return failing(key, false);
    }

    /** As {@link #failing(long)}, for the text variant when {@code text} ({@link #fillText}). */
    public static ByteSink failing(long key, boolean text) {
        return new ByteSink() {
            private byte[] want = new byte[CHUNK];

            @Override
            public void begin() {
                // every byte is compared as it arrives; nothing is kept
            }

            @Override
            public void write(long offset, byte[] data) throws IOException {
                if (want.length < data.length) {
                    want = new byte[data.length];
                }
                fill(key, offset, ByteBuffer.wrap(want, 0, data.length), text);
                int at = Arrays.mismatch(data, 0, data.length, want, 0, data.length);
                if (at >= 0) {
                    throw new IOException("byte " + (offset + at) + " differs from the content of key " + key);
                }
            }
        };
    }

    private static byte byteAt(long key, long p) {
        return (byte) (word(key, p >>> 3) >>> (56 - 8 * (p & 7)));
    }

    private static long word(long key, long index) {
        return mix(key + (index + 1) * GOLDEN);
    }

    /** splitmix64's finaliser (Steele, Lea, Flood: "Fast splittable pseudorandom number generators", 2014). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
