package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.ledbat.LedbatOptions;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Four LEDBAT flows (separate hosts) over one 10 Mbit/s bottleneck, Dublin to Mumbai, 60 s, seed 1:
 * utilization, median queuing delay relative to the target, Jain's index of LEDBAT++ with simultaneous
 * starts, and RFC 6817's documented latecomer effect (a latecomer pushes the queue above TARGET).
 */
class LedbatFairnessTest {
    private static LedbatFairness.Params params(LedbatOptions o) {
        return new LedbatFairness.Params(1, 10, "dublin", "mumbai", 200, o, 4, 10, 60);
    }

    private static LedbatFairness.Figures run(LedbatOptions o, boolean staggered) {
        LedbatFairness.Params p = params(o);
        SimResult r = SimRunner.run(LedbatFairness.plan(p, staggered));
        assertEquals(List.of(), r.faults());
        assertEquals(4, r.flowNames().size());
        LedbatFairness.Figures f = LedbatFairness.figures(o.mode() + (staggered ? "-staggered" : "-simultaneous"), p, r);
        System.out.printf("%s: jain %.3f util %.3f q mean %.1f / median %.1f / max %.1f ms, wall %d ms%n", f.variant(),
                f.jain(), f.utilization(), f.meanQueuingDelayMs(), f.medianQueuingDelayMs(), f.maxQueuingDelayMs(),
                r.wallMs());
        return f;
    }

    @Test
    void ledbatPlusPlus_simultaneous_isFairAndKeepsTheQueueNearTarget() {
        LedbatFairness.Figures f = run(new LedbatOptions(60, "ledbat++", true), false);
        assertTrue(f.utilization() >= 0.90, "utilization " + f.utilization());
        assertTrue(f.jain() >= 0.90, "Jain " + f.jain());
        // the median: LEDBAT++'s periodic slowdowns empty the queue on purpose and pull the mean down
        assertTrue(Math.abs(f.medianQueuingDelayMs() - 60) <= 15, "median queuing delay " + f.medianQueuingDelayMs()
                + " (mean " + f.meanQueuingDelayMs() + ")");
    }

    @Test
    void rfc6817_staggered_latecomersPushTheQueueAboveTarget() {
        LedbatFairness.Figures f = run(LedbatOptions.rfc(100), true);
        assertTrue(f.utilization() >= 0.90, "utilization " + f.utilization());
        // no flow starves; the latecomer advantage is strong (Jain 0.46 here; 0.56 before the
        // component yielded to rising queues, docs/simulation-ledbat-fairness.md): each earlier
        // flow yields to the newcomer's slow start and does not take the room back while the
        // newcomer holds the queue near TARGET
        for (double m : f.flowMbps()) {
            assertTrue(m > 0.3, "every flow keeps some throughput: " + Arrays.toString(f.flowMbps()));
        }
        assertTrue(f.maxQueuingDelayMs() > 130, "max queuing delay " + f.maxQueuingDelayMs());
    }
}
