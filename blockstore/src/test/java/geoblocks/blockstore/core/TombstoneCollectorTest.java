package geoblocks.blockstore.core;

import static geoblocks.blockstore.core.TombstoneCollector.Decision.ACKNOWLEDGED;
import static geoblocks.blockstore.core.TombstoneCollector.Decision.EXPIRED;
import static geoblocks.blockstore.core.TombstoneCollector.Decision.KEEP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decision to forget a deleted name, with wall time passed in (no clock, no processes). */
class TombstoneCollectorTest {
    private static final List<String> REGIONS = List.of("seoul", "dublin", "mumbai");
    /** Version retention 1 s, tombstone retention (fallback) 100 s, grace 5 s. */
    private final TombstoneCollector c = new TombstoneCollector(REGIONS, 1_000, 100_000, 5_000);

    private static Manifest tomb(long millis) {
        return Manifest.tombstone("n", "t" + millis, "seoul", millis, new Version(HybridClock.of(millis, 0), "seoul"));
    }

    private static ManifestHistory lone(long millis, String... acks) {
        return new ManifestHistory("n", List.of(tomb(millis)), List.of(acks));
    }

    @Test
    void aRegionThatNeverAcknowledged_keepsTheTombstoneUntilTheFallback() {
        ManifestHistory h = lone(10_000, "seoul", "dublin"); // mumbai is down
        assertEquals(KEEP, c.decide(h, 11_000));
        assertEquals(KEEP, c.decide(h, 109_999));
        assertEquals(EXPIRED, c.decide(h, 110_000));
    }

    @Test
    void everyRegionAcknowledged_goesAfterTheVersionRetentionAndTheGrace_countedFromWhenThisNodeLearntIt() {
        assertEquals(KEEP, c.decide(lone(10_000, "seoul", "dublin"), 10_500));
        ManifestHistory all = lone(10_000, "seoul", "dublin", "mumbai");
        assertEquals(KEEP, c.decide(all, 30_000)); // the retention passed long ago; the grace starts now
        assertEquals(KEEP, c.decide(all, 34_999));
        assertEquals(ACKNOWLEDGED, c.decide(all, 35_000));
    }

    @Test
    void acknowledgedEarly_stillWaitsForTheVersionRetention() {
        ManifestHistory all = lone(10_000, "seoul", "dublin", "mumbai");
        TombstoneCollector longRetention = new TombstoneCollector(REGIONS, 60_000, 100_000, 5_000);
        assertEquals(KEEP, longRetention.decide(all, 10_100));
        assertEquals(KEEP, longRetention.decide(all, 69_999)); // grace long over, retention not
        assertEquals(ACKNOWLEDGED, longRetention.decide(all, 70_000));
    }

    @Test
    void aKeptTombstone_isNeverCollectedNorTakenForForgotten_itsPurgedStubIs() {
        Manifest kept = tomb(10_000).withMeta(Map.of(Manifest.META_KEEP, "1"));
        ManifestHistory h = new ManifestHistory("n", List.of(kept), List.of("seoul", "dublin", "mumbai"));
        assertEquals(KEEP, c.decide(h, 30_000));
        assertEquals(KEEP, c.decide(h, 10_000_000)); // not even the fallback
        assertEquals(false, c.forgottenHere(h, 10_000_000));
        ManifestHistory purged = new ManifestHistory("n", List.of(kept.purgedAt(20_000)), List.of("seoul", "dublin", "mumbai"));
        assertEquals(true, c.forgottenHere(purged, 30_000));
        assertEquals(KEEP, c.decide(purged, 30_000));
        assertEquals(ACKNOWLEDGED, c.decide(purged, 35_000));
    }

    @Test
    void aDifferentTombstoneOfTheName_restartsTheGrace() {
        c.decide(lone(10_000, "seoul", "dublin", "mumbai"), 20_000);
        ManifestHistory newer = lone(12_000, "seoul", "dublin", "mumbai"); // re-created and deleted again
        assertEquals(KEEP, c.decide(newer, 25_000));
        assertEquals(ACKNOWLEDGED, c.decide(newer, 30_000));
    }

    @Test
    void aLiveHeadOrOlderVersionsLeft_areNeverCollected_andForgetWhatWasSeen() {
        Manifest live = Manifests.of("n", 10, 4).withVersion(new Version(HybridClock.of(20_000, 0), "dublin"));
        ManifestHistory recreated = new ManifestHistory("n", List.of(tomb(10_000), live));
        assertEquals(KEEP, c.decide(recreated, 1_000_000));
        Manifest old = Manifests.of("n", 10, 4).withVersion(new Version(HybridClock.of(5_000, 0), "dublin"));
        ManifestHistory withOld = new ManifestHistory("n", List.of(old, tomb(10_000)), REGIONS);
        assertEquals(KEEP, c.decide(withOld, 1_000_000)); // the version retention prunes the old version first
        ManifestHistory all = lone(10_000, "seoul", "dublin", "mumbai");
        c.decide(all, 20_000);
        c.decide(recreated, 21_000); // the name came back meanwhile: what was seen is forgotten
        assertEquals(KEEP, c.decide(all, 25_000));
        assertEquals(KEEP, c.decide(all, 29_999));
        assertEquals(ACKNOWLEDGED, c.decide(all, 30_000));
    }

    @Test
    void acknowledgementsOfRegionsNoLongerConfigured_doNotCount_andMissingOnesDo() {
        ManifestHistory stale = lone(10_000, "seoul", "dublin", "paris");
        assertEquals(KEEP, c.decide(stale, 50_000));
        assertEquals(KEEP, c.decide(stale, 60_000));
    }

    @Test
    void of_derivesTheGraceFromTheAntiEntropyInterval() {
        NodeSettings s = NodeSettings.defaults().withVersions(1_000, 100_000, 200, 0);
        TombstoneCollector fromSettings = TombstoneCollector.of(REGIONS, s);
        ManifestHistory all = lone(10_000, "seoul", "dublin", "mumbai");
        assertEquals(KEEP, fromSettings.decide(all, 20_000));
        long grace = TombstoneCollector.GRACE_ROUNDS * REGIONS.size() * 200L; // 1.8 s
        assertEquals(KEEP, fromSettings.decide(all, 20_000 + grace - 1));
        assertEquals(ACKNOWLEDGED, fromSettings.decide(all, 20_000 + grace));
    }

    @Test
    void forgottenHere_onlyAFullyAcknowledgedLoneTombstonePastTheVersionRetention() {
        assertEquals(true, c.forgottenHere(lone(10_000, "seoul", "dublin", "mumbai"), 11_000));
        assertEquals(false, c.forgottenHere(lone(10_000, "seoul", "dublin", "mumbai"), 10_999), "retention not passed");
        assertEquals(false, c.forgottenHere(lone(10_000, "seoul", "dublin"), 50_000), "mumbai never stored it");
        Manifest live = Manifests.of("n", 10, 4).withVersion(new Version(HybridClock.of(20_000, 0), "dublin"));
        assertEquals(false, c.forgottenHere(new ManifestHistory("n", List.of(tomb(10_000), live)), 50_000));
    }

    @Test
    void badSettings_areRefusedWithTheValues() {
        assertThrows(IllegalArgumentException.class, () -> new TombstoneCollector(List.of(), 1, 1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TombstoneCollector(REGIONS, 2_000, 1_000, 0));
        assertEquals(true, e.getMessage().contains("2000 ms"), e.getMessage());
    }
}
