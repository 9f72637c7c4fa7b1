package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Committed;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.FileOp.PutBegin;
import geoblocks.blockstore.wire.FileOp.PutData;
import geoblocks.blockstore.wire.FileOp.PutProgress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Streams a file to the node in blocks of chunks, never more than the window ahead of what the
 * node reports durable, computing each block's CRC32C as it reads (so the node can verify it).
 * Memory stays at one chunk regardless of file size.
 */
final class PutTransfer implements Transfer {
    private final ClientComponent client;
    private final ClientPort.Put put;
    private final long window;
    private final int chunk;
    private FileChannel in;
    private long size;
    private long sent;
    private long durable;
    private boolean accepted;
    private int block;
    private int offsetInBlock;
    private final CRC32C crc = new CRC32C();

    PutTransfer(ClientComponent client, ClientPort.Put put, long window, int chunk) {
        this.client = client;
        this.put = put;
        this.window = window;
        this.chunk = chunk;
    }

    @Override
    public void start() throws IOException {
        if (put.source() != null) {
            size = put.source().size();
        } else {
            in = FileChannel.open(put.file(), StandardOpenOption.READ);
            size = in.size();
        }
        client.send(new PutBegin(put.op(), put.name(), size, put.blockSize(), put.policy(), put.ack(), put.ifAbsent(),
                put.meta()));
    }

    @Override
    public void onReply(FileOp op) throws IOException {
        if (op instanceof PutProgress p) {
            accepted = true;
            durable = Math.max(durable, p.durableBytes());
            client.progress(put.op(), durable, size);
            pump();
        } else if (op instanceof Committed c) {
            client.finish(put.op(), null, new ClientPort.Written(c.version(), c.info()));
        } else if (op instanceof Failed f) {
            client.finish(put.op(), f.error(), null);
        }
    }

    private void pump() throws IOException {
        boolean emptyFile = size == 0 && sent == 0 && block == 0;
        while (accepted && (sent < size || emptyFile) && sent - durable < window) {
            int blockLen = (int) Math.min(put.blockSize(), size - (long) block * put.blockSize());
            int n = Math.min(chunk, blockLen - offsetInBlock);
            byte[] data = new byte[n];
            ByteBuffer buf = ByteBuffer.wrap(data);
            if (in == null) {
                put.source().read(sent, buf);
            }
            while (buf.hasRemaining()) {
                if (in.read(buf, sent + buf.position()) < 0) {
                    throw new IOException(put.file() + " shrank while uploading");
                }
            }
            crc.update(data);
            boolean last = offsetInBlock + n == blockLen;
            client.send(new PutData(put.op(), block, offsetInBlock, last ? (int) crc.getValue() : 0, last, data));
            sent += n;
            offsetInBlock += n;
            if (last) {
                block++;
                offsetInBlock = 0;
                crc.reset();
            }
            emptyFile = false;
        }
    }

    @Override
    public void close() {
        try {
            if (in != null) {
                in.close();
            }
        } catch (IOException ignored) {
            // read-only channel
        }
    }
}
