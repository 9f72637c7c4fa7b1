package geoblocks.blockstore.core;

import static geoblocks.blockstore.core.ManifestKeys.*;

import geoblocks.blockstore.meta.MetaBatch;
import geoblocks.blockstore.meta.MetaEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The manifests a node knows: per file name its {@link ManifestHistory} (every version it keeps,
 * tombstones included), kept in the node's {@link MetaEngine}. Nothing is scanned when the store
 * opens: what status, metrics and anti-entropy need is kept in the engine on every change, in the
 * same atomic batch as the history itself, and read back once (a few hundred KiB at most).
 *
 * <p>Its keys in the engine are laid out in {@link ManifestKeys}.
 *
 * <p>Other keepers of node state share the engine ({@link #engine()}) under prefixes this store never
 * uses: {@code "q"} the replication queue ({@code MetaReplicationQueueStore}), {@code 'm' name} the
 * moves this node coordinates ({@code MetaMoveStore}, a {@link MoveRecord} each),
 * {@code 'g' "collected"} the block collector's lifetime totals ({@code MetaGcTotals}) and
 * {@code 'y' "layout"} the cluster layout ({@code MetaLayoutStore}).
 *
 * <p>Anti-entropy digests form a two-level tree: a name's digest (64 bits of SHA-256 over its
 * history's encoding) falls in one of {@link #BUCKETS} buckets by the low byte of the CRC32C of its
 * name, and in one of {@link #LEAVES} leaves of that bucket by the next byte. A leaf's digest is
 * the XOR of its names', a bucket's the XOR of its leaves'. All {@code BUCKETS * LEAVES} leaf
 * digests stay in memory (512 KiB).
 *
 * <p>Decoded histories of recently used names are cached: at most {@link #CACHE} of them and
 * {@link #CACHE_BYTES} of their encodings (inline objects make some histories kilobytes long).
 * The reads in name order (listings, the newest names, the names of a file) are in {@link ManifestScans},
 * the per-name digests in {@link NameDigests}.
 *
 * <p>Thread-safe under one lock, the store's monitor: every method that touches its state is
 * {@code synchronized}, runs no caller's code and returns what the caller then owns (immutable
 * histories, new lists and maps, copies of digests), so two components on two threads may read and
 * write it. A caller whose change reads first and writes after (read, merge, prune, replace) holds
 * the monitor across it ({@code component.Versions} does). The engine under it is shared with other
 * keepers of node state and is thread-safe itself; {@link SharedManifestReads} reads it without this lock.
 */
public final class ManifestStore implements AutoCloseable {
    /** Buckets names are hashed into for anti-entropy digests. */
    public static final int BUCKETS = 256;
    /** Leaves per bucket. */
    public static final int LEAVES = 256;
    /** Decoded histories kept in memory. */
    static final int CACHE = 4096;
    /** Encoded bytes of the decoded histories kept in memory. */
    static final long CACHE_BYTES = 8 << 20;


    /** Per region: block replicas of live heads held there and their stored bytes. */
    public record Placed(long blocks, long bytes) {}

    private final MetaEngine engine;
    private final DigestTree tree;
    private final TreeMap<String, long[]> placed = new TreeMap<>();
    private long live;
    private long names;
    private long maxClock;
    private int corrupt;
    /** When true, writes are made visible at once and durable by the owner's next {@link MetaEngine#sync}. */
    private boolean deferSync;
    /** Writes made so far (each one batch); with deferred syncs, the owner syncs up to a count. */
    private long writes;
    private final HistoryCache cache = new HistoryCache(CACHE, CACHE_BYTES);
    private final ManifestScans scans = new ManifestScans(this);
    /** Names written and not yet synced (with deferred syncs), for {@link #sharedReads}. */
    private final UnsyncedNames unsynced = new UnsyncedNames();

    /** Histories decoded and kept in memory now, and their encoded bytes (tests). */
    synchronized long[] cached() {
        return cache.stats();
    }

    /** Opens the manifests kept in {@code engine} (reads counters and leaf digests, never every name). */
    public ManifestStore(MetaEngine engine) throws IOException {
        this.engine = engine;
        this.tree = DigestTree.load(engine);
        engine.scan(new byte[] {PLACED}, new byte[] {PLACED + 1}, (k, v) -> {
            ByteBuffer b = ByteBuffer.wrap(v);
            placed.put(new String(k, 1, k.length - 1, StandardCharsets.UTF_8), new long[] {b.getLong(), b.getLong()});
            return true;
        });
        this.live = counter(LIVE);
        this.names = counter(NAMES);
        this.maxClock = counter(MAX_CLOCK);
    }

    /** The anti-entropy leaf of a name: bucket * LEAVES + leaf-in-bucket. */
    public static int leafOf(String name) {
        int crc = Checksums.crc32c(utf8(name));
        return ((crc & 0xFF) << 8) | ((crc >>> 8) & 0xFF);
    }

    /** The anti-entropy bucket of a name. */
    public static int bucketOf(String name) {
        return leafOf(name) >>> 8;
    }

    private long counter(byte[] key) throws IOException {
        byte[] v = engine.get(key);
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    /**
     * From now on, writes are visible at once but durable only at the engine's next sync, which the
     * owner must run before anything reveals them (the file service holds its outgoing messages
     * and block deletions until then: {@link OutputGate}). Many writes then share one sync.
     */
    public synchronized void deferSyncs() {
        this.deferSync = true;
    }

    /** True when writes wait for the owner's sync ({@link #deferSyncs}). */
    public synchronized boolean defersSyncs() {
        return deferSync;
    }

    /** Writes made since the store opened (a sequence number for {@link OutputGate}). */
    public synchronized long writes() {
        return writes;
    }

    /** The owner's sync covering every write up to number {@code upTo} ({@link #writes}) ended. */
    public synchronized void synced(long upTo) {
        unsynced.synced(upTo);
    }

    /** Names whose last write waits for a sync (tests, status). */
    public synchronized int unsyncedNames() {
        return unsynced.size();
    }

    /** Reads of these manifests that other threads may make: durable live versions only ({@link SharedManifestReads}). */
    public SharedManifestReads sharedReads() {
        return new SharedManifestReads(engine, unsynced);
    }

    /** Histories that failed to decode when read (each counted once per read; never served). */
    public synchronized int corruptOnLoad() {
        return corrupt;
    }

    /** Adds one version (or a newer location epoch of it) durably; returns the name's history now. */
    public synchronized ManifestHistory save(Manifest m) throws IOException {
        return merge(ManifestHistory.of(m));
    }

    /** Merges {@code incoming} into the name's history, durably when anything changed; returns the history now. */
    public synchronized ManifestHistory merge(ManifestHistory incoming) throws IOException {
        Optional<ManifestHistory> old = history(incoming.name());
        ManifestHistory merged = old.isEmpty() ? incoming : old.get().merge(incoming);
        if (old.isPresent() && merged.equals(old.get())) {
            return old.get();
        }
        write(incoming.name(), old.orElse(null), merged);
        return merged;
    }

    /** Merges many histories in one durable batch (anti-entropy, upgrades); returns how many changed. */
    public synchronized int mergeAll(List<ManifestHistory> incoming) throws IOException {
        Change change = new Change();
        Map<String, ManifestHistory> now = new LinkedHashMap<>();
        for (ManifestHistory h : incoming) {
            ManifestHistory before = now.containsKey(h.name()) ? now.get(h.name()) : history(h.name()).orElse(null);
            ManifestHistory merged = before == null ? h : before.merge(h);
            if (before != null && merged.equals(before)) {
                continue;
            }
            change.add(h.name(), before, merged);
            now.put(h.name(), merged);
        }
        change.commit();
        return now.size();
    }

    /** Replaces a name's history (after pruning); {@code null} removes the name. */
    public synchronized void replace(String name, ManifestHistory kept) throws IOException {
        if (kept != null && !kept.name().equals(name)) {
            throw new IllegalArgumentException("history of '" + kept.name() + "' given for '" + name + "'");
        }
        Optional<ManifestHistory> old = history(name);
        if (old.isEmpty() && kept == null) {
            return;
        }
        write(name, old.orElse(null), kept);
    }

    private void write(String name, ManifestHistory old, ManifestHistory now) throws IOException {
        Change c = new Change();
        c.add(name, old, now);
        c.commit();
    }

    /**
     * One atomic change of several names: the batch for the engine, and the in-memory state it
     * leads to, applied only once the engine has the batch durably.
     */
    private final class Change {
        private final MetaBatch batch = new MetaBatch();
        private final Map<Integer, Long> leafDelta = new TreeMap<>();
        private final Map<String, long[]> placedDelta = new TreeMap<>();
        private final Map<String, ManifestHistory> cached = new LinkedHashMap<>();
        private final Map<String, Integer> cachedBytes = new HashMap<>();
        private long liveDelta;
        private long namesDelta;
        private long clock = maxClock;

        void add(String name, ManifestHistory old, ManifestHistory now) {
            byte[] oldBytes = old == null ? null : ManifestCodec.encodeHistory(old);
            byte[] newBytes = now == null ? null : ManifestCodec.encodeHistory(now);
            if (newBytes == null) {
                batch.delete(historyKey(name));
                batch.delete(nameDigestKey(name));
            } else {
                batch.put(historyKey(name), newBytes);
                batch.put(nameDigestKey(name), longBytes(NameDigests.hash(newBytes)));
                clock = Math.max(clock, now.maxClock());
            }
            long delta = (oldBytes == null ? 0 : NameDigests.hash(oldBytes)) ^ (newBytes == null ? 0 : NameDigests.hash(newBytes));
            leafDelta.merge(leafOf(name), delta, (a, b) -> a ^ b);
            namesDelta += (old == null ? 0 : -1) + (now == null ? 0 : 1);
            Manifest oldLive = old == null ? null : old.live().orElse(null);
            Manifest newLive = now == null ? null : now.live().orElse(null);
            liveDelta += (oldLive == null ? 0 : -1) + (newLive == null ? 0 : 1);
            if (oldLive != null) {
                batch.delete(recentKey(oldLive));
                batch.delete(key(LISTED, utf8(name)));
                count(oldLive, -1);
            }
            if (newLive != null) {
                batch.put(recentKey(newLive), new byte[0]);
                batch.put(key(LISTED, utf8(name)), Listed.encode(newLive));
                count(newLive, 1);
            }
            Set<String> oldFiles = fileIds(old);
            Set<String> newFiles = fileIds(now);
            for (String f : oldFiles) {
                if (!newFiles.contains(f)) {
                    batch.delete(fileKey(f, name));
                }
            }
            for (String f : newFiles) {
                if (!oldFiles.contains(f)) {
                    batch.put(fileKey(f, name), new byte[0]);
                }
            }
            cached.put(name, now);
            cachedBytes.put(name, newBytes == null ? 0 : newBytes.length);
        }

        private void count(Manifest m, int sign) {
            for (Manifest.BlockRef b : m.blocks()) {
                for (String r : b.replicas()) {
                    long[] p = placedDelta.computeIfAbsent(r, x -> new long[2]);
                    p[0] += sign;
                    p[1] += (long) sign * b.length();
                }
            }
        }

        void commit() throws IOException {
            if (batch.isEmpty()) {
                return;
            }
            Map<Integer, Long> newLeaf = new TreeMap<>();
            leafDelta.forEach((leaf, d) -> {
                long v = tree.leaf(leaf) ^ d;
                newLeaf.put(leaf, v);
                if (v == 0) {
                    batch.delete(leafKey(leaf));
                } else {
                    batch.put(leafKey(leaf), longBytes(v));
                }
            });
            Map<String, long[]> newPlaced = new TreeMap<>();
            placedDelta.forEach((region, d) -> {
                long[] was = placed.getOrDefault(region, new long[2]);
                long[] v = {was[0] + d[0], was[1] + d[1]};
                newPlaced.put(region, v);
                byte[] k = key(PLACED, utf8(region));
                if (v[0] == 0 && v[1] == 0) {
                    batch.delete(k);
                } else {
                    batch.put(k, ByteBuffer.allocate(16).putLong(v[0]).putLong(v[1]).array());
                }
            });
            batch.put(LIVE, longBytes(live + liveDelta));
            batch.put(NAMES, longBytes(names + namesDelta));
            batch.put(MAX_CLOCK, longBytes(clock));
            if (deferSync) {
                unsynced.writing(cached.keySet(), writes + 1); // before the write: see UnsyncedNames
                engine.writeUnsynced(batch);
            } else {
                engine.write(batch);
            }
            writes++;
            // written: now the memory state follows
            newLeaf.forEach(tree::set);
            newPlaced.forEach((region, v) -> {
                if (v[0] == 0 && v[1] == 0) {
                    placed.remove(region);
                } else {
                    placed.put(region, v);
                }
            });
            live += liveDelta;
            names += namesDelta;
            maxClock = clock;
            cached.forEach((n, h) -> {
                if (h == null) {
                    cache.remove(n);
                } else {
                    cache.put(n, h, cachedBytes.get(n));
                }
            });
        }
    }

    private static Set<String> fileIds(ManifestHistory h) {
        if (h == null) {
            return Set.of();
        }
        Set<String> out = new HashSet<>();
        for (Manifest m : h.versions()) {
            if (!m.deleted()) {
                out.add(m.fileId());
            }
        }
        return out;
    }

    /** The history encoded in {@code bytes}, or null (counted as corrupt) when they do not decode. */
    synchronized ManifestHistory decode(byte[] bytes) {
        try {
            return ManifestCodec.decodeAny(bytes);
        } catch (IOException | RuntimeException e) {
            corrupt++;
            return null;
        }
    }

    /** A stored record under another name's key (never served). */
    synchronized void countCorrupt() {
        corrupt++;
    }

    /** The head of the name, unless the name is absent or its head is a tombstone. */
    public synchronized Optional<Manifest> find(String name) {
        return history(name).flatMap(ManifestHistory::live);
    }

    /** Every version of the name this node keeps (empty also when its stored record is unreadable). */
    public synchronized Optional<ManifestHistory> history(String name) {
        ManifestHistory c = cache.get(name);
        if (c != null) {
            return Optional.of(c);
        }
        byte[] bytes;
        try {
            bytes = engine.get(historyKey(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bytes == null) {
            return Optional.empty();
        }
        ManifestHistory h = decode(bytes);
        if (h == null) {
            return Optional.empty();
        }
        if (!h.name().equals(name)) {
            corrupt++;
            return Optional.empty();
        }
        cache.put(name, h, bytes.length);
        return Optional.of(h);
    }

    /** Up to {@code limit} live heads with names after {@code after} (exclusive; "" for the start). */
    public synchronized List<Manifest> list(String after, int limit) {
        return list("", after, limit);
    }

    /** Live heads by prefix after a name, in name order: see {@link ManifestScans#list}. */
    public synchronized List<Manifest> list(String prefix, String after, int limit) {
        return scans.list(prefix, after, limit);
    }

    /** Live names by prefix from the listing records, no history decoded: see {@link ManifestScans#listing}. */
    public synchronized List<Listed> listing(String prefix, String after, int limit) {
        return scans.listing(prefix, after, limit);
    }

    /** Up to {@code limit} histories (tombstoned names included) with names after {@code after}. */
    public synchronized List<ManifestHistory> histories(String after, int limit) {
        return scans.histories(after, limit);
    }

    /** Names by prefix, tombstoned ones too: see {@link ManifestScans#listingWithDeleted}. */
    public synchronized List<Listed> listingWithDeleted(String prefix, String after, int limit) {
        return scans.listingWithDeleted(prefix, after, limit);
    }

    /** The names whose kept versions were uploaded as {@code fileId} (its blocks are then referenced). */
    public synchronized List<String> namesOfFile(String fileId) throws IOException {
        return scans.namesOfFile(fileId);
    }

    /** Up to {@code limit} live heads, newest first (by creation time), read from an index: no walk. */
    public synchronized List<Manifest> newest(int limit) {
        return scans.newest(limit);
    }

    /** Per region, the block replicas of live heads and their bytes, kept on every change. */
    public synchronized Map<String, Placed> placed() {
        Map<String, Placed> out = new TreeMap<>();
        placed.forEach((r, p) -> out.put(r, new Placed(p[0], p[1])));
        return out;
    }

    /** Files with a live head (a counter, kept on every change). */
    public synchronized int size() {
        return (int) Math.min(Integer.MAX_VALUE, live);
    }

    /** Names with any version, tombstones included (a counter). */
    public synchronized int names() {
        return (int) Math.min(Integer.MAX_VALUE, names);
    }

    /** The largest version clock stored (0 when empty): a restarted node's clock starts above it. */
    public synchronized long maxClock() {
        return maxClock;
    }

    /** The digest of every bucket (a copy). */
    public synchronized long[] bucketDigests() {
        return tree.buckets();
    }

    /** The digests of the {@link #LEAVES} leaves of {@code bucket}. */
    public synchronized long[] leafDigests(int bucket) {
        return tree.leaves(bucket);
    }

    /** Name and digest of every name in {@code wanted} buckets, in name order. */
    public synchronized Map<String, Long> digests(Set<Integer> wanted) {
        return NameDigests.ofBuckets(engine, wanted);
    }

    /** Name and digest of every name in {@code wanted} leaves (bucket * LEAVES + leaf), in name order. */
    public synchronized Map<String, Long> leafNameDigests(Set<Integer> wanted) {
        return NameDigests.ofLeaves(engine, wanted);
    }

    /** The digest of one name's history, or empty. */
    public synchronized Optional<Long> digest(String name) {
        return NameDigests.of(engine, name);
    }

    /** The engine under this store (other keepers of node state share it, under their own prefixes). */
    public MetaEngine engine() {
        return engine;
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
