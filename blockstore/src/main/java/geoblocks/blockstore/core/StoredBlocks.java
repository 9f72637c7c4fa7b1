package geoblocks.blockstore.core;

/**
 * How many blocks a {@link BlockStorage} holds and their data bytes (headers not included): what this
 * node keeps on its own disk, as opposed to what the manifests place at its region. Both are >= 0.
 */
public record StoredBlocks(long blocks, long bytes) {
    public static final StoredBlocks NONE = new StoredBlocks(0, 0);

    public StoredBlocks {
        if (blocks < 0 || bytes < 0) {
            throw new IllegalArgumentException("stored blocks and bytes must be >= 0, were " + blocks + " and " + bytes);
        }
    }
}
