package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.Manifest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ZoneRepairTest {
    static final List<String> ALL = List.of("a", "b", "c", "d", "e");

    /** a and b in zone x, c in y, d in z, e in x; every region active (or {@code draining}). */
    static Layout zoned(String draining) {
        Map<String, Region> r = new TreeMap<>();
        Map<String, String> zone = Map.of("a", "x", "b", "x", "c", "y", "d", "z", "e", "x");
        for (String id : ALL) {
            r.put(id, new Region(id, "10.0.0." + (1 + ALL.indexOf(id)) + ":1", zone.get(id), 0,
                    id.equals(draining) ? RegionState.DRAINING : RegionState.ACTIVE));
        }
        return new Layout(2, r, ALL, 1);
    }

    static Manifest file(List<List<String>> blocks) {
        return DrainPlanTest.file(blocks); // tworandom, blocks of 10 bytes
    }

    @Test
    void aSecondCopyInTheFirstCopysZone_movesToTheEmptiestRegionOfAnotherZone() {
        Manifest m = file(List.of(List.of("a", "b"), List.of("a", "b")));
        assertEquals(List.of("a", "d"), ZoneRepair.targets(m, zoned(null), ALL, Map.of("c", 500L, "d", 100L)));
        assertEquals(List.of("a", "c"), ZoneRepair.targets(m, zoned(null), ALL, Map.of()), "by id among equals");
        Manifest firstLater = file(List.of(List.of("b", "a")));
        assertEquals(List.of("b", "c"), ZoneRepair.targets(firstLater, zoned(null), ALL, Map.of()),
                "the first copy (the uploader's) always stays");
    }

    @Test
    void copiesAlreadyInDifferentZones_orNoZonesDeclared_stay() {
        assertEquals(List.of(), ZoneRepair.targets(file(List.of(List.of("a", "c", "d"))), zoned(null), ALL, Map.of()));
        Layout plain = Layout.fromConfig(Map.of("a", "10.0.0.1:1", "b", "10.0.0.2:1", "c", "10.0.0.3:1"));
        assertEquals(List.of(), ZoneRepair.targets(file(List.of(List.of("a", "b"))), plain, List.of("a", "b", "c"), Map.of()));
        assertEquals(List.of(), ZoneRepair.targets(file(List.of(List.of("a"))), zoned(null), ALL, Map.of()), "one copy");
    }

    @Test
    void threeCopiesInOneZone_takeOneZoneEach_andNeverAZoneAKeptCopyHas() {
        Manifest m = file(List.of(List.of("a", "b", "e")));
        assertEquals(List.of("a", "c", "d"), ZoneRepair.targets(m, zoned(null), ALL, Map.of()));
        Manifest keeps = file(List.of(List.of("a", "b", "c")));
        assertEquals(List.of("a", "d", "c"), ZoneRepair.targets(keeps, zoned(null), ALL, Map.of("d", 900L)),
                "c keeps zone y, so b goes to z even though d is fuller");
    }

    @Test
    void withNoFreeZoneUp_theCopyCountWins_andNothingMoves() {
        Manifest m = file(List.of(List.of("a", "b")));
        assertEquals(List.of(), ZoneRepair.targets(m, zoned(null), List.of("a", "b", "e"), Map.of()), "c and d are down");
        assertEquals(List.of("a", "d"), ZoneRepair.targets(m, zoned(null), List.of("a", "b", "d"), Map.of()));
    }

    @Test
    void versionsADrainMoves_withADownHome_orWithBlocksApart_stay() {
        assertEquals(List.of(), ZoneRepair.targets(file(List.of(List.of("a", "b"))), zoned("b"), ALL, Map.of()));
        assertEquals(List.of(), ZoneRepair.targets(file(List.of(List.of("a", "b"))), zoned(null), List.of("a", "c", "d"),
                Map.of()));
        assertEquals(List.of(), ZoneRepair.targets(file(List.of(List.of("a", "b"), List.of("a", "c"))), zoned(null), ALL,
                Map.of()));
    }
}
