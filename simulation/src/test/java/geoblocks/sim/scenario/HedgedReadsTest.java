package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HedgedReadsTest {
    @Test
    void smoke() {
        HedgedReads.Params p = new HedgedReads.Params(1, HedgedReads.STRATEGIES, List.of(1000, 1_000_000, 10_000_000), 20, 1,
                4 << 20, 2000, 50);
        ReadsRuns.Outcome o = HedgedReads.run(p);
        System.out.println(o.errors());
        System.out.println(o.replicas() + " noise " + o.noiseReads() + " wall " + o.wallMs());
        for (HedgedReads.Summary s : HedgedReads.summaries(p, o)) {
            System.out.println(s);
        }
        assertTrue(o.errors().isEmpty(), o.errors().toString());
    }
}
