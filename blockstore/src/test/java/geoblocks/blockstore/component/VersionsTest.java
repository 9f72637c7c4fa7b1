package geoblocks.blockstore.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.HybridClock;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Versions with a fake wall clock and no processes: stamping, merging, claims and the retention. */
class VersionsTest {
    private static final List<String> REGIONS = List.of("seoul", "dublin");
    private long wall = 1_000_000;
    private final List<BlockId> deleted = new ArrayList<>();
    private final MemoryMetaEngine disk = new MemoryMetaEngine();

    private Versions versions(String region) throws IOException {
        return new Versions(new ManifestStore(disk), region, () -> wall, 10_000,
                new TombstoneCollector(REGIONS, 10_000, 60_000, 3_000), deleted::addAll);
    }

    private static Manifest draft(String name, String fileId, List<String> replicas) {
        return new Manifest(name, fileId, 4, 4, "local", "seoul", 1, List.of(new Manifest.BlockRef(4, 7, replicas)));
    }

    @Test
    void commit_stampsAscendingVersionsOfThisRegion_evenWithinOneMillisecond() throws IOException {
        Versions v = versions("seoul");
        Manifest a = v.commit(draft("n", "f1", List.of("seoul")));
        Manifest b = v.commit(draft("n", "f2", List.of("seoul")));
        assertEquals(new Version(HybridClock.of(1_000_000, 0), "seoul"), a.version());
        assertEquals(new Version(HybridClock.of(1_000_000, 1), "seoul"), b.version());
        assertEquals(List.of(a, b), new ManifestStore(disk).history("n").orElseThrow().versions());
    }

    @Test
    void restart_stampsAboveEverythingStored_evenWhenTheWallClockWentBack() throws IOException {
        Manifest a = versions("seoul").commit(draft("n", "f1", List.of("seoul")));
        wall = 5; // restarted with a clock far behind
        Manifest b = versions("seoul").commit(draft("n", "f2", List.of("seoul")));
        assertTrue(b.version().compareTo(a.version()) > 0);
    }

    @Test
    void merge_observesThePeersClock_soTheNextLocalWriteOrdersAfterIt() throws IOException {
        Versions v = versions("seoul");
        Manifest remote = draft("n", "f9", List.of("dublin")).withVersion(new Version(HybridClock.of(9_000_000, 4), "dublin"));
        v.merge(ManifestHistory.of(remote));
        Manifest mine = v.commit(draft("n", "f1", List.of("seoul")));
        assertEquals(new Version(HybridClock.of(9_000_000, 5), "seoul"), mine.version());
    }

    @Test
    void claim_refusesALiveName_allowsADeletedOne_aboveTheTombstone() throws IOException {
        Versions v = versions("saopaulo");
        assertTrue(v.claim(draft("c", "f1", List.of("seoul")), WriteCondition.ABSENT).stored() != null);
        assertEquals(new Versions.Claim(null, WriteCondition.Outcome.EXISTS),
                v.claim(draft("c", "f2", List.of("seoul")), WriteCondition.ABSENT));
        Manifest tomb = Manifest.tombstone("c", "t", "mumbai", 1, new Version(HybridClock.of(50_000_000, 0), "mumbai"));
        v.merge(ManifestHistory.of(tomb));
        Manifest again = v.claim(draft("c", "f3", List.of("seoul")), WriteCondition.ABSENT).stored();
        assertTrue(again.version().compareTo(tomb.version()) > 0, "a create after a delete the wall clock is behind of");
    }

