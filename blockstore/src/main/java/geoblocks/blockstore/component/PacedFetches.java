package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.read.ServeQueue;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.blockstore.wire.PeerOp.FetchCancel;
import geoblocks.blockstore.wire.PeerOp.FetchMore;
import geoblocks.blockstore.wire.PeerOp.FetchPaced;
import geoblocks.net.NetAddress;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Serves cancellable block fetches ({@link FetchPaced}) for other nodes' parallel and hedged reads:
 * reads the block, reserves it in the memory budget, and sends its chunks as the {@link ServeQueue}
 * allows (a window per fetch that {@link FetchMore} moves, a limit over all fetches); a
 * {@link FetchCancel} stops a fetch, whether it is still being read, waiting in the queue or
 * half sent. Runs in the peer service ({@link PeerService}), on a {@link PeerNode}.
 */
final class PacedFetches {
    private final PeerNode node;
    private final ServeQueue<Key> queue;
    /** Fetches being read (value null) or queued (value: the block). */
    private final Map<Key, Block> fetches = new HashMap<>();
    /** Bytes of the queued blocks, reserved in the memory budget. */
    private long held;

    private record Key(NetAddress peer, long req) {}

    private record Block(byte[] data, int crc) {}

    PacedFetches(PeerNode node) {
        this.node = node;
        this.queue = ServeQueue.forChunk(node.settings().chunkBytes());
    }

    void onFetch(NetAddress peer, FetchPaced f) {
        Key key = new Key(peer, f.req());
        BlockId id;
        try {
            id = BlockId.of(f.blockId());
        } catch (IllegalArgumentException e) {
            node.send(peer, new Failed(f.req(), FailureCode.INVALID, e.getMessage()));
            return;
        }
        if (fetches.containsKey(key)) {
            node.send(peer, new Failed(f.req(), FailureCode.INVALID, "fetch " + f.req() + " is already active"));
            return;
        }
        fetches.put(key, null);
        node.readLocal(id, read -> {
            if (!fetches.containsKey(key)) {
                return; // cancelled while being read
            }
            if (read.block() == null) {
                fetches.remove(key);
                node.send(peer, read.failure().prefixed(node.region() + ": ").reply(f.req()));
                return;
            }
            byte[] data = read.block().data();
            if (data.length == 0) {
                fetches.remove(key);
                node.send(peer, new BlockData(f.req(), 0, 0, read.block().crc(), data));
                return;
            }
            if (!node.budget().tryReserve(data.length)) {
                fetches.remove(key);
                node.send(peer, new Failed(f.req(), FailureCode.BUSY, node.region() + ": " + node.budget().busy(data.length)));
                return;
            }
            fetches.put(key, new Block(data, read.block().crc()));
            held += data.length;
            queue.add(key, data.length, node.now());
            pump();
        });
    }

    void onMore(NetAddress peer, FetchMore m) {
        Key key = new Key(peer, m.req());
        if (queue.acknowledge(key, m.received(), node.now())) {
            if (!queue.contains(key)) {
                release(key);
            }
            pump();
        }
    }

    void onCancel(NetAddress peer, FetchCancel c) {
        Key key = new Key(peer, c.req());
        if (!fetches.containsKey(key)) {
            return;
        }
        queue.cancel(key);
        release(key);
        pump();
    }

    /** Forgets fetches whose node acknowledged nothing for {@code idleNanos} (it went away). */
    void expire(long now, long idleNanos) {
        queue.expire(now, idleNanos).forEach(this::release);
    }

    private void release(Key key) {
        Block b = fetches.remove(key);
        if (b != null) {
            held -= b.data.length;
            node.budget().release(b.data.length);
        }
    }

    /** Bytes this part holds in the memory budget now (the blocks it serves). */
    long heldBytes() {
        return held;
    }

    /** True while a fetch is being read or served. */
    boolean active() {
        return !fetches.isEmpty();
    }

    private void pump() {
        for (ServeQueue.Send<Key> s : queue.next()) {
            Block b = fetches.get(s.key());
            byte[] part = Arrays.copyOfRange(b.data, s.offset(), s.offset() + s.length());
            node.send(s.key().peer(), new BlockData(s.key().req(), s.offset(), b.data.length, b.crc, part));
        }
    }
}
