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

    static byte at(long key, long offset) {
        long z = key * 0x9E3779B97F4A7C15L + (offset >>> 3) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (byte) (z >>> (8 * (offset & 7)));
    }

    static ByteSource source(long key, long size) {
        return new ByteSource() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                long at = offset;
                while (dst.hasRemaining()) {
                    dst.put(at(key, at++));
                }
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
                for (int i = 0; i < data.length; i++) {
                    if (data[i] != at(key, offset + i)) {
                        throw new IOException("byte " + (offset + i) + " differs from the content of key " + key);
                    }
                }
            }
        };
    }
}
