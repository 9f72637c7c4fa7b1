package geoblocks.app.load;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The bytes of every file the load test writes, as a pure function of (run seed, file index,
 * offset): a file never has to be kept to be verified. Byte {@code p} of a file with key {@code k}
 * is byte {@code p % 8} (big-endian) of {@code splitmix64(k + (p / 8 + 1) * GOLDEN)}, the
 * SplittableRandom output sequence for seed {@code k}. Files differ from each other everywhere
 * (not only in a header), so a block served for the wrong file is caught too; the data is
 * incompressible, like real media files. Memory: one 64 KiB buffer per call.
 */
final class Content {
    static final int CHUNK = 1 << 16;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Content() {}

    /** The key of file {@code index} in a run with {@code seed}. */
    static long key(long seed, long index) {
        return mix(mix(seed) ^ (index + 1) * GOLDEN);
    }

    /** Fills {@code dst} (from its position to its limit) with the file's bytes from {@code offset}. */
    static void fill(long key, long offset, ByteBuffer dst) {
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

    /** Writes the whole file (size bytes) to {@code file}, replacing it. */
    static void write(Path file, long key, long size) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long done = 0; done < size; ) {
                buf.clear().limit((int) Math.min(CHUNK, size - done));
                fill(key, done, buf);
                buf.flip();
                while (buf.hasRemaining()) {
                    done += ch.write(buf);
                }
            }
        }
    }

    /**
     * The first offset at which {@code file} differs from the expected content of {@code size}
     * bytes (a shorter or longer file differs at the shorter length), or -1 when identical.
     */
    static long firstMismatch(Path file, long key, long size) throws IOException {
        byte[] want = new byte[CHUNK];
        ByteBuffer got = ByteBuffer.allocate(CHUNK);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long actual = ch.size();
            long common = Math.min(actual, size);
            for (long done = 0; done < common; ) {
                int n = (int) Math.min(CHUNK, common - done);
                got.clear().limit(n);
                while (got.hasRemaining()) {
                    if (ch.read(got, done + got.position()) < 0) {
                        return done + got.position();
                    }
                }
                fill(key, done, ByteBuffer.wrap(want, 0, n));
                int at = Arrays.mismatch(got.array(), 0, n, want, 0, n);
                if (at >= 0) {
                    return done + at;
                }
                done += n;
            }
            return actual == size ? -1 : common;
        }
    }

    /** Whether {@code file} exists and holds exactly the expected bytes. */
    static boolean matches(Path file, long key, long size) throws IOException {
        return Files.isRegularFile(file) && firstMismatch(file, key, size) == -1;
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
