package geoblocks.blockstore.core.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.ec.ErasureCode;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ErasurePlacementTest {
    /** Six regions seen from a: b at 1 ms, c at 2, ... f at 5. */
    private static RttTable six(String... down) {
        Map<String, Double> up = new TreeMap<>();
        String[] peers = {"b", "c", "d", "e", "f"};
        for (int i = 0; i < peers.length; i++) {
            if (!List.of(down).contains(peers[i])) {
                up.put(peers[i], i + 1.0);
            }
        }
        return new RttTable("a", up, Set.of(down));
    }

    private static PlacementInput sixIn(Map<String, String> zones, String... down) {
        return new PlacementInput(six(down), Map.of(), 1 << 20, List.of(), new Random(1), Set.of(), zones);
    }

    @Test
    void fourRegions_preset31_takesAllFour_thisNodeAndTheNearestHoldData() throws PlacementException {
        ErasurePlacement p = ErasurePlacement.preset(4);
        assertEquals("ec-3-1", p.name());
        PlacementInput in = Fixtures.input("dublin");
        List<String> regions = p.place(in);
        assertEquals(in.nearestFirst(Fixtures.REGIONS), regions);
        assertEquals("dublin", regions.get(0));
    }

    @Test
    void withoutZones_fragmentsGoNearestFirst() throws PlacementException {
        assertEquals(List.of("a", "b", "c", "d"), new ErasurePlacement("x", new ErasureCode(3, 1)).place(sixIn(Map.of())));
    }

    @Test
    void zones_getOneFragmentEach_whileTheyLast() throws PlacementException {
        Map<String, String> zones = Map.of("a", "z1", "b", "z1", "c", "z2", "d", "z2", "e", "z3");
        assertEquals(List.of("a", "c", "e", "f"), new ErasurePlacement("x", new ErasureCode(3, 1)).place(sixIn(zones)));
    }

    @Test
    void fewerZonesThanFragments_spreadsThemEvenly_nearestFirst() throws PlacementException {
        Map<String, String> zones = Map.of("a", "z1", "b", "z1", "c", "z1", "d", "z2", "e", "z2", "f", "z2");
        assertEquals(List.of("a", "d", "b", "e"), new ErasurePlacement("x", new ErasureCode(2, 2)).place(sixIn(zones)));
    }

    @Test
    void aCodeTheCandidatesCannotHold_isRefused() {
        ErasurePlacement p31 = ErasurePlacement.preset(4);
        assertThrows(PlacementException.class, () -> p31.place(Fixtures.input("dublin", Map.of(), 1, "seoul")));
        PlacementInput draining = new PlacementInput(Fixtures.table("dublin"), Map.of(), Fixtures.MIB, List.of(),
                new Random(1), Set.of("mumbai"));
        assertThrows(PlacementException.class, () -> p31.place(draining));
        PlacementInput full = Fixtures.input("dublin", Fixtures.loads("saopaulo", Fixtures.disk(100, 4)), 1);
        assertThrows(PlacementException.class, () -> p31.place(full));
        ErasurePlacement p42 = new ErasurePlacement("x", new ErasureCode(4, 2));
        assertThrows(PlacementException.class, () -> p42.place(sixIn(Map.of(), "f")));
    }

    @Test
    void presets_fitTheClusterSize() {
        int[][] expected = {{3, 2, 1}, {4, 3, 1}, {5, 4, 1}, {6, 4, 2}, {7, 5, 2}, {8, 6, 2}, {9, 6, 3}, {20, 6, 3}};
        for (int[] e : expected) {
            assertEquals(new ErasureCode(e[1], e[2]), ErasurePlacement.presetCode(e[0]), e[0] + " regions");
        }
        assertThrows(IllegalArgumentException.class, () -> ErasurePlacement.presetCode(2));
    }

    @Test
    void declarativeEc_isParsed() {
        Config c = ConfigFactory.parseString("cold { ec { data = 3, parity = 1 } }");
        ErasurePlacement p = ErasurePlacement.parse("cold", "geoblocks.placement.policies.cold.ec", c.getValue("cold.ec"), 4);
        assertEquals(new ErasureCode(3, 1), p.code());
        assertEquals("cold", p.name());
    }

    @Test
    void declarativeEc_refusesMissingUnknownBadAndTooWideCodes() {
        for (String bad : List.of("ec = 3", "ec { data = 3 }", "ec { parity = 1 }", "ec { data = 3, parity = 1, x = 1 }",
                "ec { data = 0, parity = 1 }", "ec { data = 3, parity = 0 }", "ec { data = three, parity = 1 }",
                "ec { data = 3, parity = 2 }", "ec { data = 1.5, parity = 1 }")) {
            Config c = ConfigFactory.parseString(bad);
            assertThrows(IllegalArgumentException.class, () -> ErasurePlacement.parse("p", "k.ec", c.getValue("ec"), 4), bad);
        }
    }

    @Test
    void putCannotReachErasureCoding_yet_theNodeConfigRefusesEc_andNoPolicyIsNamedForIt() {
        Config c = ConfigFactory.parseString("geoblocks.placement.policies.cold { ec { data = 3, parity = 1 } }");
        assertThrows(IllegalArgumentException.class, () -> PlacementSettings.from(c, Fixtures.REGIONS));
        PolicyCatalog catalog = PolicySet.defaults().catalog();
        assertThrows(IllegalArgumentException.class, () -> catalog.canonical(ErasurePlacement.preset(4).name()));
    }
}
