package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The five placement policies of SPEC.md, on the SPEC's measured RTTs from Seoul. */
class PolicyTest {
    private static final String SELF = "seoul";
    /** SPEC.md RTTs from Seoul: Mumbai 160 (closest), Dublin 252, Sao Paulo 298 (farthest). */
    private static final RttTable ALL_UP = new RttTable(SELF,
            Map.of("dublin", 252.0, "saopaulo", 298.0, "mumbai", 160.0), Set.of());
    private static final int DRAWS = 8000;

    private static RttTable withDown(String... down) {
        Map<String, Double> up = new TreeMap<>(ALL_UP.upRttMs());
        for (String d : down) {
            up.remove(d);
        }
        return new RttTable(SELF, up, Set.of(down));
    }

    // ---- parse

    @ParameterizedTest
    @ValueSource(strings = {"local", "LOCAL", "Local", " local ", "lOcAl"})
    void parse_anyCase_findsPolicy(String s) {
        assertEquals(Policy.LOCAL, Policy.parse(s));
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void parse_ownId_roundTrips(Policy p) {
        assertEquals(p, Policy.parse(p.id()));
        assertEquals(p.name().toLowerCase(Locale.ROOT), p.id());
    }

    @Test
    void parse_unknownPolicy_messageNamesItAndListsChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Policy.parse("nearest"));
        assertTrue(e.getMessage().contains("'nearest'"), e.getMessage());
        for (Policy p : Policy.values()) {
            assertTrue(e.getMessage().contains(p.id()), e.getMessage());
        }
    }

    @Test
    void parse_emptyOrNull_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> Policy.parse(""));
        assertThrows(IllegalArgumentException.class, () -> Policy.parse(null));
    }

    @Test
    void names_listsAllFive() {
        assertEquals("random, tworandom, local, localclosest, localfarthest", Policy.names());
    }

    @Test
    void copies_matchSpec() {
        assertEquals(1, Policy.RANDOM.copies());
        assertEquals(2, Policy.TWORANDOM.copies());
        assertEquals(1, Policy.LOCAL.copies());
        assertEquals(2, Policy.LOCALCLOSEST.copies());
        assertEquals(2, Policy.LOCALFARTHEST.copies());
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void place_returnsAsManyRegionsAsCopies(Policy p) throws PlacementException {
        assertEquals(p.copies(), p.place(ALL_UP, new Random(1)).size());
    }

    // ---- deterministic policies

    @Test
    void place_local_isSelfOnly() throws PlacementException {
        assertEquals(List.of(SELF), Policy.LOCAL.place(ALL_UP, new Random(1)));
        assertEquals(List.of(SELF), Policy.LOCAL.place(RttTable.alone(SELF), new Random(1)));
    }

    @Test
    void place_localclosest_isSelfThenLowestRttPeer() throws PlacementException {
        assertEquals(List.of(SELF, "mumbai"), Policy.LOCALCLOSEST.place(ALL_UP, new Random(1)));
    }

    @Test
    void place_localfarthest_isSelfThenHighestRttPeer() throws PlacementException {
        assertEquals(List.of(SELF, "saopaulo"), Policy.LOCALFARTHEST.place(ALL_UP, new Random(1)));
    }

    @Test
    void place_localclosest_closestDown_takesNextClosestUpPeer() throws PlacementException {
        assertEquals(List.of(SELF, "dublin"), Policy.LOCALCLOSEST.place(withDown("mumbai"), new Random(1)));
    }

    @Test
    void place_localfarthest_farthestDown_takesNextFarthestUpPeer() throws PlacementException {
        assertEquals(List.of(SELF, "dublin"), Policy.LOCALFARTHEST.place(withDown("saopaulo"), new Random(1)));
    }

    @Test
    void place_fromAnotherRegion_usesThatRegionsRtts() throws PlacementException {
        // SPEC.md from Dublin: Mumbai 122, Sao Paulo 184, Seoul 252
        RttTable dublin = new RttTable("dublin", Map.of("mumbai", 122.0, "saopaulo", 184.0, "seoul", 252.0), Set.of());
        assertEquals(List.of("dublin", "mumbai"), Policy.LOCALCLOSEST.place(dublin, new Random(1)));
        assertEquals(List.of("dublin", "seoul"), Policy.LOCALFARTHEST.place(dublin, new Random(1)));
    }

    @ParameterizedTest
    @EnumSource(value = Policy.class, names = {"TWORANDOM", "LOCALCLOSEST", "LOCALFARTHEST"})
    void place_twoCopyPolicy_noPeerUp_throwsPlacementException(Policy p) {
        assertThrows(PlacementException.class, () -> p.place(RttTable.alone(SELF), new Random(1)));
        assertThrows(PlacementException.class,
                () -> p.place(withDown("dublin", "saopaulo", "mumbai"), new Random(1)));
    }

    @ParameterizedTest
    @EnumSource(value = Policy.class, names = {"RANDOM", "LOCAL"})
    void place_oneCopyPolicy_alone_placesOnSelf(Policy p) throws PlacementException {
        for (int i = 0; i < 20; i++) {
            assertEquals(List.of(SELF), p.place(withDown("dublin", "saopaulo", "mumbai"), new Random(i)));
        }
    }

    // ---- random policies

    @Test
    void place_random_choosesEveryUpRegionUniformlyAndNeverADownOne() throws PlacementException {
        RttTable t = withDown("dublin");
        Random rnd = new Random(7);
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < DRAWS; i++) {
            List<String> placed = Policy.RANDOM.place(t, rnd);
            assertEquals(1, placed.size());
            counts.merge(placed.get(0), 1, Integer::sum);
        }
        assertEquals(Set.of("mumbai", "saopaulo", SELF), counts.keySet(), "chosen: " + counts);
        double expected = DRAWS / 3.0;
        counts.forEach((region, n) -> assertTrue(Math.abs(n - expected) < 0.1 * expected,
                region + " chosen " + n + " times, expected about " + expected + ": " + counts));
    }

    @Test
    void place_random_allUp_choosesAllFourRegions() throws PlacementException {
        Random rnd = new Random(8);
        Set<String> seen = new TreeSet<>();
        for (int i = 0; i < 400; i++) {
            seen.addAll(Policy.RANDOM.place(ALL_UP, rnd));
        }
        assertEquals(Set.of("dublin", "mumbai", "saopaulo", SELF), seen);
    }

    @Test
    void place_tworandom_twoDistinctUpRegionsCoveringEveryPair() throws PlacementException {
        RttTable t = withDown("mumbai");
        Random rnd = new Random(9);
        Map<Set<String>, Integer> pairs = new HashMap<>();
        Map<String, Integer> firsts = new TreeMap<>();
        for (int i = 0; i < DRAWS; i++) {
            List<String> placed = Policy.TWORANDOM.place(t, rnd);
            assertEquals(2, placed.size());
            assertNotEquals(placed.get(0), placed.get(1));
            assertFalse(placed.contains("mumbai"), "placed on a down region: " + placed);
            pairs.merge(Set.copyOf(placed), 1, Integer::sum);
            firsts.merge(placed.get(0), 1, Integer::sum);
        }
        assertEquals(Set.of(Set.of("dublin", "saopaulo"), Set.of("dublin", SELF), Set.of("saopaulo", SELF)),
                pairs.keySet());
        double expected = DRAWS / 3.0;
        pairs.forEach((pair, n) -> assertTrue(Math.abs(n - expected) < 0.1 * expected, pair + ": " + n));
        firsts.forEach((first, n) -> assertTrue(Math.abs(n - expected) < 0.1 * expected, first + " first: " + n));
    }

    @Test
    void place_tworandom_onlyOnePeerUp_isSelfAndThatPeer() throws PlacementException {
        RttTable t = withDown("dublin", "saopaulo");
        Random rnd = new Random(10);
        for (int i = 0; i < 50; i++) {
            assertEquals(Set.of(SELF, "mumbai"), Set.copyOf(Policy.TWORANDOM.place(t, rnd)));
        }
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void place_sameSeed_samePlacements(Policy p) throws PlacementException {
        assertEquals(placements(p, 1234), placements(p, 1234));
    }

    @Test
    void place_randomPolicies_differentSeeds_differentSequences() throws PlacementException {
        assertNotEquals(placements(Policy.RANDOM, 1), placements(Policy.RANDOM, 2));
        assertNotEquals(placements(Policy.TWORANDOM, 1), placements(Policy.TWORANDOM, 2));
    }

    @Test
    void place_sameSeed_independentOfMapInsertionOrder() throws PlacementException {
        Map<String, Double> forward = new LinkedHashMap<>();
        forward.put("dublin", 252.0);
        forward.put("mumbai", 160.0);
        forward.put("saopaulo", 298.0);
        Map<String, Double> backward = new LinkedHashMap<>();
        backward.put("saopaulo", 298.0);
        backward.put("mumbai", 160.0);
        backward.put("dublin", 252.0);
        RttTable a = new RttTable(SELF, forward, Set.of());
        RttTable b = new RttTable(SELF, backward, Set.of());
        for (Policy p : Policy.values()) {
            Random ra = new Random(5);
            Random rb = new Random(5);
            for (int i = 0; i < 50; i++) {
                assertEquals(p.place(a, ra), p.place(b, rb), p.id());
            }
        }
    }

    private static List<List<String>> placements(Policy p, long seed) throws PlacementException {
        Random rnd = new Random(seed);
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            out.add(p.place(ALL_UP, rnd));
        }
        return out;
    }
}
