package geoblocks.sim.consistency;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The bytes of one simulated upload: {@code size} bytes that are a function of {@code key} and the
 * offset (SplitMix64 per 8-byte word), so any client can check any version's content without
 * storing it. A source to upload them and a sink that compares a download with them.
 */
final class SimContent {
    private SimContent() {}

    /** The 8 content bytes of word {@code word} (bytes 8 * word .. 8 * word + 7), low byte first. */
    static long word(long key, long word) {
        long z = key * 0x9E3779B97F4A7C15L + word * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Fills {@code out[from..to)} with the content bytes at {@code offset..}. */
    static void fill(long key, long offset, byte[] out, int from, int to) {
        long w = word(key, offset >>> 3);
        for (int i = from; i < to; i++, offset++) {
            if ((offset & 7) == 0 && i > from) {
                w = word(key, offset >>> 3);
            }
            out[i] = (byte) (w >>> (8 * (offset & 7)));
        }
    }

    static ByteSource source(long key, long size) {
        return new ByteSource() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                byte[] b = new byte[dst.remaining()];
                fill(key, offset, b, 0, b.length);
                dst.put(b);
            }
        };
    }

    /** A sink that fails the download at the first byte that differs from {@code key}'s content. */
    static ByteSink check(long key) {
        return new ByteSink() {
            @Override
            public void begin() {
                // every byte is compared as it arrives; nothing is kept
            }

            @Override
            public void write(long offset, byte[] data) throws IOException {
                byte[] expected = new byte[data.length];
                fill(key, offset, expected, 0, expected.length);
                int at = java.util.Arrays.mismatch(data, expected);
                if (at >= 0) {
                    throw new IOException("byte " + (offset + at) + " differs from the content of key " + key);
                }
            }
        };
    }
}
