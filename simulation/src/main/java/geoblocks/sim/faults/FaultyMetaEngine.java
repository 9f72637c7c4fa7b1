package geoblocks.sim.faults;

import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaBatch;
import geoblocks.blockstore.meta.MetaEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * A {@link MetaEngine} for the simulator that fails as a disk under RocksDB does. It says its syncs
 * cost ({@link #syncs()} true), so the node defers and groups them as it does over RocksDB. A batch
 * written with {@link #writeUnsynced} is visible at once but kept apart from the durable image
 * until the next {@link #sync} (or synced {@link #write}), which makes every earlier batch durable
 * too, as one WAL sync does; {@link #powerCut} drops what was never synced, as a power cut drops a
 * WAL tail, or all but a prefix of it (what the disk wrote unasked). While {@code failing} holds for the simulated time, {@link #sync} and {@link #write}
 * throw an {@link IOException} and make nothing durable (a synced write is then not applied
 * either); unsynced writes still land in memory, as RocksDB's memtable takes them.
 */
public final class FaultyMetaEngine implements MetaEngine {
    private final MemoryMetaEngine durable = new MemoryMetaEngine();
    private MemoryMetaEngine visible = new MemoryMetaEngine();
    private final List<MetaBatch> unsynced = new ArrayList<>();
    private final LongSupplier clockMillis;
    private final LongPredicate failing;
    private final FaultTally tally;
    private final boolean syncsLie;
    /** When the syncs failing now first failed (simulated ms), or -1 while they work. */
    private long failingSince = -1;
    /** The longest a run of failed syncs lasted before one worked again (ms). */
    private long longestFailureMs;

    /** {@code failing}: whether syncs fail at a simulated ms of {@code clockMillis}. */
    public FaultyMetaEngine(LongSupplier clockMillis, LongPredicate failing, FaultTally tally) {
        this(clockMillis, failing, tally, false);
    }

    /**
     * As above; with {@code syncsLie} a sync that does not fail makes nothing durable either (a disk
     * that ignores flushes), so that a test can show the scenario's checks catch what that loses.
     */
    public FaultyMetaEngine(LongSupplier clockMillis, LongPredicate failing, FaultTally tally, boolean syncsLie) {
        this.clockMillis = clockMillis;
        this.failing = failing;
        this.tally = tally;
        this.syncsLie = syncsLie;
    }

    @Override
    public synchronized byte[] get(byte[] key) {
        return visible.get(key);
    }

    @Override
    public synchronized void write(MetaBatch batch) throws IOException {
        if (failing.test(clockMillis.getAsLong())) {
            failed();
            tally.add(FaultTally.WRITE_FAILED);
            throw new IOException("injected fault: syncing the metadata WAL failed, batch not written");
        }
        visible.write(batch);
        unsynced.add(batch);
        syncAll();
    }

    @Override
    public synchronized void writeUnsynced(MetaBatch batch) throws IOException {
        visible.write(batch);
        unsynced.add(batch);
    }

    @Override
    public synchronized void sync() throws IOException {
        if (failing.test(clockMillis.getAsLong())) {
            failed();
            tally.add(FaultTally.SYNC_FAILED);
            throw new IOException("injected fault: syncing the metadata WAL failed");
        }
        syncAll();
    }

    private void failed() {
        if (failingSince < 0) {
            failingSince = clockMillis.getAsLong();
        }
    }

    /** The longest a run of failed syncs lasted until a sync worked again (ms; a run a power cut ended is not counted). */
    public synchronized long longestFailureMs() {
        return longestFailureMs;
    }

    private void syncAll() throws IOException {
        if (failingSince >= 0) {
            longestFailureMs = Math.max(longestFailureMs, clockMillis.getAsLong() - failingSince);
            failingSince = -1;
        }
        if (syncsLie) {
            return;
        }
        for (MetaBatch b : unsynced) {
            durable.write(b);
        }
        unsynced.clear();
    }

    @Override
    public boolean syncs() {
        return true;
    }

    @Override
    public synchronized void scan(byte[] from, byte[] to, Visitor visitor) throws IOException {
        visible.scan(from, to, visitor);
    }

    @Override
    public synchronized Usage usage() {
        return visible.usage();
    }

    /** Batches written and not yet synced. */
    public synchronized int unsyncedBatches() {
        return unsynced.size();
    }

    /**
     * A power cut: what was not synced is gone, the engine holds its durable image (and is open
     * again, for the restarted node). Returns the batches dropped.
     */
    public synchronized int powerCut() throws IOException {
        return powerCut(0);
    }

    /**
     * A power cut that the first {@code kept} unsynced batches survive (the disk had written them
     * without being asked to sync: a WAL recovers such a prefix of its tail), the others are gone.
     * Returns the batches dropped.
     */
    public synchronized int powerCut(int kept) throws IOException {
        int survive = Math.min(kept, unsynced.size());
        for (MetaBatch b : unsynced.subList(0, survive)) {
            durable.write(b);
        }
        int lost = unsynced.size() - survive;
        unsynced.clear();
        failingSince = -1;
        MemoryMetaEngine fresh = new MemoryMetaEngine();
        MetaBatch all = new MetaBatch();
        durable.scan(new byte[0], null, (k, v) -> {
            all.put(k, v);
            return true;
        });
        fresh.write(all);
        visible = fresh;
        tally.add(FaultTally.UNSYNCED_META_LOST, lost);
        tally.add(FaultTally.UNSYNCED_META_KEPT, survive);
        return lost;
    }

    @Override
    public synchronized void close() {
        visible.close();
    }
}
