package geoblocks.blockstore.meta;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * {@link MetaEngine} on RocksDB in one directory. Writes go through RocksDB's WAL with
 * {@code sync} (concurrent writers are group-committed: one fsync for all of them); data, index
 * and filter blocks are charged to one LRU cache of {@link MetaSettings#blockCacheBytes}; memtables
 * are {@link MetaSettings#writeBufferBytes} each, at most two. Statistics dumps are off, so an idle
 * engine does no work. RocksDB checks block checksums on every read; a corrupt file fails the read
 * with an {@link IOException} naming the directory.
 */
public final class RocksMetaEngine implements MetaEngine {
    static {
        RocksDB.loadLibrary();
    }

    private final Path dir;
    private final LRUCache cache;
    private final Options options;
    private final WriteOptions writeOptions;
    private final WriteOptions unsynced = new WriteOptions().setSync(false);
    private final RocksDB db;
    private final long cacheCapacity;
    private volatile boolean closed;

    private RocksMetaEngine(Path dir, LRUCache cache, Options options, WriteOptions writeOptions, RocksDB db, long cacheCapacity) {
        this.dir = dir;
        this.cacheCapacity = cacheCapacity;
        this.cache = cache;
        this.options = options;
        this.writeOptions = writeOptions;
        this.db = db;
    }

    /** Opens (creating when absent) the engine in {@code dir}. */
    public static RocksMetaEngine open(Path dir, MetaSettings settings) throws IOException {
        Files.createDirectories(dir);
        LRUCache cache = new LRUCache(settings.blockCacheBytes());
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                .setFilterPolicy(new BloomFilter(10, false))
                .setBlockSize(16 * 1024);
        Options options = new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(table)
                .setWriteBufferSize(settings.writeBufferBytes())
                .setMaxWriteBufferNumber(2)
                .setMaxBackgroundJobs(2)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setMaxOpenFiles(512)
                .setKeepLogFileNum(2)
                .setMaxLogFileSize(4L << 20)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                .setStatsDumpPeriodSec(0)
                .setStatsPersistPeriodSec(0)
                .setParanoidChecks(true);
        WriteOptions writeOptions = new WriteOptions().setSync(settings.sync());
        try {
            RocksDB db = RocksDB.open(options, dir.toString());
            return new RocksMetaEngine(dir, cache, options, writeOptions, db, settings.blockCacheBytes());
        } catch (RocksDBException e) {
            writeOptions.close();
            options.close();
            cache.close();
            throw new IOException("cannot open the metadata engine in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens the engine of a running node in {@code dir} as a read-only follower (tools and tests
     * that look into a live node's data directory); {@code scratch} holds the follower's own logs.
     * It sees what the node wrote up to the moment it opened.
     */
    public static RocksMetaEngine openSecondary(Path dir, Path scratch) throws IOException {
        Files.createDirectories(scratch);
        LRUCache cache = new LRUCache(8L << 20);
        Options options = new Options().setMaxOpenFiles(-1).setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
        WriteOptions writeOptions = new WriteOptions();
        try {
            RocksDB db = RocksDB.openAsSecondary(options, dir.toString(), scratch.toString());
            return new RocksMetaEngine(dir, cache, options, writeOptions, db, 8L << 20);
        } catch (RocksDBException e) {
            writeOptions.close();
            options.close();
            cache.close();
            throw new IOException("cannot open the metadata engine in " + dir + " to read: " + e.getMessage(), e);
        }
    }

    /** RocksDB crashes the JVM on a closed handle: refuse instead. */
    private void open() throws IOException {
        if (closed) {
            throw new IOException("metadata engine in " + dir + " is closed");
        }
    }

    @Override
    public byte[] get(byte[] key) throws IOException {
        open();
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw failure("read", e);
        }
    }

    @Override
    public void write(MetaBatch batch) throws IOException {
        if (batch.isEmpty()) {
            return;
        }
        open();
        try (WriteBatch wb = toRocks(batch)) {
            db.write(writeOptions, wb);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    @Override
    public void writeUnsynced(MetaBatch batch) throws IOException {
        if (batch.isEmpty()) {
            return;
        }
        open();
        try (WriteBatch wb = toRocks(batch)) {
            db.write(unsynced, wb);
        } catch (RocksDBException e) {
            throw failure("write", e);
        }
    }

    @Override
    public void sync() throws IOException {
        open();
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw failure("WAL sync", e);
        }
    }

    @Override
    public boolean syncs() {
        return true;
    }

    private static WriteBatch toRocks(MetaBatch batch) throws RocksDBException {
        WriteBatch wb = new WriteBatch();
        for (MetaBatch.Op op : batch.ops()) {
            if (op.value() == null) {
                wb.delete(op.key());
            } else {
                wb.put(op.key(), op.value());
            }
        }
        return wb;
    }

    @Override
    public void scan(byte[] from, byte[] to, Visitor visitor) throws IOException {
        open();
        try (Slice upper = to == null ? null : new Slice(to);
                ReadOptions ro = new ReadOptions().setFillCache(true)) {
            if (upper != null) {
                ro.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(ro)) {
                for (it.seek(from); it.isValid(); it.next()) {
                    if (!visitor.visit(it.key(), it.value())) {
                        return;
                    }
                }
                it.status();
            }
        } catch (RocksDBException e) {
            throw failure("scan", e);
        }
    }

    @Override
    public Usage usage() {
        if (closed) {
            return Usage.NONE;
        }
        try {
            return new Usage(db.getLongProperty("rocksdb.live-sst-files-size"),
                    db.getLongProperty("rocksdb.cur-size-all-mem-tables"), cache.getUsage(), cacheCapacity);
        } catch (RocksDBException e) {
            return Usage.NONE;
        }
    }

    /** Flushes memtables to files (tests and tools; a node never needs it: the WAL is durable). */
    public void flush() throws IOException {
        try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f);
        } catch (RocksDBException e) {
            throw failure("flush", e);
        }
    }

    private IOException failure(String what, RocksDBException e) {
        return new IOException("metadata engine in " + dir + ": " + what + " failed: " + e.getMessage(), e);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        db.close();
        writeOptions.close();
        unsynced.close();
        options.close();
        cache.close();
    }
}
