package geoblocks.blockstore.client;

import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.wire.ClientOp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Compression;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestCodec;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.FileOp.ManifestPart;
import geoblocks.net.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client side of a download of compressed blocks, driven without a node: the transfer gets the
 * manifest and the stored bytes as the node would send them, and must refuse a block whose stored
 * bytes or decompressed bytes do not match the manifest's checksums.
 */
class GetTransferTest {
    private static final long OP = 7;
    private static final String NAME = "notes.txt";
    private static final String FILE_ID = "f42";
    private static final int BLOCK = 64 << 10;

    @TempDir
    Path dir;

    /** A client that records what the transfer does. */
    private static final class Link implements ClientLink {
        final List<FileOp> sent = new ArrayList<>();
        String error;
        Object value;
        int finished;

        @Override
        public void send(FileOp op) {
            sent.add(op);
        }

        @Override
        public void progress(long op, long bytes, long total) {}

        @Override
        public void finish(long op, Failure failure, Object value) {
            finished++;
            this.error = failure == null ? null : failure.text();
            this.value = value;
        }
    }

    /** Collects what the transfer writes, at its offsets. */
    private static final class Sink implements ByteSink {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void begin() {}

        /** The arrays written, as given. */
        final List<byte[]> parts = new ArrayList<>();

        @Override
        public void write(long offset, byte[] data) {
            assertEquals(bytes.size(), offset, "writes arrive in order");
            bytes.writeBytes(data);
            parts.add(data);
        }
    }

