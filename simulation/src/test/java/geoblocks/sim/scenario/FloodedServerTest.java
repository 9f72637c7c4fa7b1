package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** flooded-server on a small seeded run: N = 0 and 8 readers on dublin, 1 MB files read 10 times. */
class FloodedServerTest {
    private static final FloodedServer.Params P = new FloodedServer.Params(1, List.of(0, 8), List.of(1_000_000), 10,
            4 << 20, 1000, 100);
    private static ReadsRuns.Outcome o;
    private static Map<String, FloodedServer.Summary> s;

    @BeforeAll
    static void run() {
        o = FloodedServer.run(P);
        s = FloodedServer.summaries(P, o).stream().collect(Collectors.toMap(x -> x.variant() + "/" + x.noiseReaders(),
                Function.identity()));
    }

    @Test
    void everyReadSucceeds_farFilesAvoidDublin() {
        assertTrue(o.errors().isEmpty(), o.errors().toString());
        assertEquals(2 * 3 * 10, o.reads().size());
        assertEquals("seoul mumbai", o.replicas().get(1));
        assertEquals("seoul mumbai dublin", o.replicas().get(0));
    }

    @Test
    void idleNearServer_isTheBest_andTheLoadAwareChoiceKeepsIt() {
        assertTrue(s.get("near/0").mean() < s.get("far/0").mean(), s.toString());
        assertEquals(s.get("near/0").mean(), s.get("load/0").mean(), 1e-9);
    }

    @Test
    void floodedNearServer_theFartherReplicaPays_andTheLoadAwareChoiceFindsIt() {
        assertTrue(s.get("far/8").mean() < s.get("near/8").mean(), s.toString());
        assertTrue(s.get("load/8").mean() < s.get("near/8").mean(), s.toString());
        assertEquals(s.get("far/8").p50(), s.get("load/8").p50(), 1e-9, "most reads go to seoul");
    }
}
