package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.core.read.RangePlan;
import geoblocks.blockstore.wire.Assembly;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.ClientOp.GetAck;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetRead;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.ClientOp.GetRange;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Downloads a file: receives the manifest, then the bytes in order, checking each block's CRC32C
 * against the manifest as it completes, and writing to {@code OUT.part}; only a complete, verified
 * file is fsync'ed and renamed to {@code OUT} (the disk starts on the bytes while the rest
 * arrives, {@link FlushBehind}, so the final fsync has little left to write). The node streams
 * blocks as stored; compressed blocks are collected one at a time, decompressed (bounded by their
 * original length) and checked against both checksums before they are written. A failure deletes
 * the partial file. With a {@link ByteSink} the bytes go to the sink instead, each part after it
 * was fed to its block's checksum (a corrupt block fails the download when its last part arrives).
 * A ranged get ({@code GetRange}) receives only the blocks its {@link RangePlan} names, from the
 * first one's stored offset on; each is checked whole as above, and only the range's bytes of it
 * are written (to the file from its start, to the sink at their offsets in the file). An inline
 * version's bytes come in its manifest: they are checked against their CRC32C and written (the
 * range's part of them) without any data message.
 */
final class GetTransfer implements Transfer {
    /** Largest manifest a client accepts (a million blocks' worth). */
    static final int MAX_MANIFEST = 64 << 20;

    private final ClientLink client;
    private final ClientPort.Get get;
    private final long ackEvery;
    private final Path part;
    private Assembly manifestParts;
    private Manifest manifest;
    /** The blocks to receive and the bytes of them to keep. */
    private RangePlan plan;
    private FileChannel out;
    /** Starts the disk on the file's bytes while the rest arrives (with {@link #out}). */
    private FlushBehind flush;
    /** Stored offset of the next byte to receive (the node streams blocks as stored). */
    private long received;
    /** Stored offset one past the last byte to receive. */
    private long storedEnd;
    /** Original offset in the file of the next byte the blocks yield. */
    private long written;
    /** The compressed block being collected, or null. */
    private byte[] packed;
    private long acked;
    private int block;
    private int inBlock;
    private final CRC32C crc = new CRC32C();

    GetTransfer(ClientLink client, ClientPort.Get get, long window) {
        this.client = client;
        this.get = get;
        this.ackEvery = Math.max(1, window / 4);
        this.part = get.sink() != null ? null : get.out().resolveSibling(get.out().getFileName() + ".part");
    }

    @Override
    public void start() throws IOException {
        if (get.sink() != null) {
            get.sink().begin();
        }
        String version = get.version() == null ? "" : get.version();
        if (get.range() != null) {
            client.send(new GetRange(get.op(), get.name(), version,
                    get.read() == null ? "" : get.read().strategy().id(), get.read() == null ? "" : get.read().rank(),
                    get.range().first(), get.range().last()));
        } else if (get.read() == null) {
            client.send(new GetBegin(get.op(), get.name(), version));
        } else {
            client.send(new GetRead(get.op(), get.name(), version, get.read().strategy().id(), get.read().rank()));
        }
    }

    @Override
    public void onReply(FileOp op) throws IOException {
        if (op instanceof ManifestPart p && manifest == null) {
            onManifest(p);
        } else if (op instanceof GetData d && manifest != null) {
            onData(d);
        } else if (op instanceof Failed f) {
            client.finish(get.op(), Failure.of(f), null);
        }
    }

    @Override
    public String state() {
        if (manifest == null) {
            return "no manifest received yet";
        }
        return "received " + (received - plan.storedStart()) + " of " + (storedEnd - plan.storedStart())
                + " stored bytes, acknowledged up to " + acked;
    }

