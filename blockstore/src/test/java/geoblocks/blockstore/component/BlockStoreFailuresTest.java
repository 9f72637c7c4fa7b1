package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.DiskFullException;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.StoredBlocks;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FailureException;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp;
import geoblocks.net.Bytes;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The block store's answers keep the kind of a failure ({@link Failure#ofStorage}, which the
 * BlockStoreComponent answers with): no room is INSUFFICIENT_STORAGE (S3 507, exit 13), a block the store
 * does not hold BLOCK_MISSING, a block that fails its checksum BLOCK_CORRUPT, another I/O error IO_ERROR,
 * and anything else (a bug) INTERNAL.
 */
class BlockStoreFailuresTest {
    private static final BlockId ID = BlockId.ofFileBlock("f", 0);

    @Test
    void storageExceptions_areClassifiedByTheirType() throws Exception {
        MemoryBlockStorage small = new MemoryBlockStorage(1024, 0, System::currentTimeMillis);
        IOException full = assertThrows(IOException.class, () -> small.put(ID, new byte[4096], Checksums.crc32c(new byte[4096])));
        assertEquals(DiskFullException.class, full.getClass(), full.toString());
        assertEquals(FailureCode.INSUFFICIENT_STORAGE, Failure.ofStorage(full).code());

        MemoryBlockStorage store = new MemoryBlockStorage(System::currentTimeMillis);
        IOException missing = assertThrows(IOException.class, () -> store.get(ID));
        assertEquals(FailureCode.BLOCK_MISSING, Failure.ofStorage(missing).code());

        byte[] data = {1, 2, 3};
        store.put(ID, data, Checksums.crc32c(data));
        store.corrupt(ID);
        IOException corrupt = assertThrows(IOException.class, () -> store.get(ID));
        assertEquals(FailureCode.BLOCK_CORRUPT, Failure.ofStorage(corrupt).code());

        assertEquals(FailureCode.IO_ERROR, Failure.ofStorage(new IOException("EIO")).code());
        assertEquals(FailureCode.INTERNAL, Failure.ofStorage(new IllegalStateException("bug")).code());
        assertEquals(FailureCode.BUSY, Failure.ofStorage(new FailureException(FailureCode.BUSY, "full")).code());
        assertEquals("EIO", Failure.ofStorage(new IOException("EIO")).text());
        assertEquals("java.lang.IllegalStateException", Failure.ofStorage(new IllegalStateException()).text());
    }

    /** Through the node's store calls (as the component answers them): four failures, four codes. */
    @Test
    void storeAndRead_fullMissingCorruptAndIoError_eachReachTheirOwnCode() throws Exception {
        FakeNode node = new FakeNode();
        List<FailureCode> codes = new ArrayList<>();

        node.disk = new MemoryBlockStorage(1024, 0, System::currentTimeMillis);
        List<BlockStored> stored = new ArrayList<>();
        node.storeLocal(ID, new byte[4096], Checksums.crc32c(new byte[4096]), stored::add);
        assertTrue(!stored.get(0).ok());
        codes.add(stored.get(0).failure().code());

        MemoryBlockStorage store = new MemoryBlockStorage(System::currentTimeMillis);
        node.disk = store;
        List<BlockRead> reads = new ArrayList<>();
        node.readLocal(ID, reads::add);
        codes.add(reads.get(0).failure().code());

        byte[] data = {1, 2, 3};
        store.put(ID, data, Checksums.crc32c(data));
        store.corrupt(ID);
        node.readLocal(ID, Bytes.Allocator.HEAP, reads::add);
        codes.add(reads.get(1).failure().code());

        node.disk = new FailingStorage(store);
        node.readLocal(ID, reads::add);
        codes.add(reads.get(2).failure().code());

        assertEquals(List.of(FailureCode.INSUFFICIENT_STORAGE, FailureCode.BLOCK_MISSING, FailureCode.BLOCK_CORRUPT,
                FailureCode.IO_ERROR), codes);
        Set<FailureCode> distinct = new HashSet<>(codes);
        assertEquals(4, distinct.size());
    }

    /** A replica asked for a block it cannot serve answers with its store's code (it was INTERNAL for every reason). */
    @Test
    void blockFetches_answerAFetchWithTheStoresCode() throws Exception {
        FakeNode node = new FakeNode();
        MemoryBlockStorage store = new MemoryBlockStorage(System::currentTimeMillis);
        node.disk = store;
        NetAddress peer = NetAddress.of("127.0.0.1", 7001);
        BlockFetches server = new BlockFetches(node);
        server.onFetch(peer, new PeerOp.FetchBlock(1, ID.value()));
        byte[] data = {1, 2, 3};
        store.put(ID, data, Checksums.crc32c(data));
        store.corrupt(ID);
        server.onFetch(peer, new PeerOp.FetchBlock(2, ID.value()));
        node.disk = new FailingStorage(store);
        server.onFetch(peer, new PeerOp.FetchBlock(3, ID.value()));
        List<FailureCode> codes = new ArrayList<>();
        for (Object[] sent : node.sent) {
            codes.add(((FileOp.Failed) sent[1]).code());
        }
        assertEquals(List.of(FailureCode.BLOCK_MISSING, FailureCode.BLOCK_CORRUPT, FailureCode.IO_ERROR), codes);
    }

    /** A store whose disk fails every read with an I/O error. */
    private static final class FailingStorage implements BlockStorage {
        private final BlockStorage inner;

        FailingStorage(BlockStorage inner) {
            this.inner = inner;
        }

        @Override public void put(BlockId id, byte[] data, int crc) throws IOException { throw new IOException("EIO"); }
        @Override public Block get(BlockId id) throws IOException { throw new IOException("EIO"); }
        @Override public boolean delete(BlockId id) throws IOException { return inner.delete(id); }
        @Override public boolean contains(BlockId id) { return inner.contains(id); }
        @Override public List<BlockId> list() throws IOException { return inner.list(); }
        @Override public StoredBlocks stored() { return inner.stored(); }
        @Override public List<BlockFile> listShard(int shard, long before) throws IOException {
            return inner.listShard(shard, before);
        }
        @Override public long deleteIfUnchanged(BlockId id, long modifiedMillis) throws IOException {
            return inner.deleteIfUnchanged(id, modifiedMillis);
        }
    }
}
