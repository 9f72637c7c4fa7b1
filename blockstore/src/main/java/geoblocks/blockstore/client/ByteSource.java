package geoblocks.blockstore.client;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where an upload's bytes come from when they are not in a file: a generator or a buffer the
 * caller owns. Read on the client component's thread, in order, a chunk at a time; the upload
 * never holds more than the put window of it.
 */
public interface ByteSource {
    /** Total bytes; constant for the upload. */
    long size();

    /** Fills {@code dst} from its position to its limit with the bytes at {@code offset}. */
    void read(long offset, ByteBuffer dst) throws IOException;

    /** The bytes of {@code bytes} (not copied: the caller leaves them alone until the upload ends). */
    static ByteSource of(byte[] bytes) {
        return new ByteSource() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public void read(long offset, ByteBuffer dst) {
                dst.put(bytes, (int) offset, dst.remaining());
            }
        };
    }
}
