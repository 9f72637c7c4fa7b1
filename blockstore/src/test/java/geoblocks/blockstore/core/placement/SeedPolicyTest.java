package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static geoblocks.blockstore.core.placement.Fixtures.disk;
import static geoblocks.blockstore.core.placement.Fixtures.input;
import static geoblocks.blockstore.core.placement.Fixtures.loads;
import static geoblocks.blockstore.core.placement.Fixtures.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.PlacementException;
import geoblocks.blockstore.core.Policy;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The seed policies behind the SPI place exactly as the enum does, and never on a full disk. */
class SeedPolicyTest {
    private static final PolicySet POLICIES = PolicySet.defaults();

    @ParameterizedTest
    @EnumSource(Policy.class)
    void place_everyRegionWithRoom_sameRegionsAndDrawsAsTheEnum(Policy p) throws PlacementException {
        for (String self : Fixtures.REGIONS) {
            Random forEnum = new Random(42);
            Random forSpi = new Random(42);
            Map<String, NodeLoad> roomy = loads("seoul", disk(100, 90), "dublin", disk(100, 50));
            for (int i = 0; i < 200; i++) {
                List<String> expected = p.place(table(self), forEnum);
                PlacementInput in = new PlacementInput(table(self), roomy, MIB, List.of(), forSpi);
                assertEquals(expected, new SeedPolicy(p).place(in), p.id() + " at " + self + ", draw " + i);
            }
        }
    }

    @Test
    void names_andCopies_areTheEnums() {
        for (Policy p : Policy.values()) {
            assertEquals(p.id(), new SeedPolicy(p).name());
            assertEquals(p.copies(), new SeedPolicy(p).copies());
        }
        assertTrue(POLICIES.names().startsWith("random, tworandom, local, localclosest, localfarthest, localclosest3, balanced"));
    }

    @Test
    void localclosest_closestPeerBelowReserve_takesNextClosest() {
        // from seoul: mumbai 160 ms (full), dublin 252
        PolicySet.Decision d = POLICIES.decide(PlacementRequest.upload("localclosest", MIB),
                input("seoul", loads("mumbai", disk(100, 4)), 1));
        assertEquals(List.of("seoul", "dublin"), d.regions());
    }

    @Test
    void localfarthest_farthestPeerBelowReserve_takesNextFarthest() {
        PolicySet.Decision d = POLICIES.decide(PlacementRequest.upload("localfarthest", MIB),
                input("seoul", loads("saopaulo", disk(100, 3)), 1));
        assertEquals(List.of("seoul", "dublin"), d.regions());
    }

    @ParameterizedTest
    @ValueSource(strings = {"random", "tworandom"})
    void randomPolicies_thisNodeFull_neverChooseIt(String policy) {
        Map<String, NodeLoad> full = loads("seoul", disk(100, 4));
        for (long seed = 0; seed < 300; seed++) {
            PolicySet.Decision d = POLICIES.decide(PlacementRequest.upload(policy, MIB), input("seoul", full, seed));
            assertTrue(d.ok(), d.refusal());
            assertFalse(d.regions().contains("seoul"), d.regions().toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "localclosest", "localfarthest"})
    void localPolicies_thisNodeFull_refusedNamingTheReserve(String policy) {
        PolicySet.Decision d = POLICIES.decide(PlacementRequest.upload(policy, MIB), input("seoul", loads("seoul", disk(100, 4)), 1));
        assertFalse(d.ok());
        assertTrue(d.refusal().contains("seoul reports disk full: 4 MiB free") && d.refusal().contains("reserve of 4 MiB"), d.refusal());
    }

    @Test
    void tworandom_onlyOneRegionWithRoom_isRefused() {
        Map<String, NodeLoad> full = loads("seoul", disk(10, 4), "dublin", disk(10, 4), "mumbai", disk(10, 4));
        PolicySet.Decision d = POLICIES.decide(PlacementRequest.upload("tworandom", MIB), input("seoul", full, 3));
        assertFalse(d.ok());
        assertTrue(d.refusal().contains("tworandom needs 2 regions"), d.refusal());
    }

    @Test
    void replacement_seedPolicy_isNearestCandidateThisNodeFirst() {
        PlacementInput in = new PlacementInput(table("dublin", "seoul"), Map.of(), MIB, List.of("mumbai"), new Random(1));
        PolicySet.Decision d = POLICIES.decide(PlacementRequest.replacement("localclosest", MIB, List.of("mumbai")), in);
        assertEquals(List.of("dublin"), d.regions());
        PlacementInput heldHere = new PlacementInput(table("dublin", "seoul"), Map.of(), MIB, List.of("dublin"), new Random(1));
        // from dublin: mumbai 122 ms, saopaulo 184 ms; seoul is down
        assertEquals(List.of("mumbai"), POLICIES.decide(PlacementRequest.replacement("local", MIB, List.of("dublin")), heldHere).regions());
    }
}