    private void onManifest(ManifestPart p) throws IOException {
        if (manifestParts == null) {
            manifestParts = new Assembly(p.total(), MAX_MANIFEST);
        }
        if (!manifestParts.add(p.offset(), p.data())) {
            return;
        }
        manifest = ManifestCodec.decode(manifestParts.bytes());
        manifestParts = null;
        try {
            plan = get.range() == null ? RangePlan.whole(manifest)
                    : RangePlan.of(manifest, get.range().first(), get.range().last());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        received = plan.storedStart();
        storedEnd = plan.storedEnd();
        block = plan.firstBlock();
        written = plan.rawStart();
        if (part != null) {
            out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            flush = new FlushBehind(out);
        }
        if (manifest.isInline()) {
            byte[] content;
            try {
                content = manifest.inline().verified();
            } catch (IOException e) {
                throw new CorruptBlockException("'" + manifest.name() + "': " + e.getMessage(), e);
            }
            write(ByteBuffer.wrap(content)); // written = 0: the range's bytes of the whole content
            complete();
            return;
        }
        if (received == storedEnd) {
            complete();
        }
    }

    private void onData(GetData d) throws IOException {
        int length = d.data().length();
        if (d.offset() != received || length > storedEnd - received) {
            throw new IOException("data at offset " + d.offset() + " (" + length
                    + " bytes) does not follow " + received + " of " + storedEnd);
        }
        consume(d.data().nio());
        received += length;
        client.progress(get.op(), Math.min(plan.length(), Math.max(0, written - plan.first())), plan.length());
        if (received == storedEnd) {
            complete();
        } else if (received - acked >= ackEvery) {
            acked = received;
            client.send(new GetAck(get.op(), received));
        }
    }

    /**
     * Feeds stored bytes to their blocks: an uncompressed block's bytes are checked by its running
     * CRC32C and written as they come (straight from the received buffer); a compressed block is
     * collected, checked (stored CRC32C), decompressed, checked again (original CRC32C) and then
     * written. {@code data} is read, never kept.
     */
    private void consume(ByteBuffer data) throws IOException {
        while (data.hasRemaining()) {
            Manifest.BlockRef ref = manifest.blocks().get(block);
            int n = Math.min(data.remaining(), ref.length() - inBlock);
            ByteBuffer part = data.slice(data.position(), n);
            crc.update(part.duplicate());
            if (ref.codec() == BlockCodec.NONE) {
                write(part);
            } else {
                if (packed == null) {
                    packed = new byte[ref.length()];
                }
                part.get(packed, inBlock, n);
            }
            data.position(data.position() + n);
            inBlock += n;
            if (inBlock == ref.length()) {
                endBlock(ref);
            }
        }
    }

    private void endBlock(Manifest.BlockRef ref) throws IOException {
        if ((int) crc.getValue() != ref.crc()) {
            throw new CorruptBlockException(blockName() + " arrived with checksum "
                    + Checksums.hex((int) crc.getValue()) + ", manifest says " + Checksums.hex(ref.crc()), null);
        }
        if (ref.codec() != BlockCodec.NONE) {
            byte[] raw;
            try {
                raw = ref.codec().decompress(manifest.blockId(block), packed, ref.rawLength());
            } catch (CorruptBlockException e) {
                throw new CorruptBlockException(blockName() + " (" + ref.codec().label() + ") does not decompress: "
                        + e.getMessage(), e);
            }
            packed = null;
            int rawCrc = Checksums.crc32c(raw);
            if (rawCrc != ref.rawCrc()) {
                throw new CorruptBlockException(blockName() + " (" + ref.codec().label() + ") decompressed with checksum "
                        + Checksums.hex(rawCrc) + ", manifest says " + Checksums.hex(ref.rawCrc()), null);
            }
            write(ByteBuffer.wrap(raw));
        }
        crc.reset();
        block++;
        inBlock = 0;
    }

    /** The block being received, for errors: its index, id and file. */
    private String blockName() {
        return "block " + block + " (" + manifest.blockId(block) + ") of '" + manifest.name() + "'";
    }

    /** Takes the next original bytes of the file (checked): writes those in the range. */
    private void write(ByteBuffer raw) throws IOException {
        int length = raw.remaining();
        int from = plan.keepFrom(written, length);
        int to = plan.keepTo(written, length);
        if (from < to) {
            ByteBuffer keep = raw.slice(raw.position() + from, to - from);
            long at = written + from;
            if (out == null) {
                get.sink().write(at, array(keep));
            } else {
                int n = keep.remaining();
                while (keep.hasRemaining()) {
                    out.write(keep, at - plan.first() + keep.position());
                }
                flush.wrote(n);
            }
        }
        written += length;
    }

    /**
     * The bytes left in {@code b} for a sink: the array behind it when they are exactly that array
     * (heap bytes a node in this process sent: handed on as they came), else a copy (the received
     * buffer goes back to the pool once the message is handled).
     */
    private static byte[] array(ByteBuffer b) {
        if (b.hasArray() && b.arrayOffset() + b.position() == 0 && b.remaining() == b.array().length) {
            return b.array();
        }
        byte[] copy = new byte[b.remaining()];
        b.get(copy);
        return copy;
    }

    private void complete() throws IOException {
        if (!manifest.isInline()) {
            client.send(new GetAck(get.op(), received)); // lets the node return the last window's memory
        }
        if (out != null) {
            flush.finish();
            out.force(true);
            out.close();
            out = null;
            Files.move(part, get.out(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        client.finish(get.op(), null, manifest);
    }

    @Override
    public void close() {
        try {
            if (out != null) {
                try {
                    flush.finish(); // not closing the file under a running flush
                } catch (IOException ignored) {
                    // the download failed already
                }
                out.close();
                Files.deleteIfExists(part);
            }
        } catch (IOException ignored) {
            // best effort cleanup of a failed download
        }
    }
}
