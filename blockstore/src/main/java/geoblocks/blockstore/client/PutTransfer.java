package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.Committed;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.PutBegin;
import geoblocks.blockstore.wire.ClientOp.PutData;
import geoblocks.blockstore.wire.ClientOp.PutProgress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Streams a file to the node in blocks of chunks, never more than the window ahead of what the
 * node reports durable, computing each block's CRC32C as it reads (so the node can verify it).
 * Memory stays at one chunk regardless of file size; with compression, at one block and its
 * encoding (each block is compressed whole before it is sent).
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
        client.send(new PutBegin(put.op(), put.name(), size, put.blockSize(), put.policy(), put.ack(), put.condition(),
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
            client.finish(put.op(), Failure.of(f), null);
        }
    }

    private void pump() throws IOException {
        if (put.compress() != Compression.NONE) {
            pumpBlocks();
            return;
        }
        boolean emptyFile = size == 0 && sent == 0 && block == 0;
        while (accepted && (sent < size || emptyFile) && sent - durable < window) {
            int blockLen = blockLength();
            int n = Math.min(chunk, blockLen - offsetInBlock);
            byte[] data = new byte[n];
            read(sent, data, n);
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

    /**
     * Compressed puts: a whole block is read, encoded as the put's {@link Compression} decides and
     * sent in chunks; memory is one block and its encoding.
     */
    private void pumpBlocks() throws IOException {
        boolean emptyFile = size == 0 && sent == 0 && block == 0;
        while (accepted && (sent < size || emptyFile) && sent - durable < window) {
            int blockLen = blockLength();
            byte[] raw = new byte[blockLen];
            read(sent, raw, blockLen);
            Compression.Encoded e = put.compress().encode(raw, blockLen);
            int storedCrc = e.codec() == BlockCodec.NONE ? e.rawCrc() : Checksums.crc32c(e.stored());
            byte[] stored = e.stored();
            int off = 0;
            do {
                int n = Math.min(chunk, stored.length - off);
                boolean last = off + n == stored.length;
                byte[] part = off == 0 && n == stored.length ? stored : Arrays.copyOfRange(stored, off, off + n);
                client.send(new PutData(put.op(), block, off, last ? storedCrc : 0, last, part,
                        last ? e.codec().id() : 0, last ? e.rawCrc() : 0));
                off += n;
            } while (off < stored.length);
            sent += blockLen;
            block++;
            emptyFile = false;
        }
    }

    @Override
    public String state() {
        if (!accepted) {
            return "the node had not yet admitted the upload";
        }
        return "sent " + sent + " of " + size + " bytes, " + durable + " reported durable"
                + (sent >= size ? "; waiting for the commit" : "; waiting for the node to report progress");
    }

    private int blockLength() {
        return (int) Math.min(put.blockSize(), size - (long) block * put.blockSize());
    }

    /** Reads {@code n} bytes of the file at {@code pos} into {@code into}. */
    private void read(long pos, byte[] into, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(into, 0, n);
        if (in == null) {
            put.source().read(pos, buf);
            return;
        }
        while (buf.hasRemaining()) {
            if (in.read(buf, pos + buf.position()) < 0) {
                throw new IOException(put.file() + " shrank while uploading");
            }
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
