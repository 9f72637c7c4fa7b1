package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RemovalGraceTest {
    private static Layout layout(long version, RegionState dublin) {
        return new Layout(version, Map.of("seoul", new Region("seoul", "127.0.0.1:1", "seoul", 0, RegionState.ACTIVE),
                "dublin", new Region("dublin", "127.0.0.1:2", "dublin", 0, dublin)), List.of(), 0);
    }

    @Test
    void aRemovedRegion_isServedForTheGraceAfterThisNodeLearnedOfIt_thenNotAnyMore() {
        RemovalGrace g = new RemovalGrace(30);
        g.layout(layout(1, RegionState.DRAINING), 0);
        assertFalse(g.serves("dublin", 5), "a member is not in a grace (it is served as a member)");
        g.layout(layout(2, RegionState.REMOVED), 100);
        assertTrue(g.serves("dublin", 100));
        g.layout(layout(2, RegionState.REMOVED), 120); // the same layout again: the grace does not restart
        assertTrue(g.serves("dublin", 129));
        assertFalse(g.serves("dublin", 130));
        assertFalse(g.serves("seoul", 110));
        assertFalse(g.serves("tokyo", 110));
    }

    @Test
    void aRegionAddedBackAndRemovedAgain_getsANewGrace() {
        RemovalGrace g = new RemovalGrace(30);
        g.layout(layout(2, RegionState.REMOVED), 0);
        g.layout(layout(3, RegionState.ACTIVE), 50);
        assertFalse(g.serves("dublin", 55));
        g.layout(layout(4, RegionState.REMOVED), 60);
        assertTrue(g.serves("dublin", 80));
        assertThrows(IllegalArgumentException.class, () -> new RemovalGrace(-1));
    }
}
