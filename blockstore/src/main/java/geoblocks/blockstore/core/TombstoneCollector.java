package geoblocks.blockstore.core;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides when a node may forget a deleted name, that is drop the tombstone left as the name's only
 * version ({@link ManifestHistory#loneTombstone}). Forgetting it too early brings the file back: a
 * region that never stored the tombstone still holds the old version, and anti-entropy would spread
 * that version again to regions with nothing left to outrank it.
 *
 * <p>So a lone tombstone goes ({@link Decision#ACKNOWLEDGED}) only when
 * <ol>
 * <li>every configured region has acknowledged it ({@link ManifestHistory#acknowledged}: each
 * region adds itself when it stores the tombstone durably, and anti-entropy joins the sets), so no
 * region can still hold an older version without the tombstone above it;</li>
 * <li>the version retention has passed since it was stamped (what it superseded was dropped
 * everywhere, at the same time by the version's clock); and</li>
 * <li>this node has known that every region acknowledged it for {@code graceMs}: long enough for
 * its own anti-entropy to tell every peer that is up, so they all learn it before anyone forgets
 * (a region that still knew only part of the set would otherwise push the tombstone back to one
 * that forgot it, which could never learn the missing acknowledgement from a region that forgot it
 * too).</li>
 * </ol>
 * A region that is down or cut off acknowledges nothing, so the tombstone stays everywhere until it
 * returns, stores it (and deletes its old version's blocks) and its acknowledgement comes back.
 *
 * <p>Copies of a tombstone still travelling when the regions forget it (an anti-entropy pull or
 * push in flight) would plant it again, and it would spread and be forgotten again, round after
 * round. So a fully acknowledged lone tombstone whose version retention passed, arriving at a node
 * that does not hold its name, is not stored ({@link #forgottenHere}): that node acknowledged it
 * (it is in the set), so it held it and already forgot it (or lost its disk; either way every
 * region holds or held the tombstone, so no older version can come back).
 *
 * <p>A lone tombstone marked {@link Manifest#META_KEEP} (an S3 delete marker in a versioned bucket) is
 * a version of its own: it is never collected here; a purge replaces it by a stub, which is.
 *
 * <p>Fallback: a lone tombstone stamped more than {@code tombstoneRetentionMs} ago goes whatever
 * the acknowledgements ({@link Decision#EXPIRED}), so a region that never returns cannot keep
 * tombstones forever; a region that returns after that can bring the file back.
 *
 * <p>Pure: wall time is passed in. Keeps, per name whose lone tombstone is fully acknowledged, when
 * this node first saw that (in memory: a restarted node waits the grace again). Not thread-safe.
 */
public final class TombstoneCollector {
    /** What becomes of a history's lone tombstone now. */
    public enum Decision {
        /** Kept: not a lone tombstone, or not yet collectable. */
        KEEP,
        /** Dropped: every region acknowledged it, the version retention and the grace passed. */
        ACKNOWLEDGED,
        /** Dropped: older than the tombstone retention, not acknowledged by every region. */
        EXPIRED
    }

    /** How many anti-entropy rounds over every region the grace lasts. */
    public static final int GRACE_ROUNDS = 3;

    private record Seen(Version version, long sinceMillis) {}

    private final List<String> regions;
    private final long versionRetentionMs;
    private final long tombstoneRetentionMs;
    private final long graceMs;
    private final Map<String, Seen> fullyAcknowledged = new HashMap<>();

    public TombstoneCollector(List<String> regions, long versionRetentionMs, long tombstoneRetentionMs, long graceMs) {
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("a tombstone collector needs the cluster's regions, got none");
        }
        if (versionRetentionMs < 0 || tombstoneRetentionMs < versionRetentionMs || graceMs < 0) {
            throw new IllegalArgumentException("retentions must satisfy 0 <= version (" + versionRetentionMs
                    + " ms) <= tombstone (" + tombstoneRetentionMs + " ms) and the grace (" + graceMs + " ms) >= 0");
        }
        this.regions = List.copyOf(regions);
        this.versionRetentionMs = versionRetentionMs;
        this.tombstoneRetentionMs = tombstoneRetentionMs;
        this.graceMs = graceMs;
    }

    /** A collector for a cluster of {@code regions} with the node's retentions; grace: {@link #GRACE_ROUNDS} anti-entropy rounds. */
    public static TombstoneCollector of(List<String> regions, NodeSettings settings) {
        return new TombstoneCollector(regions, settings.versionRetentionMs(), settings.tombstoneRetentionMs(),
                (long) GRACE_ROUNDS * regions.size() * settings.antiEntropyIntervalMs());
    }

    /** How long a lone tombstone is kept at most, and a purged version's stub ({@link ManifestHistory#prune}). */
    public long tombstoneRetentionMs() {
        return tombstoneRetentionMs;
    }

    /**
     * True when {@code arriving}, a history of a name this node does not hold (after the version
     * retention), is a lone tombstone every region acknowledged whose version retention passed:
     * this node forgot it already, and stores nothing.
     */
    public boolean forgottenHere(ManifestHistory arriving, long nowMillis) {
        return arriving.loneTombstone() && !arriving.head().keep() && arriving.acknowledged().containsAll(regions)
                && arriving.head().version().millis() + versionRetentionMs <= nowMillis;
    }

    /** The decision for {@code h} at wall time {@code nowMillis}; remembers when {@code h}'s tombstone was first seen fully acknowledged. */
    public Decision decide(ManifestHistory h, long nowMillis) {
        Objects.requireNonNull(h, "history");
        if (!h.loneTombstone() || h.head().keep()) { // a kept tombstone (an S3 delete marker) goes only by a purge
            fullyAcknowledged.remove(h.name());
            return Decision.KEEP;
        }
        Manifest tomb = h.head();
        long stamped = tomb.version().millis();
        if (!h.acknowledged().containsAll(regions)) {
            fullyAcknowledged.remove(h.name());
            return stamped + tombstoneRetentionMs <= nowMillis ? Decision.EXPIRED : Decision.KEEP;
        }
        Seen seen = fullyAcknowledged.get(h.name());
        if (seen == null || !seen.version().equals(tomb.version())) {
            seen = new Seen(tomb.version(), nowMillis);
            fullyAcknowledged.put(h.name(), seen);
        }
        if (stamped + versionRetentionMs <= nowMillis && seen.sinceMillis() + graceMs <= nowMillis) {
            fullyAcknowledged.remove(h.name());
            return Decision.ACKNOWLEDGED;
        }
        return Decision.KEEP;
    }
}
