package geoblocks.app.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.Region;
import geoblocks.blockstore.core.layout.RegionState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TargetsTest {
    private static final List<String> CONFIG = List.of("seoul", "dublin", "saopaulo", "mumbai");

    private static Layout layout(long version, Map<String, RegionState> states) {
        Map<String, Region> rs = new TreeMap<>();
        int port = 1;
        for (Map.Entry<String, RegionState> e : states.entrySet()) {
            rs.put(e.getKey(), new Region(e.getKey(), "127.0.0.1:" + port++, e.getKey(), 0, e.getValue()));
        }
        return new Layout(version, rs, List.of(), 0);
    }

    @Test
    void adopt_followsAddedDrainingAndRemovedRegions_inTheConfigsOrder() {
        Targets t = new Targets(List.of("seoul", "dublin", "saopaulo"), CONFIG);
        assertFalse(t.adopt(layout(0, Map.of("seoul", RegionState.ACTIVE, "dublin", RegionState.ACTIVE,
                "saopaulo", RegionState.ACTIVE))));
        assertEquals(0, t.version());
        assertTrue(t.adopt(layout(1, Map.of("seoul", RegionState.ACTIVE, "dublin", RegionState.ACTIVE,
                "saopaulo", RegionState.ACTIVE, "mumbai", RegionState.ACTIVE))));
        assertEquals(CONFIG, t.get());
        assertFalse(t.adopt(layout(2, Map.of("seoul", RegionState.ACTIVE, "dublin", RegionState.DRAINING,
                "saopaulo", RegionState.ACTIVE, "mumbai", RegionState.ACTIVE))), "a draining region still gets requests");
        assertTrue(t.adopt(layout(3, Map.of("seoul", RegionState.ACTIVE, "dublin", RegionState.REMOVED,
                "saopaulo", RegionState.ACTIVE, "mumbai", RegionState.ACTIVE))));
        assertEquals(List.of("seoul", "saopaulo", "mumbai"), t.get());
        assertEquals(3, t.version());
    }

    @Test
    void adopt_ignoresOlderLayouts_andMembersTheConfigCannotAddress() {
        Targets t = new Targets(List.of("seoul", "dublin"), CONFIG);
        assertTrue(t.adopt(layout(2, Map.of("seoul", RegionState.ACTIVE, "dublin", RegionState.REMOVED,
                "tokyo", RegionState.ACTIVE))));
        assertEquals(List.of("seoul"), t.get());
        assertFalse(t.adopt(layout(1, Map.of("seoul", RegionState.ACTIVE, "dublin", RegionState.ACTIVE))));
        assertEquals(List.of("seoul"), t.get());
        assertFalse(t.adopt(layout(3, Map.of("tokyo", RegionState.ACTIVE))), "no addressable member: kept");
        assertEquals(List.of("seoul"), t.get());
    }

    @Test
    void start_refusesRegionsOutsideTheConfig() {
        assertThrows(IllegalArgumentException.class, () -> new Targets(List.of("tokyo"), CONFIG));
        assertThrows(IllegalArgumentException.class, () -> new Targets(List.of(), CONFIG));
    }
}
