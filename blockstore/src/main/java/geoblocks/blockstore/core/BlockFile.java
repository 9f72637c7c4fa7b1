package geoblocks.blockstore.core;

import java.util.Objects;

/**
 * One block as a {@link BlockStorage} holds it, for the block collector: its id, its data bytes and
 * when it was last written (epoch ms: a file's modification time, or when a memory store stored it).
 * A block written again gets a new time, which is how {@link BlockStorage#deleteIfUnchanged} tells
 * a copy that arrived after the listing from the one listed.
 */
public record BlockFile(BlockId id, long bytes, long modifiedMillis) {
    public BlockFile {
        Objects.requireNonNull(id, "id");
        if (bytes < 0) {
            throw new IllegalArgumentException("a block has >= 0 bytes, was " + bytes + " for " + id);
        }
    }
}
