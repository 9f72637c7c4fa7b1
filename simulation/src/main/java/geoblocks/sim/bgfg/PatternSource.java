package geoblocks.sim.bgfg;

import geoblocks.blockstore.client.ByteSource;
import java.nio.ByteBuffer;

/**
 * A file's bytes generated on demand, so that hundreds of MiB need no disk and no buffer: byte
 * {@code i} is a byte of a SplitMix64 hash of ({@code seed}, {@code i / 8}). Deterministic and
 * random-access.
 */
record PatternSource(long seed, long size) implements ByteSource {
    @Override
    public void read(long offset, ByteBuffer dst) {
        long pos = offset;
        long word = Long.MIN_VALUE;
        long bits = 0;
        while (dst.hasRemaining()) {
            long w = pos >>> 3;
            if (w != word) {
                word = w;
                bits = mix(seed * 0x9E3779B97F4A7C15L + w);
            }
            dst.put((byte) (bits >>> ((pos & 7) * 8)));
            pos++;
        }
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