    @Test
    void purge_replacesTheVersionByItsStub_theOneBelowServes_andTheFileIdLosesItsReference() throws IOException {
        Versions v = versions("seoul");
        Manifest a = v.commit(draft("p", "f1", List.of("seoul")));
        Manifest b = v.commit(draft("p", "f2", List.of("seoul")));
        ManifestStore store = new ManifestStore(disk);
        assertEquals(List.of("p"), store.namesOfFile("f2"));
        Manifest stub = v.purge("p", b.version()).orElseThrow();
        assertTrue(stub.purged());
        assertEquals(b.version(), stub.version());
        store = new ManifestStore(disk);
        assertEquals(Optional.of(a), store.find("p")); // the older version serves again
        assertEquals(List.of(), store.namesOfFile("f2")); // so the block collector may take f2's blocks
        assertEquals(List.of("p"), store.namesOfFile("f1")); // never those of a version kept
        assertEquals(List.of(), deleted); // nothing deleted here directly: the collector decides by references
        // the old copy arriving again (a region that missed the purge) changes nothing
        v.merge(ManifestHistory.of(b));
        assertEquals(Optional.of(a), new ManifestStore(disk).find("p"));
        assertEquals(Optional.empty(), v.purge("p", new Version(HybridClock.of(1, 0), "seoul")));
    }

    @Test
    void purge_ofTheOnlyVersion_leavesALoneStub_acknowledgedHere() throws IOException {
        Versions v = versions("seoul");
        Manifest a = v.commit(draft("q", "f1", List.of("seoul")));
        v.purge("q", a.version());
        ManifestHistory h = new ManifestStore(disk).history("q").orElseThrow();
        assertTrue(h.loneTombstone());
        assertEquals(List.of("seoul"), h.acknowledged());
        assertEquals(Optional.empty(), new ManifestStore(disk).find("q"));
    }

    private static Manifest tagged(String name, String fileId, String etag) {
        return new Manifest(name, fileId, 4, 4, "local", "seoul", 1, List.of(new Manifest.BlockRef(4, 7, List.of("seoul"))),
                Version.legacy(1, "seoul"), 0, false, Map.of("etag", etag));
    }

    @Test
    void claim_ifMatch_isACompareAndSwap_onlyTheFirstOfTwoWritersFromOneTagWins() throws IOException {
        Versions v = versions("saopaulo");
        WriteCondition fromA = WriteCondition.on("etag", "\"aaa\"", null);
        assertEquals(WriteCondition.Outcome.NOT_FOUND, v.claim(tagged("k", "f0", "bbb"), fromA).outcome());
        v.commit(tagged("k", "f1", "aaa"));
        Manifest won = v.claim(tagged("k", "f2", "bbb"), fromA).stored();
        assertEquals("bbb", won.meta().get("etag"));
        Versions.Claim lost = v.claim(tagged("k", "f3", "ccc"), fromA);
        assertEquals(new Versions.Claim(null, WriteCondition.Outcome.MISMATCH), lost, "the second writer read aaa too");
        assertEquals(won, new ManifestStore(disk).find("k").orElseThrow());
    }

    @Test
    void claim_ofATombstone_isAConditionalDelete_storedAboveTheHeadWithThisRegionsAcknowledgement() throws IOException {
        Versions v = versions("saopaulo");
        Manifest a = v.commit(tagged("k", "f1", "aaa"));
        Manifest draft = Manifest.tombstone("k", "t1", "seoul", 1, Version.legacy(1, "seoul"));
        assertEquals(WriteCondition.Outcome.MISMATCH, v.claim(draft, WriteCondition.on("etag", "zzz", null)).outcome());
        Manifest t = v.claim(draft, WriteCondition.on("etag", "aaa", null)).stored();
        assertTrue(t.deleted() && t.version().compareTo(a.version()) > 0);
        ManifestHistory h = new ManifestStore(disk).history("k").orElseThrow();
        assertEquals(List.of(a, t), h.versions());
        assertEquals(h, h.acknowledgedBy("saopaulo"), "the owner acknowledged its tombstone in the same write");
        assertEquals(WriteCondition.Outcome.NOT_FOUND, v.claim(draft, WriteCondition.on("etag", "*", null)).outcome());
    }

    @Test
    void delete_isATombstoneAboveTheHead_andKeepsTheEarlierVersion() throws IOException {
        Versions v = versions("seoul");
        Manifest a = v.commit(draft("n", "f1", List.of("seoul")));
        Manifest t = v.delete("n");
        assertTrue(t.deleted() && t.version().compareTo(a.version()) > 0);
        assertEquals(List.of(a, t), new ManifestStore(disk).history("n").orElseThrow().versions());
    }

