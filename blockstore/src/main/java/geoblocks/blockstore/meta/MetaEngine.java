package geoblocks.blockstore.meta;

import java.io.Closeable;
import java.io.IOException;

/**
 * A node's embedded metadata engine: an ordered map of byte keys to byte values with atomic,
 * durable batches. Keys sort as unsigned bytes. Two implementations: {@link RocksMetaEngine} (a
 * RocksDB directory: what a node runs on) and {@link MemoryMetaEngine} (a sorted map: tests and
 * the simulator). Callers never see which.
 *
 * <p>Contract: {@link #write} applies every operation of a batch or none, and returns only once the
 * batch is durable (its WAL record synced; concurrent writers share one sync). {@link #scan} visits
 * each key at most once, in order (RocksDB's scan reads a snapshot taken when it starts). Not closed while a call is in flight.
 */
public interface MetaEngine extends Closeable {

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key) throws IOException;

    /** Applies {@code batch} atomically and durably; an empty batch is a no-op. */
    void write(MetaBatch batch) throws IOException;

    /**
     * Applies {@code batch} atomically and visibly, but durably only after the next {@link #sync}
     * (it survives the process being killed, not the machine losing power). Engines whose writes
     * cost no sync ({@link #syncs()} false) make it a plain {@link #write}.
     */
    default void writeUnsynced(MetaBatch batch) throws IOException {
        write(batch);
    }

    /** Makes every write made so far durable: one sync covers all of them (group commit). */
    default void sync() throws IOException {}

    /** True when a write's durability costs a sync worth sharing (RocksDB); false for memory. */
    default boolean syncs() {
        return false;
    }

    /**
     * Visits the entries with {@code from <= key < to} ({@code to == null}: to the end) in key order,
     * until the visitor returns false.
     */
    void scan(byte[] from, byte[] to, Visitor visitor) throws IOException;

    /** What the engine holds on disk and in memory, for status and metrics (zeros where unknown). */
    Usage usage();

    /** Sees one entry of a scan; returns false to stop. The arrays are the caller's to keep. */
    @FunctionalInterface
    interface Visitor {
        boolean visit(byte[] key, byte[] value) throws IOException;
    }

    /** Sizes: live data files on disk, memtables, block cache in use and its capacity. */
    record Usage(long diskBytes, long memtableBytes, long cacheBytes, long cacheCapacity) {
        public static final Usage NONE = new Usage(0, 0, 0, 0);
    }
}
