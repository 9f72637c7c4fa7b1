package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The versions of one file name a node knows, ascending by {@link Version}; the last is the head
 * (what reads serve, unless it is a tombstone: then the name reads as absent). Immutable.
 *
 * <p>{@link #merge} is the state-based join that makes every node converge (a CRDT join:
 * commutative, associative, idempotent): the union of both sides' versions; one version known with
 * two location epochs keeps the higher epoch; the same version and epoch with different content (two
 * nodes moved the same blocks at once, which one leader per file avoids) keeps the copy whose
 * encoding sorts higher, so every node keeps the same one.
 *
 * <p>When the head is a tombstone, {@code acknowledged} names the regions known to have stored it
 * durably (each node adds its own region when it stores the tombstone; merging two histories with
 * the same head joins their sets, a grow-only set, so the knowledge spreads with anti-entropy).
 * When the head is live the set is empty. {@link TombstoneCollector} decides from it when the name
 * may be forgotten.
 *
 * <p>{@link #prune} applies the version retention: a superseded version is dropped once the version
 * that superseded it is older than the version retention (by the clock of the version, not of the
 * node that prunes, so every node drops the same versions at about the same time). The head is
 * never pruned.
 */
public record ManifestHistory(String name, List<Manifest> versions, List<String> acknowledged) {

    /** A history whose head no region is known to have acknowledged yet. */
    public ManifestHistory(String name, List<Manifest> versions) {
        this(name, versions, List.of());
    }

    public ManifestHistory {
        Manifest.validateName(name);
        versions = List.copyOf(versions);
        acknowledged = acknowledged.stream().distinct().sorted().toList();
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("a history of '" + name + "' needs at least one version");
        }
        if (!acknowledged.isEmpty() && !versions.get(versions.size() - 1).deleted()) {
            throw new IllegalArgumentException("the history of '" + name + "' has a live head, so nothing to acknowledge,"
                    + " but lists " + acknowledged);
        }
        for (int i = 0; i < versions.size(); i++) {
            Manifest m = versions.get(i);
            if (!m.name().equals(name)) {
                throw new IllegalArgumentException("version " + m.version() + " of '" + m.name() + "' in the history of '" + name + "'");
            }
            if (i > 0 && versions.get(i - 1).version().compareTo(m.version()) >= 0) {
                throw new IllegalArgumentException("versions of '" + name + "' must ascend, each once: "
                        + versions.get(i - 1).version() + " then " + m.version());
            }
        }
    }

    /** The history of one version. */
    public static ManifestHistory of(Manifest m) {
        return new ManifestHistory(m.name(), List.of(m));
    }

    public Manifest head() {
        return versions.get(versions.size() - 1);
    }

    /** The head, unless it is a tombstone; a purged version ({@link Manifest#purged}) is skipped, so the one below it serves. */
    public Optional<Manifest> live() {
        return current().filter(m -> !m.deleted());
    }

    /** The newest version that is not purged (a tombstone or a live version); empty when every version is purged. */
    public Optional<Manifest> current() {
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (!versions.get(i).purged()) {
                return Optional.of(versions.get(i));
            }
        }
        return Optional.empty();
    }

    public Optional<Manifest> find(Version v) {
        for (Manifest m : versions) {
            if (m.version().equals(v)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /** The version uploaded as file id {@code fileId} (block ids derive from it), if this history has it. */
    public Optional<Manifest> findFile(String fileId) {
        for (Manifest m : versions) {
            if (!m.deleted() && m.fileId().equals(fileId)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /** Both sides' versions; see the class comment for which copy of one version is kept. */
    public ManifestHistory merge(ManifestHistory other) {
        if (!other.name.equals(name)) {
            throw new IllegalArgumentException("cannot merge the history of '" + other.name + "' into '" + name + "'");
        }
        TreeMap<Version, Manifest> all = new TreeMap<>();
        for (Manifest m : versions) {
            all.put(m.version(), m);
        }
        for (Manifest m : other.versions) {
            all.merge(m.version(), m, ManifestHistory::preferred);
        }
        Manifest head = all.lastEntry().getValue();
        TreeSet<String> acks = new TreeSet<>();
        if (head.deleted()) {
            for (ManifestHistory side : List.of(this, other)) {
                if (side.head().version().equals(head.version())) {
                    acks.addAll(side.acknowledged);
                }
            }
        }
        return new ManifestHistory(name, new ArrayList<>(all.values()), new ArrayList<>(acks));
    }

    /** This history with {@code region} among those that stored its head tombstone; itself when the head is live. */
    public ManifestHistory acknowledgedBy(String region) {
        if (!head().deleted() || acknowledged.contains(region)) {
            return this;
        }
        List<String> acks = new ArrayList<>(acknowledged);
        acks.add(region);
        return new ManifestHistory(name, versions, acks);
    }

    /** Of two copies of one version: the higher location epoch, then the higher encoding. */
    static Manifest preferred(Manifest a, Manifest b) {
        if (a.equals(b)) {
            return a;
        }
        if (a.locEpoch() != b.locEpoch()) {
            return a.locEpoch() > b.locEpoch() ? a : b;
        }
        return Arrays.compare(ManifestCodec.encode(a), ManifestCodec.encode(b)) >= 0 ? a : b;
    }

    /** What {@link #prune} keeps (at least the head) and what it drops. */
    public record Pruned(ManifestHistory kept, List<Manifest> dropped) {}

    /** As {@link #prune(long, long, long)} with purged stubs kept for ever. */
    public Pruned prune(long nowMillis, long versionRetentionMs) {
        return prune(nowMillis, versionRetentionMs, Long.MAX_VALUE);
    }

    /**
     * Drops what the retention no longer keeps at wall time {@code nowMillis}: every version whose
     * successor (the next newer version that is not purged) was stamped more than
     * {@code versionRetentionMs} ago, unless it is marked {@link Manifest#keep}; and every purged stub
     * purged more than {@code purgedRetentionMs} ago (until then it stops a copy of the purged version
     * coming back from a region that missed the purge; as with a tombstone's retention, a region away
     * longer can bring it back). At least one version stays (a lone tombstone or stub goes by
     * {@link TombstoneCollector}'s decision). The regions that acknowledged the head stay only while
     * the head does.
     */
    public Pruned prune(long nowMillis, long versionRetentionMs, long purgedRetentionMs) {
        List<Manifest> kept = new ArrayList<>(versions.size());
        List<Manifest> dropped = new ArrayList<>();
        long successorMillis = Long.MIN_VALUE; // stamp of the nearest newer version that is not purged
        boolean hasSuccessor = false;
        for (int i = versions.size() - 1; i >= 0; i--) {
            Manifest m = versions.get(i);
            boolean drop;
            if (m.purged()) {
                drop = nowMillis - m.createdMillis() >= purgedRetentionMs;
            } else {
                drop = hasSuccessor && !m.keep() && nowMillis - successorMillis >= versionRetentionMs;
                successorMillis = m.version().millis();
                hasSuccessor = true;
            }
            (drop ? dropped : kept).add(0, m);
        }
        if (kept.isEmpty()) { // everything left was purged long ago: the newest stub stays, for the collector
            kept.add(dropped.remove(dropped.size() - 1));
        }
        if (dropped.isEmpty()) {
            return new Pruned(this, List.of());
        }
        boolean sameHead = kept.get(kept.size() - 1).equals(head());
        return new Pruned(new ManifestHistory(name, kept, sameHead ? acknowledged : List.of()), List.copyOf(dropped));
    }

    /** True when the only version left is a tombstone (the name reads as absent and keeps nothing else). */
    public boolean loneTombstone() {
        return versions.size() == 1 && head().deleted();
    }

    /** The largest clock value among the versions (to keep a node's clock above what it stores). */
    public long maxClock() {
        return head().version().clock();
    }
}