    @Test
    void retention_dropsSupersededVersions_deletingOnlyThisRegionsReplicas_thenTheUnacknowledgedTombstoneByTheFallback()
            throws IOException {
        Versions v = versions("seoul");
        Manifest mine = v.commit(draft("n", "mine", List.of("seoul", "dublin")));
        wall = 1_005_000;
        Manifest theirs = v.commit(draft("n", "theirs", List.of("dublin")));
        wall = 1_006_000;
        v.delete("n");
        wall = 1_014_999;
        v.sweep();
        assertEquals(3, new ManifestStore(disk).history("n").orElseThrow().versions().size(), "kept 10 s after superseded");
        wall = 1_015_000;
        v.sweep();
        assertEquals(2, new ManifestStore(disk).history("n").orElseThrow().versions().size());
        assertEquals(List.of(mine.blockId(0)), deleted, "this region's replica of the dropped version");
        wall = 1_016_000;
        v.sweep();
        assertEquals(1, new ManifestStore(disk).history("n").orElseThrow().versions().size(), "the tombstone alone");
        assertFalse(deleted.contains(theirs.blockId(0)), "a replica this region does not hold is not its to delete");
        wall = 1_065_999;
        v.sweep();
        assertTrue(new ManifestStore(disk).history("n").isPresent(), "dublin never acknowledged it: kept until the fallback");
        wall = 1_066_000;
        v.sweep();
        assertEquals(Optional.empty(), new ManifestStore(disk).history("n"));
        assertEquals(3, v.dropped);
        assertEquals(1, v.tombstonesExpired);
        assertEquals(0, v.tombstonesAcknowledged);
    }

    @Test
    void delete_recordsThisRegionsAcknowledgement_inTheSameDurableRecord() throws IOException {
        Versions v = versions("seoul");
        v.commit(draft("n", "f1", List.of("seoul")));
        v.delete("n");
        assertEquals(List.of("seoul"), new ManifestStore(disk).history("n").orElseThrow().acknowledged());
    }

    @Test
    void merge_ofAPeersTombstone_addsThisRegion_andTheNameGoesOnceEveryRegionAcknowledged() throws IOException {
        Versions v = versions("dublin");
        Manifest old = v.commit(draft("n", "f1", List.of("dublin")));
        Manifest tomb = Manifest.tombstone("n", "t", "seoul", 1, new Version(HybridClock.of(1_001_000, 0), "seoul"));
        wall = 1_001_000;
        v.merge(ManifestHistory.of(tomb)); // published by seoul, which has not learnt anyone else's acknowledgement
        assertEquals(List.of("dublin"), new ManifestStore(disk).history("n").orElseThrow().acknowledged());
        wall = 1_020_000; // the version retention passed: the old version goes, the tombstone waits for seoul
        v.sweep();
        assertEquals(List.of(tomb), new ManifestStore(disk).history("n").orElseThrow().versions());
        assertEquals(List.of(old.blockId(0)), deleted);
        v.merge(ManifestHistory.of(tomb).acknowledgedBy("seoul")); // anti-entropy brings seoul's acknowledgement
        assertEquals(List.of("dublin", "seoul"), new ManifestStore(disk).history("n").orElseThrow().acknowledged());
        wall = 1_022_999; // grace of 3 s from when this node learnt it
        v.sweep();
        assertTrue(new ManifestStore(disk).history("n").isPresent(), "kept for the grace");
        wall = 1_023_000;
        v.sweep();
        assertEquals(Optional.empty(), new ManifestStore(disk).history("n"));
        assertEquals(1, v.tombstonesAcknowledged);
    }

    @Test
    void merge_ofATombstoneThisRegionAlreadyForgot_storesNothing_butAPartlyAcknowledgedOneIsStored() throws IOException {
        Versions v = versions("seoul");
        wall = 2_000_000;
        Manifest tomb = Manifest.tombstone("n", "t", "dublin", 1, new Version(HybridClock.of(1_000_000, 0), "dublin"));
        ManifestHistory full = ManifestHistory.of(tomb).acknowledgedBy("dublin").acknowledgedBy("seoul");
        assertEquals(Optional.empty(), v.merge(full));
        assertEquals(Optional.empty(), new ManifestStore(disk).history("n"));
        v.merge(ManifestHistory.of(tomb).acknowledgedBy("dublin"));
        assertEquals(List.of("dublin", "seoul"), new ManifestStore(disk).history("n").orElseThrow().acknowledged());
    }