    /** Compressible text of {@code length} bytes, seeded. */
    private static byte[] text(int length, long seed) {
        Random r = new Random(seed);
        String[] words = {"geo", "block", "replica", "seoul", "dublin", "mumbai", "manifest", "read "};
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            sb.append(words[r.nextInt(words.length)]).append(' ');
        }
        return Arrays.copyOf(sb.toString().getBytes(StandardCharsets.US_ASCII), length);
    }

    private static Manifest manifest(List<Manifest.BlockRef> blocks, long size) {
        return new Manifest(NAME, FILE_ID, size, BLOCK, "local", "seoul", 1_700_000_000_000L, blocks);
    }

    /** Block i of a file: stored bytes and the manifest's entry. */
    private record Stored(byte[] bytes, Manifest.BlockRef ref) {}

    private static Stored encode(byte[] raw, Compression mode) {
        Compression.Encoded e = mode.encode(raw, raw.length);
        return new Stored(e.stored(), new Manifest.BlockRef(e.stored().length, Checksums.crc32c(e.stored()),
                List.of("seoul"), e.codec(), e.rawLength(), e.rawCrc()));
    }

    /** Feeds the manifest, then the stored bytes of every block in chunks of {@code chunk}. */
    private static void deliver(GetTransfer t, Manifest m, List<byte[]> stored, int chunk) throws IOException {
        byte[] mb = ManifestCodec.encode(m);
        t.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        stored.forEach(all::writeBytes);
        byte[] bytes = all.toByteArray();
        for (int off = 0; off < bytes.length; off += chunk) {
            t.onReply(new GetData(OP, off, Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + chunk))));
        }
    }

    /** Bytes in a direct buffer (as a view of a received frame is), that count their releases. */
    private static final class DirectBytes extends Bytes {
        final ByteBuffer buf;
        int releases;

        DirectBytes(byte[] data) {
            buf = ByteBuffer.allocateDirect(data.length).put(data).flip();
        }

        @Override public int length() { return buf.remaining(); }
        @Override public ByteBuffer nio() { return buf.duplicate(); }
        @Override public Bytes slice(int offset, int length) { throw new UnsupportedOperationException(); }
        @Override public void release() { releases++; }
    }

    @Test
    void plainBlocks_fromDirectBuffers_acrossBlockEnds_areWrittenToTheFile_wholeOrARange() throws Exception {
        byte[] file = new byte[2 * BLOCK + 5000];
        new Random(11).nextBytes(file);
        List<Manifest.BlockRef> refs = new ArrayList<>();
        for (int off = 0; off < file.length; off += BLOCK) {
            byte[] b = Arrays.copyOfRange(file, off, Math.min(file.length, off + BLOCK));
            refs.add(new Manifest.BlockRef(b.length, Checksums.crc32c(b), List.of("seoul")));
        }
        Manifest m = manifest(refs, file.length);
        byte[] mb = ManifestCodec.encode(m);
        // the whole file, in parts of 50,000 bytes: most of them span the end of a block
        Link link = new Link();
        Path out = dir.resolve("whole");
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, out), 1 << 20);
        t.start();
        t.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        List<DirectBytes> parts = new ArrayList<>();
        for (int off = 0; off < file.length; off += 50_000) {
            DirectBytes d = new DirectBytes(Arrays.copyOfRange(file, off, Math.min(file.length, off + 50_000)));
            parts.add(d);
            t.onReply(new GetData(OP, off, d));
        }
        assertEquals(null, link.error);
        assertEquals(1, link.finished);
        assertArrayEquals(file, Files.readAllBytes(out));
        parts.forEach(d -> assertEquals(0, d.releases, "the transfer reads its parts, its component releases them"));
        // bytes 70,000..140,000 (past the end): the node sends blocks 1 and 2 from block 1's stored offset
        Link ranged = new Link();
        Path part = dir.resolve("range");
        GetTransfer r = new GetTransfer(ranged, new ClientPort.Get(OP, NAME, part, null, "", null,
                new ClientPort.Range(70_000, 140_000)), 1 << 20);
        r.start();
        r.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        for (int off = BLOCK; off < file.length; off += 50_000) {
            r.onReply(new GetData(OP, off, new DirectBytes(Arrays.copyOfRange(file, off, Math.min(file.length, off + 50_000)))));
        }
        assertEquals(null, ranged.error);
        assertArrayEquals(Arrays.copyOfRange(file, 70_000, file.length), Files.readAllBytes(part)); // the range ends with the file
        // a flipped byte in a direct part fails the block, naming it
        Link bad = new Link();
        GetTransfer c = new GetTransfer(bad, new ClientPort.Get(OP, NAME, dir.resolve("bad")), 1 << 20);
        c.start();
        c.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        byte[] flipped = Arrays.copyOf(file, BLOCK);
        flipped[BLOCK - 1] ^= 1;
        IOException e = assertThrows(IOException.class, () -> c.onReply(new GetData(OP, 0, new DirectBytes(flipped))));
        assertEquals(FailureCode.BLOCK_CORRUPT, FailureCode.of(e, FailureCode.INTERNAL), "a block that fails its checks");
        assertTrue(e.getMessage().contains("block 0"), e.getMessage());
    }

    @Test
    void wholeHeapBlocks_reachTheSinkAsTheArraysTheyCameIn_directOnesAsCopies() throws Exception {
        byte[] a = text(BLOCK, 3);
        byte[] b = text(BLOCK, 4);
        List<Manifest.BlockRef> refs = List.of(new Manifest.BlockRef(a.length, Checksums.crc32c(a), List.of("seoul")),
                new Manifest.BlockRef(b.length, Checksums.crc32c(b), List.of("seoul")));
        Manifest m = manifest(refs, a.length + b.length);
        byte[] mb = ManifestCodec.encode(m);
        Link link = new Link();
        Sink sink = new Sink();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, null, sink), 1 << 20);
        t.start();
        t.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        t.onReply(new GetData(OP, 0, a)); // heap, as an in-process node sends it
        DirectBytes direct = new DirectBytes(b); // a view of a received frame
        t.onReply(new GetData(OP, a.length, direct));
        assertEquals(null, link.error);
        assertEquals(2, sink.parts.size());
        assertSame(a, sink.parts.get(0), "no copy of a whole heap block");
        assertNotSame(b, sink.parts.get(1));
        assertArrayEquals(b, sink.parts.get(1), "a direct block is copied out before its buffer goes back");
    }

    @Test
    void compressedBlocks_roundTrip_toTheSink() throws Exception {
        byte[] a = text(BLOCK, 1);
        byte[] b = text(1000, 2);
        Stored sa = encode(a, Compression.ZSTD);
        Stored sb = encode(b, Compression.GZIP);
        assertEquals(BlockCodec.ZSTD, sa.ref().codec());
        assertEquals(BlockCodec.GZIP, sb.ref().codec());
        Manifest m = manifest(List.of(sa.ref(), sb.ref()), a.length + b.length);
        Link link = new Link();
        Sink sink = new Sink();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, null, sink), 1 << 20);
        t.start();
        deliver(t, m, List.of(sa.bytes(), sb.bytes()), 4096);

        assertEquals(1, link.finished);
        assertNull(link.error);
        assertEquals(m, link.value);
        byte[] expected = new byte[a.length + b.length];
        System.arraycopy(a, 0, expected, 0, a.length);
        System.arraycopy(b, 0, expected, a.length, b.length);
        assertArrayEquals(expected, sink.bytes.toByteArray());
    }

    @Test
    void flippedStoredByte_ofACompressedBlock_failsNamingTheBlock_andLeavesNoFile() throws Exception {
        byte[] a = text(BLOCK, 3);
        byte[] b = text(BLOCK, 4);
        Stored sa = encode(a, Compression.ZSTD);
        Stored sb = encode(b, Compression.ZSTD);
        Manifest m = manifest(List.of(sa.ref(), sb.ref()), 2L * BLOCK);
        byte[] corrupt = sb.bytes().clone();
        corrupt[corrupt.length / 2] ^= 0x10; // as if the replica's disk flipped a bit of block 1
        Path out = dir.resolve("out.txt");
        Link link = new Link();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, out), 1 << 20);
        t.start();

        IOException e = assertThrows(IOException.class, () -> deliver(t, m, List.of(sa.bytes(), corrupt), 1000));
        assertEquals(FailureCode.BLOCK_CORRUPT, FailureCode.of(e, FailureCode.INTERNAL), "a block that fails its checks");
        assertTrue(e.getMessage().startsWith("block 1 (b-" + FILE_ID + "-1) of '" + NAME + "' arrived with checksum "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("manifest says " + Checksums.hex(sb.ref().crc())), e.getMessage());
        assertEquals(0, link.finished, "the component turns the exception into the result");
        assertTrue(Files.exists(dir.resolve("out.txt.part")), "block 0 was written to the partial file");
        t.close();
        assertFalse(Files.exists(dir.resolve("out.txt.part")), "a failed download deletes its partial file");
        assertFalse(Files.exists(out), "no file appears under the name asked for");
    }

    @Test
    void storedChecksumMatches_butDecompressedBytesDoNot_fails() throws Exception {
        byte[] original = text(BLOCK, 5);
        byte[] other = text(BLOCK, 6); // same length, other content
        assertNotEquals(Checksums.crc32c(original), Checksums.crc32c(other));
        Stored good = encode(original, Compression.ZSTD);
        Stored wrong = encode(other, Compression.ZSTD);
        // the stored bytes are consistent with their own checksum, but decompress to other bytes
        Manifest.BlockRef ref = new Manifest.BlockRef(wrong.bytes().length, Checksums.crc32c(wrong.bytes()),
                List.of("seoul"), BlockCodec.ZSTD, BLOCK, good.ref().rawCrc());
        Manifest m = manifest(List.of(ref), BLOCK);
        Link link = new Link();
        Sink sink = new Sink();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, null, sink), 1 << 20);
        t.start();

        IOException e = assertThrows(IOException.class, () -> deliver(t, m, List.of(wrong.bytes()), 8192));
        assertEquals(FailureCode.BLOCK_CORRUPT, FailureCode.of(e, FailureCode.INTERNAL), "a block that fails its checks");
        assertEquals("block 0 (b-" + FILE_ID + "-0) of '" + NAME + "' (zstd) decompressed with checksum "
                + Checksums.hex(Checksums.crc32c(other)) + ", manifest says " + Checksums.hex(good.ref().rawCrc()),
                e.getMessage());
        assertEquals(0, sink.bytes.size(), "no byte of the bad block reached the sink");
    }

    @Test
    void storedChecksumMatches_butStoredBytesDoNotDecode_failsNamingTheBlock() throws Exception {
        byte[] original = text(BLOCK, 7);
        Stored good = encode(original, Compression.GZIP);
        byte[] broken = good.bytes().clone();
        broken[broken.length - 6] ^= 0x01; // gzip trailer's CRC-32 (of the original) no longer matches
        // corrupted before its checksum was taken: the stored checksum passes
        Manifest.BlockRef ref = new Manifest.BlockRef(broken.length, Checksums.crc32c(broken), List.of("seoul"),
                BlockCodec.GZIP, BLOCK, good.ref().rawCrc());
        Manifest m = manifest(List.of(ref), BLOCK);
        Link link = new Link();
        Sink sink = new Sink();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, null, sink), 1 << 20);
        t.start();

        IOException e = assertThrows(IOException.class, () -> deliver(t, m, List.of(broken), 8192));
        assertEquals(FailureCode.BLOCK_CORRUPT, FailureCode.of(e, FailureCode.INTERNAL), "a block that fails its checks");
        assertTrue(e.getMessage().startsWith("block 0 (b-" + FILE_ID + "-0) of '" + NAME + "' (gzip) does not decompress: "),
                e.getMessage());
        assertEquals(0, sink.bytes.size());
    }

    @Test
    void start_sendsAPlainGetBegin() throws Exception {
        Link link = new Link();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, null, new Sink()), 1 << 20);
        t.start();
        assertEquals(List.of(new ClientOp.GetBegin(OP, NAME, "")), link.sent);
        assertSame(null, link.error);
    }

    @Test
    void inlineVersion_isWrittenFromItsManifest_whole_orItsRange_withNoDataMessage() throws Exception {
        byte[] data = text(3000, 11);
        Manifest m = Manifest.inline(NAME, FILE_ID, BLOCK, "local", "seoul", 1_700_000_000_000L,
                new Version(5, "seoul"), Map.of(), data);
        byte[] mb = ManifestCodec.encode(m);

        Path out = dir.resolve("small.txt");
        Link link = new Link();
        GetTransfer t = new GetTransfer(link, new ClientPort.Get(OP, NAME, out), 1 << 20);
        t.start();
        t.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        assertEquals(1, link.finished);
        assertNull(link.error);
        assertEquals(m, link.value);
        assertArrayEquals(data, Files.readAllBytes(out));
        assertFalse(Files.exists(dir.resolve("small.txt.part")));
        assertEquals(1, link.sent.size(), "the request only: no acknowledgement of data that never came");

        Link ranged = new Link();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        ByteSink sink = new ByteSink() {
            @Override
            public void begin() {}

            @Override
            public void write(long offset, byte[] bytes) {
                assertEquals(100, offset, "the range's bytes at their offset in the object");
                got.writeBytes(bytes);
            }
        };
        GetTransfer r = new GetTransfer(ranged, new ClientPort.Get(OP, NAME, null, sink, "", null,
                new ClientPort.Range(100, 199)), 1 << 20);
        r.start();
        r.onReply(new ManifestPart(OP, false, 0, mb.length, mb));
        assertNull(ranged.error);
        assertArrayEquals(Arrays.copyOfRange(data, 100, 200), got.toByteArray());
    }
}
