package geoblocks.blockstore.core;

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

    /** The space of the disk the blocks are on, for placement; {@link DiskSpace#UNKNOWN} when not measured. */
    default DiskSpace space() {
        return DiskSpace.UNKNOWN;
    }
}
