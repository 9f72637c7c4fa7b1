package geoblocks.node.s3.body;

import geoblocks.blockstore.client.ByteSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * A small record the gateway reads whole into memory (a bucket, an access key, an ACL, a tag
 * file): a {@link ByteSink} that keeps at most {@code max} bytes and starts over when the download
 * does. Not thread-safe: one download writes it.
 */
public final class SmallRecord implements ByteSink {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int max;
    private final String what;

    /** {@code what} names the record in the error when it is longer than {@code max} bytes. */
    public SmallRecord(int max, String what) {
        this.max = max;
        this.what = what;
    }

    @Override
    public void begin() {
        bytes.reset();
    }

    @Override
    public void write(long offset, byte[] data) throws IOException {
        if (bytes.size() + data.length > max) {
            throw new IOException(what + " exceeds " + max + " bytes");
        }
        bytes.write(data);
    }

    /** The bytes written since the last {@link #begin}. */
    public byte[] bytes() {
        return bytes.toByteArray();
    }
}
