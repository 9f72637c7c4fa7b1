package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnersTest {
    private static final List<String> FOUR = List.of("seoul", "dublin", "saopaulo", "mumbai");

    @Test
    void ownerOf_isDeterministic_andIndependentOfTheListOrder() {
        for (int i = 0; i < 200; i++) {
            String name = "file-" + i;
            assertEquals(Owners.ownerOf(name, FOUR), Owners.ownerOf(name, List.of("mumbai", "saopaulo", "dublin", "seoul")));
        }
        assertEquals("saopaulo", Owners.ownerOf("photos/1", FOUR)); // pinned: every build must agree
    }

    @Test
    void ownerOf_spreadsNamesOverRegions() {
        Map<String, Integer> count = new HashMap<>();
        for (int i = 0; i < 4000; i++) {
            count.merge(Owners.ownerOf("n" + i, FOUR), 1, Integer::sum);
        }
        for (String r : FOUR) {
            assertTrue(count.get(r) > 850 && count.get(r) < 1150, count.toString());
        }
    }

    @Test
    void ownerOf_removingARegion_movesOnlyItsNames() {
        List<String> three = List.of("seoul", "dublin", "mumbai");
        for (int i = 0; i < 1000; i++) {
            String owner = Owners.ownerOf("n" + i, FOUR);
            if (!owner.equals("saopaulo")) {
                assertEquals(owner, Owners.ownerOf("n" + i, three));
            }
        }
    }

    @Test
    void ownerOf_noRegions_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> Owners.ownerOf("x", List.of()));
    }
}
