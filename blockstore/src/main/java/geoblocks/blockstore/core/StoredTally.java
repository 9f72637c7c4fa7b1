package geoblocks.blockstore.core;

/**
 * The running count behind {@link BlockStorage#stored()}: started from a scan when a store opens, then
 * moved by each write (a new block, or a replaced one whose old size is known) and each delete, so
 * that reading it never touches the disk. Thread-safe; the caller serialises the disk change and its
 * call here per block, so that two writers of one block cannot both count it as new. A file
 * changed behind the store's back (a damaged disk, a test) can make the bytes drift from the disk
 * until the next open; the totals never go below zero.
 */
final class StoredTally {
    private long blocks;
    private long bytes;

    StoredTally(StoredBlocks start) {
        this.blocks = start.blocks();
        this.bytes = start.bytes();
    }

    /** A block of {@code bytes} was written; it replaced one of {@code previousBytes}, or none when that is negative. */
    synchronized void wrote(long previousBytes, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a written block has >= 0 bytes, was " + bytes);
        }
        if (previousBytes < 0) {
            blocks++;
        } else {
            this.bytes = Math.max(0, this.bytes - previousBytes);
        }
        this.bytes += bytes;
    }

    /** A block of {@code bytes} was deleted. */
    synchronized void deleted(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a deleted block had >= 0 bytes, was " + bytes);
        }
        blocks = Math.max(0, blocks - 1);
        this.bytes = Math.max(0, this.bytes - bytes);
    }

    synchronized StoredBlocks totals() {
        return new StoredBlocks(blocks, bytes);
    }
}
