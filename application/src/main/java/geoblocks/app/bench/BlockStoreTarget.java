package geoblocks.app.bench;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.FileBlockStorage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The node's own block store ({@link FileBlockStorage}) as a bench target: a slot is a block; a
 * write is {@code put} (CRC32C, temp file, fsync, rename, directory fsync), a read is {@code get}
 * (header and CRC32C checked). Rewriting a slot replaces its block, as a node overwrites a replica.
 */
final class BlockStoreTarget implements StorageTarget {
    private final FileBlockStorage store;
    private final String prefix;

    BlockStoreTarget(Path dir, String prefix) throws IOException {
        this.store = new FileBlockStorage(dir, 0);
        this.prefix = prefix;
    }

    @Override
    public String name() {
        return "blockstore";
    }

    private BlockId id(int stream, long slot) {
        return BlockId.of(prefix + "-" + stream + "-" + slot);
    }

    @Override
    public void write(int stream, long slot, byte[] data) throws IOException {
        store.put(id(stream, slot), data, Checksums.crc32c(data));
    }

    @Override
    public int read(int stream, long slot) throws IOException {
        return store.get(id(stream, slot)).data().length;
    }

    @Override
    public void close() throws IOException {
        for (BlockId id : store.list()) {
            if (id.value().startsWith(prefix + "-")) {
                store.delete(id);
            }
        }
    }
}
