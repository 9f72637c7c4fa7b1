package geoblocks.blockstore.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * In-memory {@link BlockStorage} for the simulator and tests; same contract, no durability. By
 * default unlimited (its {@link #space()} is unknown); with a capacity it behaves like a disk of
 * that size: a write that would leave less than the reserve free is refused as "disk full", as
 * {@link FileBlockStorage} does, and {@link #space()} reports what is used.
 */
public final class MemoryBlockStorage implements BlockStorage {
    /** Shards of {@link #listShard}: by the id's hash, as {@link FileBlockStorage} fans out. */
    static final int SHARDS = 16;
    private final ConcurrentHashMap<BlockId, Block> blocks = new ConcurrentHashMap<>();
    /** When each block was last written (epoch ms of {@link #clockMillis}), changed with it under the lock. */
    private final ConcurrentHashMap<BlockId, Long> written = new ConcurrentHashMap<>();
    private final long capacityBytes;
    private final long reserveBytes;
    private final LongSupplier clockMillis;
    /** Data bytes held; updated under the lock so that replacing a block counts once. */
    private long usedBytes;

    /**
     * Unlimited storage whose blocks are stamped with {@code clockMillis} when written (tests move it;
     * a simulated node passes a lambda calling System.currentTimeMillis, which the simulator's
     * instrumentation turns into simulated time, as it does not a method reference).
     */
    public MemoryBlockStorage(LongSupplier clockMillis) {
        this.capacityBytes = 0;
        this.reserveBytes = 0;
        this.clockMillis = clockMillis;
    }

    /** Storage of {@code capacityBytes} that refuses a write leaving less than {@code reserveBytes} free. */
    public MemoryBlockStorage(long capacityBytes, long reserveBytes, LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
        if (capacityBytes <= 0 || reserveBytes < 0 || reserveBytes >= capacityBytes) {
            throw new IllegalArgumentException("capacity must be > 0 and reserve in 0..capacity, were " + capacityBytes
                    + " and " + reserveBytes + " bytes");
        }
        this.capacityBytes = capacityBytes;
        this.reserveBytes = reserveBytes;
    }

    @Override
    public void put(BlockId id, byte[] data, int crc) throws IOException {
        int actual = Checksums.crc32c(data);
        if (actual != crc) {
            throw new CorruptBlockException(id, "checksum " + Checksums.hex(actual) + " != expected " + Checksums.hex(crc));
        }
        synchronized (this) {
            Block old = blocks.get(id);
            long after = usedBytes - (old == null ? 0 : old.data().length) + data.length;
            if (capacityBytes > 0 && capacityBytes - after < reserveBytes) {
                throw new DiskFullException("disk full: " + ((capacityBytes - usedBytes) >> 20) + " MiB free, block " + id
                        + " needs " + data.length + " bytes and " + (reserveBytes >> 20) + " MiB must stay free");
            }
            blocks.put(id, new Block(data.clone(), crc));
            written.put(id, clockMillis.getAsLong());
            usedBytes = after;
        }
    }

    @Override
    public Block get(BlockId id) throws NoSuchBlockException, CorruptBlockException {
        Block b = blocks.get(id);
        if (b == null) {
            throw new NoSuchBlockException(id);
        }
        if (Checksums.crc32c(b.data()) != b.crc()) {
            throw new CorruptBlockException(id, "checksum mismatch in memory");
        }
        return new Block(b.data().clone(), b.crc());
    }

    @Override
    public synchronized boolean delete(BlockId id) {
        Block old = blocks.remove(id);
        written.remove(id);
        if (old != null) {
            usedBytes -= old.data().length;
        }
        return old != null;
    }

    @Override
    public int shards() {
        return SHARDS;
    }

    @Override
    public synchronized List<BlockFile> listShard(int shard, long writtenBeforeMillis) {
        if (shard < 0 || shard >= SHARDS) {
            throw new IllegalArgumentException("shard must be in 0.." + (SHARDS - 1) + ", was " + shard);
        }
        List<BlockFile> out = new ArrayList<>();
        blocks.forEach((id, b) -> {
            long at = written.getOrDefault(id, 0L);
            if ((id.value().hashCode() & (SHARDS - 1)) == shard && at <= writtenBeforeMillis) {
                out.add(new BlockFile(id, b.data().length, at));
            }
        });
        out.sort(Comparator.comparing(BlockFile::id)); // deterministic in the simulator
        return out;
    }

    @Override
    public synchronized long deleteIfUnchanged(BlockId id, long modifiedMillis) {
        Long at = written.get(id);
        if (at == null || at != modifiedMillis) {
            return -1;
        }
        long bytes = blocks.get(id).data().length;
        delete(id);
        return bytes;
    }

    /** Test hook: sets when block {@code id} was last written, as an old file on disk would say. */
    public synchronized void setWritten(BlockId id, long millis) {
        if (blocks.containsKey(id)) {
            written.put(id, millis);
        }
    }

    @Override
    public boolean contains(BlockId id) {
        return blocks.containsKey(id);
    }

    @Override
    public List<BlockId> list() {
        List<BlockId> ids = new ArrayList<>(blocks.keySet());
        ids.sort(null);
        return ids;
    }

    @Override
    public synchronized DiskSpace space() {
        return capacityBytes == 0 ? DiskSpace.UNKNOWN
                : new DiskSpace(capacityBytes, Math.max(0, capacityBytes - usedBytes), reserveBytes);
    }

    @Override
    public synchronized StoredBlocks stored() {
        return new StoredBlocks(blocks.size(), usedBytes);
    }

    /** Data bytes held. */
    public synchronized long usedBytes() {
        return usedBytes;
    }

    /** Test hook: flips one bit of a stored block, as a bad disk would. */
    public void corrupt(BlockId id) {
        blocks.computeIfPresent(id, (k, b) -> {
            byte[] d = b.data().clone();
            d[0] ^= 1;
            return new Block(d, b.crc());
        });
    }
}
