package geoblocks.sim.scenario;

import java.util.List;
import org.junit.jupiter.api.Test;

class DebugReadsTest {
    @Test
    void debug() {
        FloodedServer.Params p = new FloodedServer.Params(1, List.of(0, 2, 8), List.of(1_000_000), 10, 4 << 20, 1000, 100);
        ReadsRuns.Outcome o = FloodedServer.run(p);
        System.out.println(o.errors() + " " + o.replicas() + " " + o.noiseReads() + " wall " + o.wallMs());
        FloodedServer.summaries(p, o).forEach(System.out::println);
    }
}
