package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.Version;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DrainPlanTest {
    static final Layout FOUR = Layout.fromConfig(Map.of("a", "10.0.0.1:1", "b", "10.0.0.2:1", "c", "10.0.0.3:1",
            "d", "10.0.0.4:1"));
    static final Layout B_DRAINING = LayoutChangesTest.apply(FOUR, new LayoutChange.Drain("b")).layout();
    static final List<String> ALL_UP = List.of("a", "c", "d");

    static Manifest file(List<List<String>> blocks) {
        List<Manifest.BlockRef> refs = blocks.stream().map(r -> new Manifest.BlockRef(10, 1, r)).toList();
        return new Manifest("f", "id1", 10L * refs.size(), 10, "tworandom", "a", 1, refs, new Version(5, "a"), 0, false,
                Map.of());
    }

    @Test
    void noCopyAtADrainingRegion_nothingMoves() {
        Manifest m = file(List.of(List.of("a", "c"), List.of("c", "d")));
        assertFalse(DrainPlan.needsMove(m, B_DRAINING));
        assertEquals(List.of(), DrainPlan.targets(m, B_DRAINING, ALL_UP));
        assertFalse(DrainPlan.needsMove(file(List.of(List.of("b"))), FOUR), "nothing drains in the old layout");
    }

    @Test
    void keepsEachBlocksCopyCount_movingOnlyTheDrainedCopies() {
        Manifest m = file(List.of(List.of("b", "c"), List.of("b", "c"), List.of("d", "b")));
        assertTrue(DrainPlan.needsMove(m, B_DRAINING));
        assertEquals(List.of(List.of("c", "a"), List.of("c", "a"), List.of("d", "a")), DrainPlan.targets(m, B_DRAINING, ALL_UP),
                "three copies at b, three new ones; c's and d's copies stay");
    }

    @Test
    void blocksWithNoCopyAtTheDrainingRegion_stayWhereTheyAre() {
        // random with one copy a block: only the block at b moves (the whole version used to go to a)
        Manifest m = file(List.of(List.of("a"), List.of("b"), List.of("c")));
        assertEquals(List.of(List.of("a"), List.of("d"), List.of("c")),
                DrainPlan.targets(m, B_DRAINING, ALL_UP, Map.of("a", 50L, "c", 40L, "d", 30L)));
    }

    @Test
    void aVersionWholeAtTheDrainingRegion_staysTogether_atTheEmptiest() {
        Manifest m = file(List.of(List.of("b"), List.of("b"), List.of("b")));
        assertEquals(List.of(List.of("c"), List.of("c"), List.of("c")),
                DrainPlan.targets(m, B_DRAINING, ALL_UP, Map.of("a", 50L, "c", 10L, "d", 30L)));
    }

    @Test
    void fillsWithActiveRegionsThatAreUp_byId() {
        Manifest m = file(List.of(List.of("b", "d")));
        assertEquals(List.of(List.of("d", "a")), DrainPlan.targets(m, B_DRAINING, ALL_UP));
        assertEquals(List.of(List.of("d", "c")), DrainPlan.targets(m, B_DRAINING, List.of("c", "d")));
    }

    @Test
    void waitsWhenTooFewActiveRegionsAreUp_orAKeptTargetIsDown() {
        Manifest m = file(List.of(List.of("b", "d")));
        assertEquals(List.of(), DrainPlan.targets(m, B_DRAINING, List.of("d")));
        assertEquals(List.of(), DrainPlan.targets(m, B_DRAINING, List.of("a", "c")), "d holds it but is down");
    }

    @Test
    void inlineAndDeletedVersions_haveNoBlocksToMove() {
        Manifest t = Manifest.tombstone("f", "t1", "a", 1, new Version(6, "a"));
        assertFalse(DrainPlan.needsMove(t, B_DRAINING));
        Manifest in = Manifest.inline("f", "i1", 10, "local", "b", 1, new Version(7, "b"), Map.of(), new byte[] {1});
        assertFalse(DrainPlan.needsMove(in, B_DRAINING));
    }

    static Manifest version(String fileId, long clock, List<String> homes) {
        return new Manifest("f", fileId, 10, 10, "tworandom", "a", clock, List.of(new Manifest.BlockRef(10, 1, homes)),
                new Version(clock, "a"), 0, false, Map.of());
    }

    @Test
    void toMove_listsEveryKeptVersionWithACopyThere_newestFirst_notOnlyTheCurrentOne() {
        Manifest v1 = version("v1", 1, List.of("b", "c"));
        Manifest v2 = version("v2", 2, List.of("a", "c"));
        Manifest v3 = version("v3", 3, List.of("b", "d"));
        Manifest gone = Manifest.tombstone("f", "t4", "a", 4, new Version(4, "a"));
        ManifestHistory h = new ManifestHistory("f", List.of(v1, v2, v3, gone));
        assertEquals(List.of(v3, v1), DrainPlan.toMove(h, B_DRAINING), "the deleted name's earlier versions count too");
        assertEquals(List.of(), DrainPlan.toMove(h, FOUR));
        assertEquals(Set.of("b"), DrainPlan.unplaceable(v1, B_DRAINING));
    }

    @Test
    void fillsTheEmptiestActiveRegionsFirst_whenByteCountsAreGiven() {
        Manifest m = file(List.of(List.of("b", "d")));
        assertEquals(List.of(List.of("d", "c")), DrainPlan.targets(m, B_DRAINING, ALL_UP, Map.of("a", 500L, "c", 20L, "d", 900L)));
        assertEquals(List.of(List.of("d", "a")), DrainPlan.targets(m, B_DRAINING, ALL_UP, Map.of("a", 20L, "c", 20L)),
                "by id among equals");
    }

    /** a and c in zone x, b (draining) and d in zone y. */
    static Layout zoned(String bZone) {
        Map<String, Region> r = new TreeMap<>();
        r.put("a", new Region("a", "10.0.0.1:1", "x", 0, RegionState.ACTIVE));
        r.put("b", new Region("b", "10.0.0.2:1", bZone, 0, RegionState.DRAINING));
        r.put("c", new Region("c", "10.0.0.3:1", "x", 0, RegionState.ACTIVE));
        r.put("d", new Region("d", "10.0.0.4:1", "y", 0, RegionState.ACTIVE));
        return new Layout(1, r, List.of("a", "b", "c", "d"), 1);
    }

    @Test
    void zones_theMovedCopyGoesToAZoneTheVersionLacks_evenIfItIsNotTheEmptiest() {
        Manifest m = file(List.of(List.of("b", "a")));
        Map<String, Long> bytes = Map.of("a", 0L, "c", 0L, "d", 1_000_000L);
        assertEquals(List.of(List.of("a", "c")), DrainPlan.targets(m, B_DRAINING, ALL_UP, bytes), "no zones: the emptiest (c)");
        assertEquals(List.of(List.of("a", "d")), DrainPlan.targets(m, zoned("y"), ALL_UP, bytes), "c shares a's zone x; d is in y");
        assertEquals(List.of(List.of("a", "c")), DrainPlan.targets(m, zoned("y"), List.of("a", "c"), bytes),
                "d is down: the copy count wins over the zones");
    }
}
