package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp.GetAck;
import geoblocks.blockstore.wire.ClientOp.GetBegin;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes a node sends to a client are read into the node's send buffers ({@code sendBuffers}: a
 * pooled buffer in production) and handed to the GetData messages as they are; bytes a download no
 * longer needs (it failed) go back at once.
 */
class DownloadBuffersTest {
    private static final NetAddress CLIENT = NetAddress.of("127.0.0.1", 9000);
    private static final int BLOCK = 256 << 10;

    @TempDir
    Path dir;

    /** Direct buffers (or slices of one) that remember their releases. */
    static final class Tracked extends Bytes {
        final ByteBuffer buf;
        /** The buffer this is a slice of, or null. */
        final Tracked of;
        final List<Tracked> slices = new ArrayList<>();
        int releases;

        Tracked(int n) {
            this(ByteBuffer.allocateDirect(n), null);
        }

        private Tracked(ByteBuffer buf, Tracked of) {
            this.buf = buf;
            this.of = of;
        }

        @Override public int length() { return buf.capacity(); }
        @Override public ByteBuffer nio() { return buf.duplicate().clear(); }
        @Override public Bytes slice(int offset, int length) {
            Tracked t = new Tracked(buf.slice(offset, length), this);
            slices.add(t);
            return t;
        }
        @Override public void release() { releases++; }
    }

    /** A node holding {@code blocks} blocks of a file in a store on disk; the file's manifest. */
    private Manifest stored(FakeNode node, int blocks, List<byte[]> contents) throws Exception {
        node.disk = new FileBlockStorage(dir.resolve("store"));
        List<Manifest.BlockRef> refs = new ArrayList<>();
        Random r = new Random(5);
        for (int i = 0; i < blocks; i++) {
            byte[] b = new byte[BLOCK];
            r.nextBytes(b);
            contents.add(b);
            refs.add(new Manifest.BlockRef(b.length, Checksums.crc32c(b), List.of(node.region())));
        }
        Manifest m = new Manifest("f.bin", "f1", (long) blocks * BLOCK, BLOCK, "local", node.region(), 1L, refs);
        for (int i = 0; i < blocks; i++) {
            node.disk.put(m.blockId(i), contents.get(i), refs.get(i).crc());
        }
        node.manifests().save(m);
        return m;
    }

    /** Makes the node read blocks for clients into {@link Tracked} buffers; the list fills as it allocates. */
    private static List<Tracked> trackSendBuffers(FakeNode node) {
        List<Tracked> allocated = new ArrayList<>();
        node.sendBuffers = n -> {
            Tracked t = new Tracked(n);
            allocated.add(t);
            return t;
        };
        return allocated;
    }

    private static List<GetData> data(FakeNode node) {
        return node.sent.stream().filter(s -> s[0].equals(CLIENT) && s[1] instanceof GetData)
                .map(s -> (GetData) s[1]).toList();
    }

    @Test
    void blocksReadForAClient_goOutInTheBuffersTheyWereReadInto_inOrder() throws Exception {
        FakeNode node = new FakeNode();
        List<byte[]> contents = new ArrayList<>();
        stored(node, 3, contents);
        List<Tracked> allocated = trackSendBuffers(node);
        Downloads down = new Downloads(node);
        down.onBegin(CLIENT, new GetBegin(1, "f.bin"));
        down.onAck(CLIENT, new GetAck(1, 3L * BLOCK));
        List<GetData> sent = data(node);
        int chunk = node.settings().chunkBytes();
        int perBlock = (BLOCK + chunk - 1) / chunk;
        assertEquals(3 * perBlock, sent.size(), "each block in chunks of " + chunk);
        assertEquals(3, allocated.size(), "each block read once, into a send buffer");
        long offset = 0;
        for (int i = 0; i < 3; i++) {
            Tracked block = allocated.get(i);
            assertEquals(1, block.releases, "block " + i + ": its own reference dropped once cut into chunks");
            ByteBuffer joined = ByteBuffer.allocate(BLOCK);
            for (int c = 0; c < perBlock; c++) {
                GetData d = sent.get(i * perBlock + c);
                assertSame(block, ((Tracked) d.data()).of, "chunk " + c + " of block " + i + " is a view of its buffer");
                assertEquals(0, ((Tracked) d.data()).releases, "a chunk sent is the message's (the network releases it)");
                assertEquals(offset, d.offset());
                offset += d.data().length();
                joined.put(d.data().nio());
            }
            assertArrayEquals(contents.get(i), joined.array());
        }
    }

    @Test
    void aDownloadThatFails_releasesTheBlocksItReadButHadNotSent() throws Exception {
        FakeNode node = new FakeNode();
        int blocks = (int) (node.settings().getWindowBytes() / BLOCK) + 8; // more than the window holds
        stored(node, blocks, new ArrayList<>());
        List<Tracked> allocated = trackSendBuffers(node);
        Downloads down = new Downloads(node);
        down.onBegin(CLIENT, new GetBegin(1, "f.bin")); // the client acknowledges nothing from now on
        long sentBlocks = allocated.stream().filter(t -> !t.slices.isEmpty()).count();
        assertTrue(sentBlocks < allocated.size(), "the window holds blocks read but not sent: sent " + sentBlocks
                + " of " + allocated.size());
        node.now += 120_000 * FakeNode.MS;
        down.expire(node.now, 60_000 * FakeNode.MS);
        assertEquals(1, node.sent.stream().filter(s -> s[1] instanceof Failed).count(), "the client is told");
        for (Tracked t : allocated) {
            assertEquals(1, t.releases, "every block read goes back once: cut into chunks when sent, or unsent");
            for (Tracked chunk : t.slices) {
                assertEquals(0, chunk.releases, "a chunk sent is the message's");
            }
        }
        assertTrue(allocated.stream().anyMatch(t -> t.slices.isEmpty()), "some block was read and not sent");
    }
}
