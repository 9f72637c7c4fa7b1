package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Purged versions (S3's DeleteObject with a versionId): stubs that outrank the version, skipped by reads, pruned after their retention. */
class PurgedVersionsTest {
    private static Manifest v(long millis, String region, boolean keep) {
        Manifest m = Manifests.of("n", 10 + millis % 7, 4).withVersion(new Version(HybridClock.of(millis, 0), region));
        return keep ? m.withMeta(Map.of(Manifest.META_KEEP, "1")) : m;
    }

    private static Manifest tomb(long millis) {
        return Manifest.tombstone("n", "t" + millis, "a", millis, new Version(HybridClock.of(millis, 0), "a"));
    }

    private static ManifestHistory h(Manifest... ms) {
        return new ManifestHistory("n", List.of(ms));
    }

    @Test
    void purgedAt_isATombstoneOfTheSameVersion_thatOutranksEveryMovedCopy() {
        Manifest m = v(10, "a", true);
        Manifest moved = m.withLocations(m.blocks().stream().map(b -> b.withReplicas(List.of("x"))).toList());
        Manifest stub = m.purgedAt(500);
        assertTrue(stub.purged() && stub.deleted() && stub.blocks().isEmpty());
        assertEquals(m.version(), stub.version());
        assertEquals(500, stub.createdMillis());
        assertSame(stub, stub.purgedAt(900)); // purging twice changes nothing
        assertFalse(m.purged());
        assertFalse(tomb(3).purged()); // a delete marker is not a purge
        assertEquals(List.of(stub), h(moved).merge(h(stub)).versions());
        assertEquals(List.of(stub), h(stub).merge(h(moved)).versions());
        // a copy moved after the purge elsewhere still loses
        Manifest movedTwice = moved.withLocations(moved.blocks());
        assertEquals(List.of(stub), h(stub).merge(h(movedTwice)).versions());
    }

    @Test
    void live_skipsPurgedVersions_theOneBelowServesAgain() {
        Manifest older = v(10, "a", true);
        Manifest newer = v(20, "a", true);
        ManifestHistory hist = h(older, newer).merge(h(newer.purgedAt(30)));
        assertEquals(Optional.of(older), hist.live());
        assertEquals(Optional.of(older), hist.current());
        assertTrue(hist.head().purged()); // the history still orders the stub last
        // a purged delete marker: the version under it is live again
        assertEquals(Optional.of(older), h(older, tomb(20).purgedAt(30)).live());
        // a delete marker under a purged version: the name reads as absent
        assertEquals(Optional.empty(), h(older, tomb(15), newer.purgedAt(30)).live());
        assertEquals(Optional.of(tomb(15)), h(older, tomb(15), newer.purgedAt(30)).current());
        // everything purged: nothing current
        assertEquals(Optional.empty(), h(older.purgedAt(30), newer.purgedAt(30)).current());
    }

    @Test
    void prune_aPurgedHeadDoesNotSupersedeTheVersionBelow() {
        Manifest older = v(10, "a", false); // unmarked: only the retention protects it
        ManifestHistory hist = h(older, v(20, "a", false).purgedAt(30));
        // long after the retention the unmarked version is still the current one, so it stays
        ManifestHistory.Pruned p = hist.prune(10_000, 100, 1_000_000);
        assertSame(hist, p.kept());
        assertEquals(List.of(), p.dropped());
    }

    @Test
    void prune_dropsAStubAfterItsRetention_byThePurgeTime_andResetsTheAcknowledgements() {
        Manifest older = v(10, "a", true);
        Manifest stub = v(20, "a", true).purgedAt(1000);
        ManifestHistory hist = h(older, stub).acknowledgedBy("a");
        assertEquals(List.of("a"), hist.acknowledged());
        assertSame(hist, hist.prune(1999, 100, 1000).kept()); // purged at 1000: kept until 2000
        ManifestHistory.Pruned p = hist.prune(2000, 100, 1000);
        assertEquals(List.of(older), p.kept().versions());
        assertEquals(List.of(stub), p.dropped());
        assertEquals(List.of(), p.kept().acknowledged()); // the head changed: a live head has none
    }

    @Test
    void prune_aLoneStubStays_forTheTombstoneCollector() {
        Manifest stub = v(20, "a", true).purgedAt(1000);
        ManifestHistory hist = h(v(10, "a", true).purgedAt(900), stub);
        ManifestHistory.Pruned p = hist.prune(1_000_000, 100, 1000);
        assertEquals(List.of(stub), p.kept().versions());
        assertTrue(p.kept().loneTombstone());
    }

    @Test
    void prune_theSuccessorOfAVersionIsTheNextOneNotPurged() {
        Manifest a = v(10, "a", false);
        Manifest purged = v(20, "a", false).purgedAt(5000);
        Manifest c = v(300, "a", false);
        ManifestHistory hist = h(a, purged, c);
        // a is superseded by c (stamped at 300), not by the purged version at 20
        assertEquals(List.of(a, purged, c), hist.prune(399, 100, 1_000_000).kept().versions());
        assertEquals(List.of(purged, c), hist.prune(400, 100, 1_000_000).kept().versions());
    }
}
