package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.WriteCondition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Every change to this node's manifests goes through here: new versions stamped with the node's
 * {@link HybridClock} (uploads, deletes, and create-if-absent claims this node decides as the
 * name's owner), versions merged from peers (publications, lookups, anti-entropy; their clocks are
 * observed, so a later local version orders after them), and the retention, which drops old
 * versions and deletes this node's replicas of their blocks. Whenever this node stores a tombstone
 * as a name's head it records its own acknowledgement in the same durable write
 * ({@link ManifestHistory#acknowledgedBy}); a lone tombstone is dropped, and the name forgotten,
 * when {@link TombstoneCollector} says so. The store itself is pure data.
 *
 * <p>Thread-safe under the store's lock ({@link ManifestStore}): each change here (stamp, merge, claim,
 * delete, purge, sweep) holds the store's monitor from its first read to its last write, so a prune
 * never replaces a history another thread merged into since it read it, and the hybrid clock has one
 * owner. The block deletions the retention decides run after the lock is released, in the order they
 * were decided, one call per pruned name; nothing else runs under it.
 */
final class Versions {
    private static final int SWEEP_NAMES = 100;

    private final ManifestStore store;
    private final String region;
    private final LongSupplier wallMillis;
    private final HybridClock clock;
    private final long versionRetentionMs;
    private TombstoneCollector tombstones;
    private final Consumer<List<BlockId>> deleteLocal;
    private String sweepCursor = "";
    /** The block deletions decided under the lock, each name's apart, run once it is released. */
    private final List<List<BlockId>> toDelete = new ArrayList<>();
    /** Versions the retention dropped, since start (written under the lock). */
    volatile long dropped;
    /** Lone tombstones dropped since start: every region acknowledged them / the tombstone retention expired. */
    volatile long tombstonesAcknowledged;
    volatile long tombstonesExpired;

    Versions(ManifestStore store, String region, LongSupplier wallMillis, long versionRetentionMs,
            TombstoneCollector tombstones, Consumer<List<BlockId>> deleteLocal) {
        this.store = store;
        this.region = region;
        this.wallMillis = wallMillis;
        this.clock = new HybridClock(wallMillis);
        this.clock.observe(store.maxClock()); // a restarted node stamps above everything it stored
        this.versionRetentionMs = versionRetentionMs;
        this.tombstones = tombstones;
        this.deleteLocal = deleteLocal;
    }

    /** From now on lone tombstones wait for the acknowledgements {@code collector} asks for (the cluster's members changed). */
    void tombstones(TombstoneCollector collector) {
        synchronized (store) {
            this.tombstones = collector;
        }
    }

    /** A change under the store's lock, which may throw what the store throws. */
    private interface Change<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code change} under the store's lock, then the block deletions it decided (also when it
     * failed after deciding some: their histories are replaced already).
     */
    private <T> T locked(Change<T> change) throws IOException {
        List<List<BlockId>> deletions = List.of();
        try {
            synchronized (store) {
                try {
                    return change.run();
                } finally {
                    deletions = List.copyOf(toDelete);
                    toDelete.clear();
                }
            }
        } finally {
            deletions.forEach(deleteLocal);
        }
    }

    /** Stamps {@code draft} as this node's newest version of its name and stores it durably. */
    Manifest commit(Manifest draft) throws IOException {
        return locked(() -> stamp(draft));
    }

    private Manifest stamp(Manifest draft) throws IOException {
        Manifest m = draft.withVersion(new Version(clock.now(), region));
        store.save(m);
        return m;
    }

    /** Stores a tombstone that deletes {@code name} as its newest version here; returns it. */
    Manifest delete(String name) throws IOException {
        return delete(name, Map.of());
    }

    /** As {@link #delete(String)}, the tombstone carrying {@code meta}. */
    Manifest delete(String name, Map<String, String> meta) throws IOException {
        return locked(() -> tombstone(name, meta));
    }

    private Manifest tombstone(String name, Map<String, String> meta) throws IOException {
        Version v = new Version(clock.now(), region);
        Manifest t = Manifest.tombstone(name, "t" + Long.toHexString(v.clock()), region, wallMillis.getAsLong(), v)
                .withMeta(meta);
        store.merge(ManifestHistory.of(t).acknowledgedBy(region));
        return t;
    }

    /**
     * Purges version {@code v} of {@code name} here: replaces it by its stub ({@link Manifest#purgedAt}),
     * which every copy of the version that meets it yields to, so the version is gone from every
     * region once the stub spread (publication, anti-entropy). Its blocks are no longer referenced and
     * the block collector removes them (never those another kept version names). Returns the stub
     * kept, or empty when this node keeps no such version.
     */
    Optional<Manifest> purge(String name, Version v) throws IOException {
        return locked(() -> purgeNow(name, v));
    }

    private Optional<Manifest> purgeNow(String name, Version v) throws IOException {
        Optional<Manifest> m = store.history(name).flatMap(h -> h.find(v));
        if (m.isEmpty()) {
            return Optional.empty();
        }
        if (!m.get().purged()) {
            mergeNow(ManifestHistory.of(m.get().purgedAt(wallMillis.getAsLong())));
        }
        return store.history(name).flatMap(h -> h.find(v)).or(() -> Optional.of(m.get().purgedAt(wallMillis.getAsLong())));
    }

    /** The owner's decision on a conditional write: the version it stored, or why it refused (never both). */
    record Claim(Manifest stored, WriteCondition.Outcome outcome) {}

    /**
     * The owner's decision on a conditional write (a create if absent, a compare-and-swap put or
     * delete): when the name's live version here meets {@code condition}, stamps {@code draft} (a
     * tombstone for a delete) above every version of the name this node knows and stores it before
     * answering; else the outcome that refused it. The caller checks first that this node may decide
     * ({@link Node#notReadyToDecideCreates}).
     */
    Claim claim(Manifest draft, WriteCondition condition) throws IOException {
        return locked(() -> decide(draft, condition));
    }

    private Claim decide(Manifest draft, WriteCondition condition) throws IOException {
        WriteCondition.Outcome o = condition.check(store.find(draft.name()).orElse(null));
        if (o != WriteCondition.Outcome.PASSED) {
            return new Claim(null, o);
        }
        if (draft.deleted()) {
            Manifest t = draft.withVersion(new Version(clock.now(), region));
            store.merge(ManifestHistory.of(t).acknowledgedBy(region));
            return new Claim(t, o);
        }
        return new Claim(stamp(draft), o);
    }

    /** Merges versions from a peer and applies the retention to the name; returns what is kept. */
    Optional<ManifestHistory> merge(ManifestHistory incoming) throws IOException {
        return locked(() -> mergeNow(incoming));
    }

    private Optional<ManifestHistory> mergeNow(ManifestHistory incoming) throws IOException {
        for (Manifest m : incoming.versions()) {
            clock.observe(m.version().clock());
        }
        long now = wallMillis.getAsLong();
        if (store.history(incoming.name()).isEmpty()
                && tombstones.forgottenHere(incoming.prune(now, versionRetentionMs, tombstones.tombstoneRetentionMs()).kept(), now)) {
            return Optional.empty(); // a copy still travelling of a tombstone this node already forgot
        }
        return prune(store.merge(incoming.acknowledgedBy(region)));
    }

    /**
     * As {@link #merge} for many histories (anti-entropy's pulls), stored in one durable batch
     * ({@link ManifestStore#mergeAll}); then the retention is applied to each name. Returns how
     * many names changed.
     */
    int mergeAll(List<ManifestHistory> incoming) throws IOException {
        return locked(() -> mergeAllNow(incoming));
    }

    private int mergeAllNow(List<ManifestHistory> incoming) throws IOException {
        long now = wallMillis.getAsLong();
        List<ManifestHistory> kept = new ArrayList<>(incoming.size());
        for (ManifestHistory h : incoming) {
            for (Manifest m : h.versions()) {
                clock.observe(m.version().clock());
            }
            if (store.history(h.name()).isEmpty()
                    && tombstones.forgottenHere(h.prune(now, versionRetentionMs, tombstones.tombstoneRetentionMs()).kept(), now)) {
                continue; // a copy still travelling of a tombstone this node already forgot
            }
            kept.add(h.acknowledgedBy(region));
        }
        int changed = store.mergeAll(kept);
        for (ManifestHistory h : kept) {
            Optional<ManifestHistory> stored = store.history(h.name());
            if (stored.isPresent()) {
                prune(stored.get());
            }
        }
        return changed;
    }

    /** Applies the retention to a page of names (called periodically; a full pass over the store takes several calls). */
    void sweep() {
        try {
            locked(() -> {
                sweepNow();
                return null;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e); // sweepNow catches each name's failure itself
        }
    }

    private void sweepNow() {
        List<ManifestHistory> page = store.histories(sweepCursor, SWEEP_NAMES);
        sweepCursor = page.size() < SWEEP_NAMES ? "" : page.get(page.size() - 1).name();
        for (ManifestHistory h : page) {
            try {
                prune(h);
            } catch (IOException e) {
                Logs.warn(region + ": applying the retention to '" + h.name() + "' failed (tried again next pass): "
                        + e.getMessage());
            }
        }
    }

    private Optional<ManifestHistory> prune(ManifestHistory h) throws IOException {
        if (!h.acknowledgedBy(region).equals(h)) { // a tombstone head stored before acknowledgements existed
            h = store.merge(h.acknowledgedBy(region));
        }
        long now = wallMillis.getAsLong();
        ManifestHistory.Pruned p = h.prune(now, versionRetentionMs, tombstones.tombstoneRetentionMs());
        ManifestHistory kept = p.kept();
        List<Manifest> gone = new ArrayList<>(p.dropped());
        TombstoneCollector.Decision d = tombstones.decide(kept, now);
        if (d != TombstoneCollector.Decision.KEEP) {
            gone.add(kept.head());
            kept = null;
            if (d == TombstoneCollector.Decision.ACKNOWLEDGED) {
                tombstonesAcknowledged++;
            } else {
                tombstonesExpired++;
            }
        }
        if (gone.isEmpty()) {
            return Optional.of(h);
        }
        store.replace(h.name(), kept);
        List<BlockId> mine = new ArrayList<>();
        for (Manifest m : gone) {
            for (int i = 0; i < m.blocks().size(); i++) {
                if (m.blocks().get(i).replicas().contains(region)) {
                    mine.add(m.blockId(i));
                }
            }
        }
        if (!mine.isEmpty()) {
            toDelete.add(mine); // run once the lock is released (see locked)
        }
        dropped += gone.size();
        return Optional.ofNullable(kept);
    }
}
