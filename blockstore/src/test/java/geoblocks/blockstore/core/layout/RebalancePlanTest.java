package geoblocks.blockstore.core.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RebalancePlanTest {
    static final Layout THREE = Layout.fromConfig(Map.of("a", "10.0.0.1:1", "b", "10.0.0.2:1", "c", "10.0.0.3:1"));
    static final Layout FOUR = LayoutChangesTest.apply(THREE, new LayoutChange.Add("d", "10.0.0.4:1", null, 0)).layout();
    static final List<String> UP = List.of("a", "b", "c", "d");

    static Manifest file(String id, String policy, int blocks, List<String> homes) {
        List<Manifest.BlockRef> refs = new ArrayList<>();
        for (int i = 0; i < blocks; i++) {
            refs.add(new Manifest.BlockRef(1000, 1, homes));
        }
        return new Manifest("n/" + id, id, 1000L * blocks, 1000, policy, homes.get(0), 1, refs, new Version(5, "a"), 0,
                false, Map.of());
    }

    /** {@code n} two-copy tworandom files spread evenly over a, b and c. */
    static List<Manifest> spreadOverThree(int n) {
        List<List<String>> pairs = List.of(List.of("a", "b"), List.of("b", "c"), List.of("a", "c"));
        List<Manifest> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(file("f" + i, "tworandom", 1, pairs.get(i % 3)));
        }
        return out;
    }

    static Map<String, Long> held(List<Manifest> files) {
        Map<String, Long> h = new TreeMap<>();
        files.forEach(m -> RebalancePlan.add(h, m));
        return h;
    }

    @Test
    void aNewcomer_isShortByItsShare_andTheOthersGiveInProportion() {
        RebalancePlan p = new RebalancePlan(FOUR, held(spreadOverThree(300)));
        assertEquals(Map.of("a", 150_000L, "b", 150_000L, "c", 150_000L, "d", 150_000L), p.targets());
        assertEquals(Map.of("d", 150_000L), p.shortBy());
        assertEquals(150_000L, p.shortTotal(), "the least that must move: the newcomer's share");
    }

    @Test
    void movesAboutTheMinimum_onlyToTheNewcomer_keepingEachVersionsCopyCount() {
        List<Manifest> files = spreadOverThree(3000);
        RebalancePlan p = new RebalancePlan(FOUR, held(files));
        long moved = 0;
        Map<String, Long> after = new TreeMap<>(held(files));
        for (Manifest m : files) {
            Optional<RebalancePlan.Move> mv = p.decide(m, UP);
            if (mv.isPresent()) {
                assertEquals("d", mv.get().target());
                assertTrue(m.blocks().get(0).replicas().contains(mv.get().source()));
                assertEquals(2, mv.get().targets().size());
                assertFalse(mv.get().targets().contains(mv.get().source()));
                moved += m.size();
                after.merge(mv.get().source(), -m.size(), Long::sum);
                after.merge("d", m.size(), Long::sum);
            }
        }
        long min = p.shortTotal();
        assertTrue(moved > 0.9 * min && moved < 1.1 * min, "moved " + moved + " bytes, the minimum is " + min);
        RebalancePlan again = new RebalancePlan(FOUR, after);
        assertTrue(again.shortBy().isEmpty(), "balanced within the tolerance afterwards: " + after);
    }

    @Test
    void theChoiceIsTheSameEverywhere_andStopsOnceFilled() {
        List<Manifest> files = spreadOverThree(300);
        RebalancePlan p1 = new RebalancePlan(FOUR, held(files));
        RebalancePlan p2 = new RebalancePlan(FOUR, held(files));
        for (Manifest m : files) {
            assertEquals(p1.decide(m, UP), p2.decide(m, UP));
        }
        Map<String, Long> filled = Map.of("a", 150_000L, "b", 150_000L, "c", 150_000L, "d", 140_000L);
        assertEquals(Optional.empty(), new RebalancePlan(FOUR, filled).decide(files.get(0), UP));
        assertEquals(Optional.empty(), new RebalancePlan(THREE, held(files)).decide(files.get(0), UP),
                "a balanced layout moves nothing");
    }

    @Test
    void pinnedCopies_nonUniformVersions_downRegionsAndDrainingHomes_stay() {
        Map<String, Long> h = held(spreadOverThree(300));
        RebalancePlan p = new RebalancePlan(FOUR, h);
        int local = 0;
        for (int i = 0; i < 200; i++) {
            Manifest m = file("l" + i, "local", 1, List.of("a"));
            local += p.decide(m, UP).isPresent() ? 1 : 0;
        }
        assertEquals(0, local, "a local copy is pinned to its region");
        Manifest mixed = new Manifest("n/x", "x", 2000, 1000, "tworandom", "a", 1, List.of(
                new Manifest.BlockRef(1000, 1, List.of("a", "b")), new Manifest.BlockRef(1000, 1, List.of("a", "c"))),
                new Version(5, "a"), 0, false, Map.of());
        assertEquals(Optional.empty(), p.decide(mixed, UP));
        int toDown = 0;
        for (Manifest m : spreadOverThree(300)) {
            toDown += p.decide(m, List.of("a", "b", "c")).isPresent() ? 1 : 0;
        }
        assertEquals(0, toDown, "nothing goes to a newcomer that is down");
        Layout drainingB = LayoutChangesTest.apply(FOUR, new LayoutChange.Drain("b")).layout();
        RebalancePlan q = new RebalancePlan(drainingB, h);
        for (Manifest m : spreadOverThree(300)) {
            q.decide(m, UP).ifPresent(mv -> assertFalse(m.blocks().get(0).replicas().contains("b"), "a drain moves it"));
        }
    }

    @Test
    void declaredCapacities_weightTheShares() {
        Layout l = new Layout(1, Map.of("a", new Region("a", "10.0.0.1:1", "a", 100, RegionState.ACTIVE),
                "b", new Region("b", "10.0.0.2:1", "b", 300, RegionState.ACTIVE)), List.of(), 0);
        RebalancePlan p = new RebalancePlan(l, Map.of("a", 500L, "b", 500L));
        assertEquals(Map.of("a", 250L, "b", 750L), p.targets());
        assertEquals(Map.of("b", 250L), p.shortBy());
    }

    @Test
    void unit_isUniformEnough() {
        Random r = new Random(1);
        int below = 0;
        for (int i = 0; i < 10_000; i++) {
            double u = RebalancePlan.unit("f" + r.nextLong(), "a");
            assertTrue(u >= 0 && u < 1);
            below += u < 0.25 ? 1 : 0;
        }
        assertTrue(below > 2300 && below < 2700, below + " of 10000 below 0.25");
    }

    @Test
    void inASmallStore_aBoostFindsACopy_andNoMoveOnlyTradesPlaces() {
        List<Manifest> files = List.of(file("x", "tworandom", 3, List.of("a", "b")), file("y", "tworandom", 3,
                List.of("b", "c")), file("z", "tworandom", 3, List.of("a", "c")));
        Map<String, Long> h = held(files); // 6000 each of a, b, c; d's share is 4500
        RebalancePlan p = new RebalancePlan(FOUR, h);
        assertEquals(Map.of("d", 4500L), p.shortBy());
        for (Manifest m : files) {
            p.decide(m, UP).ifPresent(mv -> assertEquals("d", mv.target()));
        }
        RebalancePlan boosted = new RebalancePlan(FOUR, h, 64);
        int picked = 0;
        for (Manifest m : files) {
            picked += boosted.decide(m, UP).isPresent() ? 1 : 0;
        }
        assertTrue(picked >= 1, "with every rate at 1 each version is picked");
        List<Manifest> one = List.of(file("only", "tworandom", 3, List.of("a", "b")));
        RebalancePlan q = new RebalancePlan(FOUR, held(one), 64); // a, b 1500 above their share, c, d 1500 below
        assertEquals(Optional.empty(), q.decide(one.get(0), UP), "d would only trade places with a");
        assertThrows(IllegalArgumentException.class, () -> new RebalancePlan(FOUR, h, 0.5));
    }
}
