package geoblocks.blockstore.core;

import geoblocks.net.Bytes;
import java.io.IOException;
import java.util.List;

/**
 * Durable local storage of checksummed blocks. Contract, for every implementation: {@link #put}
 * verifies the checksum first and returns only once the block is durable; {@link #get} verifies
 * the checksum on every read and never returns corrupt or partial data; a block is replaced
 * atomically (readers see the old or the new copy, never a mix).
 */
public interface BlockStorage {

    /** Stores {@code data}, whose CRC32C must be {@code crc}; durable when this returns. */
    void put(BlockId id, byte[] data, int crc) throws IOException;

    /** Reads and verifies a block; {@link NoSuchBlockException} or {@link CorruptBlockException}. */
    Block get(BlockId id) throws IOException;

    /**
     * As {@link #get}, into bytes from {@code into} (a pooled direct buffer, say, that the network
     * sends without copying); the caller owns, and releases, the bytes returned. Nothing is held
     * when it throws. The default reads {@link #get}'s array.
     */
    default BlockBytes read(BlockId id, Bytes.Allocator into) throws IOException {
        Block b = get(id);
        return new BlockBytes(Bytes.wrap(b.data()), b.crc());
    }

    /** Deletes a block; false if it was not there. */
    boolean delete(BlockId id) throws IOException;

    boolean contains(BlockId id);

    /** Every block id held, sorted. */
    List<BlockId> list() throws IOException;

    /**
     * The blocks held and their data bytes, as counted on each put and delete (and, for a store on
     * disk, once when it opened): cheap to call, never walks the storage.
     */
    StoredBlocks stored();

    /**
     * How many shards {@link #listShard} splits the blocks into (at least 1; a store on disk: its
     * fan-out directories), so that a sweep over every block can go one shard at a time.
     */
    default int shards() {
        return 1;
    }

    /**
     * The blocks of shard {@code shard} (0 ≤ shard &lt; {@link #shards()}) last written at or before
     * {@code writtenBeforeMillis}, with their sizes and times, in no particular order. Blocks written
     * or deleted while it runs may or may not be listed.
     */
    List<BlockFile> listShard(int shard, long writtenBeforeMillis) throws IOException;

    /**
     * Deletes block {@code id} only if it is still the copy listed: its last write was at
     * {@code modifiedMillis} (a copy written since is kept). Atomic with respect to {@link #put} of the
     * same block. Returns the data bytes deleted, or -1 when nothing was deleted.
     */
    long deleteIfUnchanged(BlockId id, long modifiedMillis) throws IOException;

    /** The space of the disk the blocks are on, for placement; {@link DiskSpace#UNKNOWN} when not measured. */
    default DiskSpace space() {
        return DiskSpace.UNKNOWN;
    }

    /**
     * Checks the disks the blocks are on and returns those that failed since the last call, each as
     * "DIR: why" (a failed disk's blocks are missing here from then on, to be repaired from peers).
     * The node calls it every few seconds on its I/O threads. A store on one disk, or in memory: none.
     */
    default List<String> checkDisks() {
        return List.of();
    }
}
