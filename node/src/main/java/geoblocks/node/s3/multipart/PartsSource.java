package geoblocks.node.s3.multipart;

import geoblocks.blockstore.client.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The bytes of a completed multipart upload read straight from its parts' spool files, in order, so
 * completing copies nothing: offset {@code o} is in the part whose range holds it. Read on the client
 * component's thread; {@link #close} releases the open file.
 */
final class PartsSource implements ByteSource, AutoCloseable {
    private final List<MultipartUploads.Part> parts;
    private final long[] starts;
    private final long size;
    private int open = -1;
    private FileChannel channel;

    PartsSource(List<MultipartUploads.Part> parts) {
        this.parts = List.copyOf(parts);
        this.starts = new long[parts.size()];
        long at = 0;
        for (int i = 0; i < parts.size(); i++) {
            starts[i] = at;
            at += parts.get(i).size();
        }
        this.size = at;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public synchronized void read(long offset, ByteBuffer dst) throws IOException {
        long at = offset;
        while (dst.hasRemaining()) {
            int i = partAt(at);
            FileChannel ch = channel(i);
            long inPart = at - starts[i];
            int want = (int) Math.min(dst.remaining(), parts.get(i).size() - inPart);
            ByteBuffer slice = dst.slice();
            slice.limit(want);
            while (slice.hasRemaining()) {
                if (ch.read(slice, inPart + slice.position()) < 0) {
                    throw new IOException("part " + parts.get(i).number() + " spool file is shorter than its "
                            + parts.get(i).size() + " bytes");
                }
            }
            dst.position(dst.position() + want);
            at += want;
        }
    }

    private int partAt(long offset) throws IOException {
        for (int i = parts.size() - 1; i >= 0; i--) {
            if (offset >= starts[i] && (offset < starts[i] + parts.get(i).size())) {
                return i;
            }
        }
        throw new IOException("offset " + offset + " is outside the " + size + " bytes of the upload");
    }

    private FileChannel channel(int i) throws IOException {
        if (open != i) {
            close();
            channel = FileChannel.open(parts.get(i).file(), StandardOpenOption.READ);
            open = i;
        }
        return channel;
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
            open = -1;
        }
    }
}
