package geoblocks.node.s3.body;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.node.s3.object.ETags;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;

/**
 * A download's bytes {@code first .. first+length-1} written to a file with their MD5 (UploadPartCopy's
 * part). The download is ranged, so writes carry only the range, in order; a retry streams it again, and bytes the file
 * already has are skipped (the version is pinned, so they are the same).
 */
public final class RangeFileSink implements ByteSink, AutoCloseable {
    private final FileChannel out;
    private final long first;
    private final long length;
    private final MessageDigest md5 = ETags.md5();
    private long written;

    public RangeFileSink(Path file, long first, long length) throws IOException {
        this.out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        this.first = first;
        this.length = length;
    }

    @Override
    public void begin() {
        // see the class comment
    }

    @Override
    public synchronized void write(long offset, byte[] data) throws IOException {
        long from = Math.max(offset, first + written);
        long to = Math.min(offset + data.length, first + length);
        if (from >= to) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(data, (int) (from - offset), (int) (to - from));
        md5.update(b.duplicate());
        while (b.hasRemaining()) {
            out.write(b);
        }
        written = to - first;
    }

    /** The bytes written so far. */
    public synchronized long written() {
        return written;
    }

    /** The MD5 of the range, once every byte was written. */
    public synchronized byte[] md5() {
        return md5.digest();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
