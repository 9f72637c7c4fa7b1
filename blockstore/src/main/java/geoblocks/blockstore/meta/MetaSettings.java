package geoblocks.blockstore.meta;

/**
 * How much memory the RocksDB engine may use: {@code blockCacheBytes} for cached data, index and
 * filter blocks (all of them charged to the cache, so it bounds reads' memory whatever the object
 * count), {@code writeBufferBytes} per memtable (at most two), and {@code sync}: whether a write
 * returns only after its WAL record is on disk (true for a node; false only for throwaway tests).
 */
public record MetaSettings(long blockCacheBytes, long writeBufferBytes, boolean sync) {
    /** 32 MiB of cache, 16 MiB memtables, synced writes. */
    public static final MetaSettings DEFAULTS = new MetaSettings(32L << 20, 16L << 20, true);

    public MetaSettings {
        if (blockCacheBytes < (1 << 20)) {
            throw new IllegalArgumentException("metadata block cache must be at least 1 MiB, was " + blockCacheBytes);
        }
        if (writeBufferBytes < (1 << 20)) {
            throw new IllegalArgumentException("metadata write buffer must be at least 1 MiB, was " + writeBufferBytes);
        }
    }

    /** Upper bound of the engine's memory outside the JVM heap: cache plus two memtables. */
    public long memoryBound() {
        return blockCacheBytes + 2 * writeBufferBytes;
    }
}
