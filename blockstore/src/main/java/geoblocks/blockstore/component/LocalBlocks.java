package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.port.BlockStorePort.ReadBlock;
import geoblocks.blockstore.port.BlockStorePort.StoreBlock;
import geoblocks.net.Bytes;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import se.sics.kompics.KompicsEvent;

/** The node's requests to its block store (the BlockStore port) and the waiters of their answers. */
final class LocalBlocks {
    private final Consumer<KompicsEvent> blockStore;
    private final LongSupplier newReq;
    private final Map<Long, Consumer<BlockStored>> storeWaiters = new HashMap<>();
    private final Map<Long, Consumer<BlockRead>> readWaiters = new HashMap<>();

    LocalBlocks(Consumer<KompicsEvent> blockStore, LongSupplier newReq) {
        this.blockStore = blockStore;
        this.newReq = newReq;
    }

    void store(BlockId id, byte[] data, int crc, Consumer<BlockStored> done) {
        long req = newReq.getAsLong();
        storeWaiters.put(req, done);
        blockStore.accept(new StoreBlock(req, id, data, crc));
    }

    /** Reads block {@code id} into a heap array ({@code into} null) or into bytes from {@code into}. */
    void read(BlockId id, Bytes.Allocator into, Consumer<BlockRead> done) {
        long req = newReq.getAsLong();
        readWaiters.put(req, done);
        blockStore.accept(new ReadBlock(req, id, into));
    }

    /** A block-store answer: runs the waiter of its request. */
    void stored(BlockStored s) {
        complete(storeWaiters, s.req(), s);
    }

    /** A block-store answer: runs the waiter of its request. */
    void read(BlockRead r) {
        complete(readWaiters, r.req(), r);
    }

    private static <T> void complete(Map<Long, Consumer<T>> waiters, long req, T answer) {
        Consumer<T> w = waiters.remove(req);
        if (w != null) {
            w.accept(answer);
        }
    }
}