    @Test
    void put_afterADelete_createsTheNameAgain_andTheRetentionKeepsIt() throws IOException {
        Versions v = versions("seoul");
        v.commit(draft("n", "f1", List.of("seoul")));
        v.delete("n");
        v.merge(new ManifestStore(disk).history("n").orElseThrow().acknowledgedBy("dublin"));
        Manifest again = v.commit(draft("n", "f2", List.of("seoul")));
        wall += 100_000;
        v.sweep();
        ManifestHistory h = new ManifestStore(disk).history("n").orElseThrow();
        assertEquals(List.of(again), h.versions());
        assertEquals(List.of(), h.acknowledged());
    }

    @Test
    void sweep_acknowledgesATombstoneStoredBeforeAcknowledgementsExisted() throws IOException {
        ManifestStore store = new ManifestStore(disk);
        store.save(Manifest.tombstone("n", "t", "dublin", 1, new Version(HybridClock.of(999_000, 0), "dublin")));
        versions("seoul").sweep();
        assertEquals(List.of("seoul"), new ManifestStore(disk).history("n").orElseThrow().acknowledged());
    }

    @Test
    void merge_ofAVersionTheRetentionAlreadyDropped_dropsItAgainAtOnce() throws IOException {
        Versions v = versions("seoul");
        Manifest old = draft("n", "old", List.of("seoul")).withVersion(new Version(HybridClock.of(10, 0), "dublin"));
        Manifest head = draft("n", "new", List.of("seoul")).withVersion(new Version(HybridClock.of(20, 0), "dublin"));
        assertEquals(List.of(head), v.merge(new ManifestHistory("n", List.of(old, head))).orElseThrow().versions());
        assertEquals(List.of(old.blockId(0)), deleted);
    }

    @Test
    void mergeAll_storesWhatMergeWould_observingClocks_skippingForgottenTombstones_applyingTheRetention()
            throws IOException {
        Versions v = versions("seoul");
        wall = 2_000_000;
        Manifest a = draft("a", "fa", List.of("dublin")).withVersion(new Version(HybridClock.of(9_000_000, 4), "dublin"));
        Manifest oldB = draft("b", "old", List.of("seoul")).withVersion(new Version(HybridClock.of(10, 0), "dublin"));
        Manifest newB = draft("b", "new", List.of("dublin")).withVersion(new Version(HybridClock.of(20, 0), "dublin"));
        Manifest c = Manifest.tombstone("c", "t", "dublin", 1, new Version(HybridClock.of(1_000_000, 0), "dublin"));
        Manifest d = Manifest.tombstone("d", "t", "dublin", 1, new Version(HybridClock.of(1_000_000, 0), "dublin"));
        int changed = v.mergeAll(List.of(ManifestHistory.of(a), new ManifestHistory("b", List.of(oldB, newB)),
                ManifestHistory.of(c).acknowledgedBy("dublin").acknowledgedBy("seoul"),
                ManifestHistory.of(d).acknowledgedBy("dublin")));
        assertEquals(3, changed, "a, b and d; c is a tombstone this region already forgot");
        ManifestStore s = new ManifestStore(disk);
        assertEquals(List.of(a), s.history("a").orElseThrow().versions());
        assertEquals(List.of(newB), s.history("b").orElseThrow().versions(), "the retention dropped the old version");
        assertEquals(List.of(oldB.blockId(0)), deleted);
        assertEquals(Optional.empty(), s.history("c"));
        assertEquals(List.of("dublin", "seoul"), s.history("d").orElseThrow().acknowledged());
        assertEquals(0, v.mergeAll(List.of(ManifestHistory.of(a))), "nothing new");
        Manifest mine = v.commit(draft("e", "fe", List.of("seoul")));
        assertEquals(new Version(HybridClock.of(9_000_000, 5), "seoul"), mine.version(), "the peers' clocks observed");
    }
}
