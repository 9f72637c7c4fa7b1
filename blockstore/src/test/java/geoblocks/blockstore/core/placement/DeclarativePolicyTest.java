package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static geoblocks.blockstore.core.placement.Fixtures.disk;
import static geoblocks.blockstore.core.placement.Fixtures.input;
import static geoblocks.blockstore.core.placement.Fixtures.io;
import static geoblocks.blockstore.core.placement.Fixtures.loads;
import static geoblocks.blockstore.core.placement.Fixtures.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Declarative policies on SPEC.md's RTTs: terms in order, requirements, zones, limits, refusals. */
class DeclarativePolicyTest {
    static final PolicySet POLICIES = PolicySet.build(PlacementSettingsTest.parse(PlacementSettingsTest.ZONES + """
            geoblocks.placement {
              egress-cost { seoul = 0.08, dublin = 0.02, saopaulo = 0.15, mumbai = 0.09 }
              policies {
                eu-near { copies = 2, terms = [local, closest], require = [eu] }
                spread  { copies = 2, terms = [local, closest], max-per-zone = 1 }
                no-sa   { copies = 2, terms = [local, farthest], forbid = [saopaulo] }
                cool    { copies = 2, terms = [local, closest], max-disk-use = 0.8, max-io-rate = 100 MiB }
                cheap   { copies = 2, terms = [local, cheapest] }
                zones3  { copies = 3, terms = [random, random, random], max-per-zone = 1 }
                far-eu  { copies = 2, terms = [farthest, local], require = [eu] }
              }
            }
            """), PolicySet.class.getClassLoader());

    static PolicySet.Decision place(String policy, PlacementInput in) {
        return POLICIES.decide(PlacementRequest.upload(policy, MIB), in);
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({
        // a copy in the EU: this node, then the closest region, unless only the EU can still take the last copy
        "eu-near, seoul, seoul;dublin", "eu-near, dublin, dublin;mumbai", "eu-near, saopaulo, saopaulo;dublin",
        "eu-near, mumbai, mumbai;dublin",
        // never two copies in one zone: seoul's closest (mumbai) is in its own zone asia
        "spread, seoul, seoul;dublin", "spread, mumbai, mumbai;dublin", "spread, dublin, dublin;mumbai",
        // farthest but never saopaulo
        "no-sa, seoul, seoul;dublin", "no-sa, dublin, dublin;seoul",
        // cheapest egress after this node
        "cheap, seoul, seoul;dublin", "cheap, dublin, dublin;seoul",
        // the first copy is the farthest region, so the EU copy falls to the last one
        "far-eu, dublin, seoul;dublin",
    })
    void place_allUp_followsTheRules(String policy, String self, String expected) {
        PolicySet.Decision d = place(policy, input(self));
        assertTrue(d.ok(), d.refusal());
        assertEquals(List.of(expected.split(";")), d.regions());
    }

    @Test
    void requiredZoneDown_refusedSayingWhy() {
        PolicySet.Decision d = place("eu-near", input("seoul", Map.of(), 1, "dublin"));
        assertFalse(d.ok());
        assertTrue(d.refusal().startsWith("eu-near: no region for copy 2 (closest) after [seoul]"), d.refusal());
        assertTrue(d.refusal().contains("dublin is down"), d.refusal());
        assertTrue(d.refusal().contains("mumbai: the remaining copies must go to [dublin]"), d.refusal());
    }

    @Test
    void termThatCannotMeetARequirement_refusedAtRunTime() {
        // far-eu at seoul: the farthest (saopaulo) takes copy 1, so the local copy 2 would leave the EU without one
        PolicySet.Decision d = place("far-eu", input("seoul"));
        assertFalse(d.ok());
        assertTrue(d.refusal().startsWith("far-eu: no region for copy 2 (local) after [saopaulo]"), d.refusal());
        assertTrue(d.refusal().contains("seoul: the remaining copies must go to [dublin]"), d.refusal());
    }

    @Test
    void localForbidden_refusedSayingWhy() {
        PolicySet.Decision d = place("no-sa", input("saopaulo"));
        assertFalse(d.ok());
        assertTrue(d.refusal().contains("no region for copy 1 (local)") && d.refusal().contains("saopaulo is forbidden"),
                d.refusal());
    }

    @Test
    void nearlyFullOrBusyRegion_isSkipped() {
        // from seoul the closest is mumbai: 85 % full, then busy
        assertEquals(List.of("seoul", "dublin"), place("cool", input("seoul", loads("mumbai", disk(100, 15)), 1)).regions());
        assertEquals(List.of("seoul", "dublin"), place("cool", input("seoul", loads("mumbai", io(200L << 20)), 1)).regions());
        assertEquals(List.of("seoul", "mumbai"), place("cool", input("seoul", loads("mumbai", io(50L << 20)), 1)).regions());
        PolicySet.Decision d = place("cool", input("seoul", loads("seoul", disk(100, 10)), 1));
        assertTrue(d.refusal().contains("seoul: disk 90% full, over max-disk-use 80%"), d.refusal());
    }

    @Test
    void random_maxOnePerZone_alwaysThreeZones() {
        Set<List<String>> seen = new HashSet<>();
        PlacementInput in = new PlacementInput(table("seoul"), Map.of(), MIB, List.of(), new Random(5));
        for (int i = 0; i < 200; i++) {
            List<String> r = place("zones3", in).regions();
            assertEquals(3, r.size());
            assertTrue(r.contains("dublin") && r.contains("saopaulo"), r.toString());
            assertFalse(r.contains("seoul") && r.contains("mumbai"), r.toString());
            seen.add(r);
        }
        assertTrue(seen.size() >= 6, "random orders: " + seen);
    }

    @Test
    void replacement_keepsTheRulesNextToTheCopiesThatStay() {
        // eu-near lost its dublin copy: only the EU may take the new one
        PlacementInput lostEu = new PlacementInput(table("seoul"), Map.of(), MIB, List.of("seoul"), new Random(1));
        assertEquals(List.of("dublin"),
                POLICIES.decide(PlacementRequest.replacement("eu-near", MIB, List.of("seoul")), lostEu).regions());
        // spread lost dublin (down): not mumbai (seoul's zone), so saopaulo
        PlacementInput lostDublin = new PlacementInput(table("seoul", "dublin"), Map.of(), MIB, List.of("seoul"), new Random(1));
        assertEquals(List.of("saopaulo"),
                POLICIES.decide(PlacementRequest.replacement("spread", MIB, List.of("seoul")), lostDublin).regions());
        // eu-near lost mumbai, dublin stays: the nearest other region from dublin
        PlacementInput lostOther = new PlacementInput(table("dublin", "mumbai"), Map.of(), MIB, List.of("dublin"), new Random(1));
        assertEquals(List.of("saopaulo"),
                POLICIES.decide(PlacementRequest.replacement("eu-near", MIB, List.of("dublin")), lostOther).regions());
    }

    @Test
    void describe_listsTheRules() {
        PolicyDescription d = POLICIES.describe().stream().filter(p -> p.name().equals("eu-near")).findFirst().orElseThrow();
        assertEquals("declarative", d.kind());
        assertEquals(2, d.copies());
        assertEquals("terms [local, closest]; require eu (dublin)", d.rules());
        PolicyDescription cool = POLICIES.describe().stream().filter(p -> p.name().equals("cool")).findFirst().orElseThrow();
        assertEquals("terms [local, closest]; skip disks over 80% full; skip regions moving over 100 MiB/s", cool.rules());
    }
}
