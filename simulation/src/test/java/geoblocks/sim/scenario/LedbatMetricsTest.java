package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.FlowSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LedbatMetricsTest {
    /** LEDBAT at 9 Mbit/s alone, 0.5 Mbit/s from 1.5 s after TCP starts at 10 s, back to 9 at 22 s. */
    private static List<FlowSample> synthetic() {
        List<FlowSample> s = new ArrayList<>();
        for (long t = 100; t <= 30_000; t += 100) {
            double ledbat = t <= 10_000 ? 9 : t <= 11_500 ? 5 : t <= 20_000 ? 0.5 : t <= 22_000 ? 4 : 9;
            s.add(new FlowSample(t, "ledbat1", "ledbat", ledbat, 100_000, 150, t <= 10_000 ? 95 : 150, 90));
            if (t > 10_000 && t <= 20_000) {
                s.add(new FlowSample(t, "tcp1", "tcp", 9.5 - ledbat, 200_000, 250, 150, Double.NaN));
            }
        }
        return s;
    }

    @Test
    void figures_fromSyntheticSamples() {
        LedbatMetrics m = LedbatMetrics.of(synthetic(), 10, 10, 20, 30, 2);
        assertEquals(0.9, m.utilizationAlone(), 1e-9);
        assertEquals(0.05, m.ledbatShareDuringTcp(), 1e-9);
        assertEquals(0.9, m.tcpShareDuringTcp(), 1e-9);
        // trailing 500 ms mean first <= 1 Mbit/s at 11.5 s + 5 samples of 0.5 and earlier 5s... -> 12.0 s
        assertEquals(2.0, m.timeToYieldS(), 0.051);
        assertEquals(2.4, m.timeToRecoverS(), 0.051);
        assertEquals(95, m.meanQueuingDelayAloneMs(), 1e-9);
        assertEquals(90, m.meanOwnQueuingDelayAloneMs(), 1e-9);
    }

    @Test
    void jain_equalIsOne_oneTakesAllIsOneOverN() {
        assertEquals(1.0, LedbatMetrics.jain(3, 3, 3), 1e-12);
        assertEquals(0.25, LedbatMetrics.jain(8, 0, 0, 0), 1e-12);
        assertTrue(LedbatMetrics.jain(5, 4) > 0.98);
    }
}
