package geoblocks.blockstore.core.placement;

import static geoblocks.blockstore.core.placement.Fixtures.MIB;
import static geoblocks.blockstore.core.placement.Fixtures.disk;
import static geoblocks.blockstore.core.placement.Fixtures.input;
import static geoblocks.blockstore.core.placement.Fixtures.loads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.Policy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** localclosest3 on SPEC.md's RTTs (from seoul: mumbai 160, dublin 252, saopaulo 298 ms). */
class NearestPolicyTest {
    private static final PolicySet POLICIES = PolicySet.defaults();

    private static PolicySet.Decision place(PlacementInput in) {
        return POLICIES.decide(PlacementRequest.upload("localclosest3", MIB), in);
    }

    @Test
    void threeCopies_thisNodeThenTheTwoClosestPeers() {
        assertEquals(List.of("seoul", "mumbai", "dublin"), place(input("seoul")).regions());
        assertEquals(List.of("dublin", "mumbai", "saopaulo"), place(input("dublin")).regions());
    }

    @Test
    void twoCopies_placesExactlyLikeTheSeedLocalclosest() throws Exception {
        for (String self : Fixtures.REGIONS) {
            assertEquals(new SeedPolicy(Policy.LOCALCLOSEST).place(input(self)),
                    new NearestPolicy(2).place(input(self)), self);
        }
    }

    @Test
    void downOrFullPeer_isSkipped_forTheNextClosest() {
        assertEquals(List.of("seoul", "dublin", "saopaulo"), place(input("seoul", Map.of(), 1, "mumbai")).regions());
        assertEquals(List.of("seoul", "mumbai", "saopaulo"),
                place(input("seoul", loads("dublin", disk(64, 4)), 1)).regions());
    }

    @Test
    void tooFewPeers_orThisNodeFull_refusedWithTheReason() {
        assertEquals("localclosest3 needs 2 peers that are up and have room, only [saopaulo] are",
                place(input("seoul", Map.of(), 1, "mumbai", "dublin")).refusal());
        assertEquals("localclosest3 puts the first copy on this node, but seoul reports disk full: 4 MiB free, and a"
                + " block of 1048576 bytes would take it below its reserve of 4 MiB",
                place(input("seoul", loads("seoul", disk(32, 4)), 1)).refusal());
    }

    @Test
    void builtIn_listedWithThreeCopies_andItsNameReserved() {
        PolicyDescription d = POLICIES.describe().stream().filter(p -> p.name().equals("localclosest3")).findFirst()
                .orElseThrow();
        assertEquals(3, d.copies());
        assertEquals("this node, then the 2 peers with the lowest RTT", d.rules());
        assertNull(POLICIES.find("localclosest4").orElse(null));
        assertThrows(IllegalArgumentException.class, () -> new NearestPolicy(1));
        assertEquals(true, PlacementSettings.isBuiltIn("localclosest3"));
    }
}
