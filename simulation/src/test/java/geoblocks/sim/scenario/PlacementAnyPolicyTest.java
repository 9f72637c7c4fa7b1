package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** simulate placement with a declarative and a custom policy (class name in the config), on the real nodes. */
class PlacementAnyPolicyTest {
    static final String CONF = """
            geoblocks.placement {
              zones { eu = [dublin], asia = [seoul, mumbai], americas = [saopaulo] }
              policies { eu-near { copies = 2, terms = [local, closest], require = [eu], max-per-zone = 1 } }
              classes = [geoblocks.sim.placement.FarthestPeerOnly]
            }
            """;

    @Test
    void declarativeAndCustomPolicies_placeByTheirRules_andEveryTransferWorks() throws Exception {
        Placement.Params p = new Placement.Params(7, List.of(new Placement.Experiment("1", "seoul", "dublin")), 1, 2,
                1 << 20, List.of(512 << 10), List.of("EU-near", "farthest-only", "local"), CONF);
        assertEquals(List.of("eu-near", "farthest-only", "local"), p.policies());
        Placement.Outcome out = Placement.run(p, new PrintStream(System.out));
        assertEquals(List.of(), out.errors());
        assertEquals(3 * 2, out.rows().size());
        assertEquals(3 * 2 * 2, out.replicas().size());
        for (Placement.Replicas r : out.replicas()) {
            List<String> expected = switch (r.policy()) {
                case "eu-near" -> List.of("seoul", "dublin"); // not mumbai: the EU needs a copy, asia has one
                case "farthest-only" -> List.of("saopaulo"); // 298 ms from seoul
                default -> List.of("seoul");
            };
            assertEquals(expected, r.regions(), r.toString());
        }
    }

    @Test
    void unknownPolicy_refusedBeforeSimulating() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Placement.Params(7,
                List.of(new Placement.Experiment("1", "seoul", "seoul")), 1, 1, 1 << 20, List.of(1 << 20), List.of("eu-far"), CONF));
        assertTrue(e.getMessage().startsWith("unknown policy 'eu-far'; choose one of random, tworandom, local,"
                + " localclosest, localfarthest, localclosest3, balanced, eu-near, farthest-only"), e.getMessage());
    }
}
