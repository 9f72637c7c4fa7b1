package geoblocks.sim.capacity;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The bytes of simulated file {@code file}: a function of the seed, the file and the offset, so
 * uploads are generated as they are sent and downloads checked as they arrive, with no files.
 */
final class Content {
    private Content() {}

    static byte at(long seed, int file, long offset) {
        long z = seed * 0x9E3779B97F4A7C15L + file * 0xBF58476D1CE4E5B9L + (offset >>> 3) * 0x94D049BB133111EBL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (byte) (z >>> (8 * (offset & 7)));
    }

    static ByteSource source(long seed, int file, long size) {
        return new ByteSource() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                for (long o = offset; dst.hasRemaining(); o++) {
                    dst.put(at(seed, file, o));
                }
            }
        };
    }

    /** A sink that checks every byte and remembers how many arrived. */
    static final class Check implements ByteSink {
        private final long seed;
        private final int file;
        long received;

        Check(long seed, int file) {
            this.seed = seed;
            this.file = file;
        }

        @Override
        public void begin() {
            received = 0;
        }

        @Override
        public void write(long offset, byte[] data) throws IOException {
            for (int i = 0; i < data.length; i++) {
                if (data[i] != at(seed, file, offset + i)) {
                    throw new IOException("file " + file + ": wrong byte at offset " + (offset + i));
                }
            }
            received += data.length;
        }
    }
}
