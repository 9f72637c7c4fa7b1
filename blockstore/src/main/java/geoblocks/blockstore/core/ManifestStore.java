package geoblocks.blockstore.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The manifests a node knows: per file name its {@link ManifestHistory} (every version it keeps,
 * tombstones included), kept durably in a {@link BlockStorage} (one block per name, id
 * {@code m-<hex of the name>}, written whole, so a name's versions change atomically) with a
 * sorted in-memory index. Manifests written before versions existed (one manifest per block) load
 * as a history of one legacy version. Corrupt blocks found when loading are counted and skipped,
 * never served.
 *
 * <p>For anti-entropy it keeps a digest per name (64 bits of SHA-256 over the history's encoding)
 * and per bucket of names ({@link #BUCKETS} buckets by CRC32C of the name; a bucket's digest is the
 * XOR of its names' digests), updated on every change. Not thread-safe: one component owns it.
 */
public final class ManifestStore {
    /** Buckets names are hashed into for anti-entropy digests. */
    public static final int BUCKETS = 256;
    private static final String PREFIX = "m-";

    private record Entry(ManifestHistory history, long digest) {}

    private final BlockStorage storage;
    private final TreeMap<String, Entry> index = new TreeMap<>();
    private final long[] buckets = new long[BUCKETS];
    private final int corruptOnLoad;

    public ManifestStore(BlockStorage storage) throws IOException {
        this.storage = storage;
        int corrupt = 0;
        for (BlockId id : storage.list()) {
            if (!id.value().startsWith(PREFIX)) {
                continue;
            }
            try {
                ManifestHistory h = ManifestCodec.decodeAny(storage.get(id).data());
                if (!idOf(h.name()).equals(id)) {
                    throw new IOException("history of '" + h.name() + "' stored under " + id);
                }
                put(h, ManifestCodec.encodeHistory(h));
            } catch (IOException e) {
                corrupt++;
            }
        }
        this.corruptOnLoad = corrupt;
    }

    static BlockId idOf(String name) {
        return new BlockId(PREFIX + HexFormat.of().formatHex(name.getBytes(StandardCharsets.UTF_8)));
    }

    /** The anti-entropy bucket of a name. */
    public static int bucketOf(String name) {
        return Checksums.crc32c(name.getBytes(StandardCharsets.UTF_8)) & (BUCKETS - 1);
    }

    public int corruptOnLoad() {
        return corruptOnLoad;
    }

    /** Adds one version (or a newer location epoch of it) durably; returns the name's history now. */
    public ManifestHistory save(Manifest m) throws IOException {
        return merge(ManifestHistory.of(m));
    }

    /** Merges {@code incoming} into the name's history, durably when anything changed; returns the history now. */
    public ManifestHistory merge(ManifestHistory incoming) throws IOException {
        Entry e = index.get(incoming.name());
        ManifestHistory merged = e == null ? incoming : e.history.merge(incoming);
        if (e != null && merged.equals(e.history)) {
            return e.history;
        }
        write(merged);
        return merged;
    }

    /** Replaces a name's history (after pruning); {@code null} removes the name. */
    public void replace(String name, ManifestHistory kept) throws IOException {
        if (kept == null) {
            storage.delete(idOf(name));
            Entry old = index.remove(name);
            if (old != null) {
                buckets[bucketOf(name)] ^= old.digest;
            }
            return;
        }
        if (!kept.name().equals(name)) {
            throw new IllegalArgumentException("history of '" + kept.name() + "' given for '" + name + "'");
        }
        write(kept);
    }

    private void write(ManifestHistory h) throws IOException {
        byte[] bytes = ManifestCodec.encodeHistory(h);
        storage.put(idOf(h.name()), bytes, Checksums.crc32c(bytes));
        put(h, bytes);
    }

    private void put(ManifestHistory h, byte[] encoded) {
        Entry e = new Entry(h, digest(encoded));
        Entry old = index.put(h.name(), e);
        int b = bucketOf(h.name());
        if (old != null) {
            buckets[b] ^= old.digest;
        }
        buckets[b] ^= e.digest;
    }

    private static long digest(byte[] encoded) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(encoded)).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The head of the name, unless the name is absent or its head is a tombstone. */
    public Optional<Manifest> find(String name) {
        Entry e = index.get(name);
        return e == null ? Optional.empty() : e.history.live();
    }

    /** Every version of the name this node keeps. */
    public Optional<ManifestHistory> history(String name) {
        Entry e = index.get(name);
        return e == null ? Optional.empty() : Optional.of(e.history);
    }

    /** Up to {@code limit} live heads with names after {@code after} (exclusive; "" for the start). */
    public List<Manifest> list(String after, int limit) {
        List<Manifest> out = new ArrayList<>();
        for (Entry e : index.tailMap(after, false).values()) {
            if (out.size() == limit) {
                break;
            }
            e.history.live().ifPresent(out::add);
        }
        return out;
    }

    /** Up to {@code limit} histories (tombstoned names included) with names after {@code after}. */
    public List<ManifestHistory> histories(String after, int limit) {
        List<ManifestHistory> out = new ArrayList<>();
        for (Entry e : index.tailMap(after, false).values()) {
            if (out.size() == limit) {
                break;
            }
            out.add(e.history);
        }
        return out;
    }

    /** Files with a live head. */
    public int size() {
        int n = 0;
        for (Entry e : index.values()) {
            if (!e.history.head().deleted()) {
                n++;
            }
        }
        return n;
    }

    /** Names with any version, tombstones included. */
    public int names() {
        return index.size();
    }

    /** The largest version clock stored (0 when empty): a restarted node's clock starts above it. */
    public long maxClock() {
        long max = 0;
        for (Entry e : index.values()) {
            max = Math.max(max, e.history.maxClock());
        }
        return max;
    }

    /** The digest of every bucket (a copy). */
    public long[] bucketDigests() {
        return buckets.clone();
    }

    /** Name and digest of every name in {@code wanted} buckets, in name order. */
    public Map<String, Long> digests(Set<Integer> wanted) {
        Map<String, Long> out = new TreeMap<>();
        for (Map.Entry<String, Entry> e : index.entrySet()) {
            if (wanted.contains(bucketOf(e.getKey()))) {
                out.put(e.getKey(), e.getValue().digest);
            }
        }
        return out;
    }

    /** The digest of one name's history, or empty. */
    public Optional<Long> digest(String name) {
        Entry e = index.get(name);
        return e == null ? Optional.empty() : Optional.of(e.digest);
    }
}
