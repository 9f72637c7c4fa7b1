package geoblocks.app.bench;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.FileBlockStorage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A node's block store as a bench target: its own disk ({@link FileBlockStorage}: a write is
 * {@code put}, CRC32C, temp file, fsync, rename, directory fsync) or an S3-backed region's bucket
 * ({@code s3}: a PUT with the CRC32C in its metadata); a read is {@code get} (CRC32C checked). A slot
 * is a block; rewriting a slot replaces its block, as a node overwrites a replica.
 */
final class BlockStoreTarget implements StorageTarget {
    private final BlockStorage store;
    private final String name;
    private final String prefix;

    BlockStoreTarget(Path dir, String prefix) throws IOException {
        this(new FileBlockStorage(dir, 0), "blockstore", prefix);
    }

    BlockStoreTarget(BlockStorage store, String name, String prefix) {
        this.store = store;
        this.name = name;
        this.prefix = prefix;
    }

    @Override
    public String name() {
        return name;
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
        if (store instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IOException(e.getMessage(), e);
            }
        }
    }
}
