package geoblocks.blockstore.port;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockBytes;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.wire.Failure;
import geoblocks.net.Bytes;
import java.util.List;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * Local durable block storage: store, read and delete blocks; every answer carries the request id, and a
 * failed one its {@link Failure}, classified by the exception's type in one place ({@link Failure#ofStorage}).
 */
public final class BlockStorePort extends PortType {
    {
        request(StoreBlock.class);
        request(ReadBlock.class);
        request(DeleteBlocks.class);
        request(ListBlockFiles.class);
        request(CollectBlocks.class);
        indication(BlockStored.class);
        indication(BlockRead.class);
        request(SyncMeta.class);
        indication(MetaSynced.class);
        indication(BlockFilesListed.class);
        indication(BlocksCollected.class);
        request(CheckDisks.class);
        indication(DisksLost.class);
    }

    /** Store a block durably; answered by {@link BlockStored} once it is on disk (or failed). */
    public record StoreBlock(long req, BlockId id, byte[] data, int crc) implements KompicsEvent {}

    /**
     * A block stored ({@code failure} null) or not, typed by {@link Failure#ofStorage}: INSUFFICIENT_STORAGE
     * (no room), IO_ERROR (the disk failed the write) or INTERNAL.
     */
    public record BlockStored(long req, BlockId id, Failure failure) implements KompicsEvent {
        public boolean ok() {
            return failure == null;
        }
    }

    /**
     * Read and verify a block; answered by {@link BlockRead}: into a heap array ({@code into} null),
     * or into bytes from {@code into} (see {@code BlockStorage#read}).
     */
    public record ReadBlock(long req, BlockId id, Bytes.Allocator into) implements KompicsEvent {
        public ReadBlock(long req, BlockId id) {
            this(req, id, null);
        }
    }

    /**
     * {@code block} (a heap read) or {@code bytes} (a read with an allocator; the receiver releases
     * them), or, when the read failed, {@code failure}, typed by {@link Failure#ofStorage}: BLOCK_MISSING,
     * BLOCK_CORRUPT, IO_ERROR or INTERNAL.
     */
    public record BlockRead(long req, BlockId id, Block block, Failure failure, BlockBytes bytes) implements KompicsEvent {
        public BlockRead(long req, BlockId id, Block block, Failure failure) {
            this(req, id, block, failure, null);
        }
    }

    /** Delete blocks; best effort, no answer. */
    public record DeleteBlocks(List<BlockId> ids) implements KompicsEvent {}

    /**
     * Makes the metadata engine's writes so far durable (one WAL sync of the engine the component was given,
     * {@code BlockStoreInit#withMeta}), on the I/O executor; answered by {@link MetaSynced} {@code req}.
     */
    public record SyncMeta(long req) implements KompicsEvent {}

    /** The sync of {@link SyncMeta} {@code req} ended; {@code failure} is null when it succeeded. */
    public record MetaSynced(long req, Failure failure) implements KompicsEvent {}
    /**
     * List the blocks of shard {@code shard} (see {@code BlockStorage#listShard}) last written at or
     * before {@code writtenBeforeMillis}: the block collector's sweep, one shard at a time.
     */
    public record ListBlockFiles(long req, int shard, long writtenBeforeMillis) implements KompicsEvent {}

    /** The shard's blocks ({@code shards}: how many there are); {@code failure} non-null when listing failed. */
    public record BlockFilesListed(long req, int shard, int shards, List<BlockFile> files, Failure failure)
            implements KompicsEvent {}

    /** Delete each of {@code blocks} that is still the copy listed (its write time unchanged). */
    public record CollectBlocks(long req, List<BlockFile> blocks) implements KompicsEvent {}

    /** How many of a {@link CollectBlocks}' blocks were deleted and their data bytes; {@code failure}: the first one. */
    public record BlocksCollected(long req, long blocks, long bytes, Failure failure) implements KompicsEvent {}

    /** Check the disks the blocks are on (see {@code BlockStorage#checkDisks}), on the I/O executor. */
    public record CheckDisks() implements KompicsEvent {}

    /** Disks that failed since the last report, each as "DIR: why": their blocks are missing here now. */
    public record DisksLost(List<String> disks) implements KompicsEvent {}
}
