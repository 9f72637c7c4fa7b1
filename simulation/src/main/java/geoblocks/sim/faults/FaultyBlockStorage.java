package geoblocks.sim.faults;

import geoblocks.blockstore.core.Block;
import geoblocks.blockstore.core.BlockFile;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.DiskFullException;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.StoredBlocks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A {@link BlockStorage} for the simulator that fails as a disk under {@code FileBlockStorage} can.
 * That store syncs a block's file and its directory before {@code put} returns, so a block put
 * survives a power cut; its deletes are never synced, so {@link #powerCut} may undo a recent one.
 * Beyond that contract, as a bad disk does: a power cut may tear a block written just before it
 * (a prefix, then zeros), and {@link #flip} flips one bit of a stored block. A damaged block stays
 * listed and counted; reading it fails its checksum ({@link CorruptBlockException}), as the file
 * store's would, until a put replaces it. While {@code full} holds for the simulated time, puts are
 * refused with {@link DiskFullException}. Blocks are kept in a {@link MemoryBlockStorage}.
 */
public final class FaultyBlockStorage implements BlockStorage {
    /** How long before a power cut a block must have been written for the cut to tear it. */
    public static final long TEAR_WINDOW_MS = 1_000;
    /** How long before a power cut a deletion must have been made for the cut to undo it. */
    public static final long UNDO_WINDOW_MS = 2_000;

    private final MemoryBlockStorage disk;
    /** Blocks whose stored bytes are no longer what was written: what a read would find. */
    private final Map<BlockId, byte[]> damaged = new TreeMap<>();
    /** When (simulated ms) each block held was last put, for tears at a power cut. */
    private final Map<BlockId, Long> putAt = new LinkedHashMap<>();
    /** Blocks deleted, with what they held and when, for deletions a power cut undoes. */
    private final Map<BlockId, Deleted> deleted = new LinkedHashMap<>();
    private final LongSupplier clockMillis;
    private final LongPredicate full;
    private final FaultTally tally;
    /** Runs before every put, get, delete and listing (a {@link Disks} lands its due flips there). */
    private Runnable beforeCall = () -> {};

    private record Deleted(Block block, byte[] damage, long atMs, long writtenMillis) {}

    /** {@code full}: whether the disk is full at a simulated ms of {@code clockMillis}. */
    public FaultyBlockStorage(LongSupplier clockMillis, LongPredicate full, FaultTally tally) {
        this.disk = new MemoryBlockStorage(clockMillis);
        this.clockMillis = clockMillis;
        this.full = full;
        this.tally = tally;
    }

    /** Runs {@code hook} before every put, get, delete and listing. */
    public synchronized void beforeEachCall(Runnable hook) {
        this.beforeCall = hook;
    }

    @Override
    public synchronized void put(BlockId id, byte[] data, int crc) throws IOException {
        beforeCall.run();
        if (full.test(clockMillis.getAsLong()) && Checksums.crc32c(data) == crc) {
            tally.add(FaultTally.DISK_FULL);
            throw new DiskFullException("injected fault: disk full, block " + id + " (" + data.length + " bytes) refused");
        }
        disk.put(id, data, crc);
        damaged.remove(id);
        deleted.remove(id);
        putAt.put(id, clockMillis.getAsLong());
    }

    @Override
    public synchronized Block get(BlockId id) throws IOException {
        beforeCall.run();
        Block b = disk.get(id);
        byte[] bad = damaged.get(id);
        if (bad != null) {
            tally.add(FaultTally.CORRUPT_READ);
            throw new CorruptBlockException(id, "data checksum " + Checksums.hex(Checksums.crc32c(bad)) + " != stored "
                    + Checksums.hex(b.crc()) + " (injected damage)");
        }
        return b;
    }

    @Override
    public synchronized boolean delete(BlockId id) throws IOException {
        beforeCall.run();
        Deleted d = before(id);
        boolean was = disk.delete(id);
        forget(id, d, was);
        return was;
    }

    @Override
    public synchronized long deleteIfUnchanged(BlockId id, long modifiedMillis) throws IOException {
        beforeCall.run();
        Deleted d = before(id);
        long bytes = disk.deleteIfUnchanged(id, modifiedMillis);
        forget(id, d, bytes >= 0);
        return bytes;
    }

    private Deleted before(BlockId id) throws IOException {
        if (!disk.contains(id)) {
            return null;
        }
        long written = disk.listShard(shardOf(id), Long.MAX_VALUE).stream().filter(f -> f.id().equals(id))
                .mapToLong(BlockFile::modifiedMillis).findFirst().orElse(0L);
        return new Deleted(disk.get(id), damaged.get(id), clockMillis.getAsLong(), written);
    }

    private void forget(BlockId id, Deleted d, boolean was) {
        if (was && d != null) {
            deleted.put(id, d);
            damaged.remove(id);
            putAt.remove(id);
        }
    }

    /** The shard MemoryBlockStorage files {@code id} under (by its hash), checked; else a search of every shard. */
    private int shardOf(BlockId id) {
        int guess = id.value().hashCode() & (disk.shards() - 1);
        if (disk.listShard(guess, Long.MAX_VALUE).stream().anyMatch(f -> f.id().equals(id))) {
            return guess;
        }
        for (int s = 0; s < disk.shards(); s++) {
            if (disk.listShard(s, Long.MAX_VALUE).stream().anyMatch(f -> f.id().equals(id))) {
                return s;
            }
        }
        throw new IllegalStateException("block " + id + " is in no shard");
    }

    @Override
    public boolean contains(BlockId id) {
        return disk.contains(id);
    }

    @Override
    public List<BlockId> list() {
        return disk.list();
    }

    @Override
    public StoredBlocks stored() {
        return disk.stored();
    }

    @Override
    public int shards() {
        return disk.shards();
    }

    @Override
    public synchronized List<BlockFile> listShard(int shard, long writtenBeforeMillis) {
        beforeCall.run();
        return disk.listShard(shard, writtenBeforeMillis);
    }

    /** True when block {@code id} is held and reads back as written. */
    public synchronized boolean intact(BlockId id) {
        return disk.contains(id) && !damaged.containsKey(id);
    }

    /** Blocks held whose stored bytes are damaged. */
    public synchronized List<BlockId> damagedBlocks() {
        return new ArrayList<>(damaged.keySet());
    }

    /** Flips bit {@code bit} (of the data, modulo its length in bits) of block {@code id}, if held and intact. */
    public synchronized boolean flip(BlockId id, long bit) throws IOException {
        if (!intact(id)) {
            return false;
        }
        byte[] d = disk.get(id).data();
        if (d.length == 0) {
            return false;
        }
        long at = Math.floorMod(bit, d.length * 8L);
        d[(int) (at / 8)] ^= (byte) (1 << (at % 8));
        damaged.put(id, d);
        tally.add(FaultTally.BIT_FLIP);
        return true;
    }

    /**
     * A power cut at {@code cutMs}: each deletion made in the {@link #UNDO_WINDOW_MS} before it is
     * undone with probability 1/2 (the block comes back as it was, damage included); each block put
     * in the {@link #TEAR_WINDOW_MS} before it for which {@code mayTear} holds is torn with
     * probability 1/2 at a random length (if that changes it).
     */
    public synchronized void powerCut(long cutMs, Random random, Predicate<BlockId> mayTear)
            throws IOException {
        for (Map.Entry<BlockId, Deleted> e : deleted.entrySet()) {
            Deleted d = e.getValue();
            if (d.atMs() > cutMs - UNDO_WINDOW_MS && d.atMs() <= cutMs && !disk.contains(e.getKey()) && random.nextBoolean()) {
                disk.put(e.getKey(), d.block().data(), d.block().crc());
                disk.setWritten(e.getKey(), d.writtenMillis());
                if (d.damage() != null) {
                    damaged.put(e.getKey(), d.damage());
                }
                tally.add(FaultTally.DELETE_UNDONE);
            }
        }
        deleted.clear();
        for (Map.Entry<BlockId, Long> e : putAt.entrySet()) {
            BlockId id = e.getKey();
            if (e.getValue() > cutMs - TEAR_WINDOW_MS && e.getValue() <= cutMs && intact(id) && mayTear.test(id)
                    && random.nextBoolean()) {
                Block b = disk.get(id);
                byte[] torn = Arrays.copyOf(b.data(), b.data().length);
                Arrays.fill(torn, random.nextInt(Math.max(1, torn.length)), torn.length, (byte) 0);
                if (Checksums.crc32c(torn) != b.crc()) {
                    damaged.put(id, torn);
                    tally.add(FaultTally.TORN_WRITE);
                }
            }
        }
        putAt.clear();
    }
}
