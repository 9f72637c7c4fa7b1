package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link ZoneSpread} through {@link PolicySet#decide}: copies in different zones of the cluster layout. */
class ZoneSpreadTest {
    /** seoul and mumbai in one zone, dublin and saopaulo in another. */
    static final Map<String, String> TWO_ZONES = Map.of("seoul", "asia", "mumbai", "asia", "dublin", "west",
            "saopaulo", "west");

    static PlacementInput input(String self, Map<String, String> zones, long seed, List<String> held, String... down) {
        return new PlacementInput(Fixtures.table(self, down), Map.of(), MIB, held, new Random(seed), Set.of(), zones);
    }

    static List<String> place(String policy, PlacementInput in) {
        PolicySet.Decision d = PolicySet.defaults().decide(PlacementRequest.upload(policy, MIB), in);
        assertTrue(d.ok(), () -> d.refusal());
        return d.regions();
    }

    @Test
    void localclosest_secondCopyIsTheNearestRegionOfAnotherZone() {
        PlacementInput plain = input("seoul", Map.of(), 1, List.of());
        List<String> without = place("localclosest", plain);
        assertEquals("seoul", without.get(0));
        String nearestElsewhere = plain.nearestFirst(List.of("dublin", "saopaulo")).get(0);
        List<String> with = place("localclosest", input("seoul", TWO_ZONES, 1, List.of()));
        assertEquals(List.of("seoul", nearestElsewhere), with);
        assertEquals(List.of("seoul", "mumbai"), without, "without zones: seoul's closest peer (160 ms)");
        assertEquals("dublin", nearestElsewhere, "252 ms, against saopaulo's 298");
    }

    @Test
    void tworandom_neverPutsBothCopiesInOneZone_whileWithoutZonesItOftenDoes() {
        int sameZoneWithout = 0;
        for (long seed = 1; seed <= 500; seed++) {
            List<String> with = place("tworandom", input("dublin", TWO_ZONES, seed, List.of()));
            assertNotEquals(TWO_ZONES.get(with.get(0)), TWO_ZONES.get(with.get(1)), "seed " + seed + ": " + with);
            List<String> without = place("tworandom", input("dublin", Map.of(), seed, List.of()));
            sameZoneWithout += TWO_ZONES.get(without.get(0)).equals(TWO_ZONES.get(without.get(1))) ? 1 : 0;
        }
        assertTrue(sameZoneWithout > 100, "without zones a third of the pairs share a zone: " + sameZoneWithout);
    }

    @Test
    void aReplacement_goesToAZoneTheSurvivingCopiesDoNotHave() {
        PolicySet.Decision d = PolicySet.defaults().decide(PlacementRequest.replacement("localclosest", MIB,
                List.of("seoul")), input("seoul", TWO_ZONES, 1, List.of("seoul")));
        assertTrue(d.ok(), d::refusal);
        assertEquals("west", TWO_ZONES.get(d.regions().get(0)), "not mumbai, seoul's zone: " + d.regions());
    }

    @Test
    void whenTheOtherZonesAreDown_theCopyCountWins() {
        List<String> r = place("localclosest", input("seoul", TWO_ZONES, 1, List.of(), "dublin", "saopaulo"));
        assertEquals(List.of("seoul", "mumbai"), r, "two copies in one zone rather than one copy");
        Map<String, String> oneZone = Map.of("seoul", "all", "mumbai", "all", "dublin", "all", "saopaulo", "all");
        for (long seed = 1; seed <= 20; seed++) {
            assertEquals(place("tworandom", input("dublin", Map.of(), seed, List.of())),
                    place("tworandom", input("dublin", oneZone, seed, List.of())), "one zone: nothing to spread over");
        }
    }

    @Test
    void withoutZones_everyAnswerIsThePolicysOwn() {
        for (String policy : List.of("random", "tworandom", "local", "localclosest", "localfarthest", "localclosest3")) {
            for (long seed = 1; seed <= 20; seed++) {
                Map<String, String> ownZones = Map.of("seoul", "seoul", "mumbai", "mumbai");
                assertEquals(place(policy, input("mumbai", Map.of(), seed, List.of())),
                        place(policy, input("mumbai", ownZones, seed, List.of())), policy + " seed " + seed);
            }
        }
    }

    @Test
    void theFirstCopyOfAnUploadNeverMoves() {
        for (long seed = 1; seed <= 50; seed++) {
            assertEquals("mumbai", place("localclosest", input("mumbai", TWO_ZONES, seed, List.of())).get(0));
            assertEquals("mumbai", place("local", input("mumbai", TWO_ZONES, seed, List.of())).get(0));
        }
    }
}
