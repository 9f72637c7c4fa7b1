package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.ledbat.LedbatOptions;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The explicit path ({@code simulate ledbat-vs-tcp --rtt-ms}) with the real link's model (20 Mbit/s,
 * 400 ms buffer, Linux cubic from 14 to 24 s, Ethernet/IP/UDP/seal bytes per packet), seed 1, at an
 * RTT no region pair has (252 ms is Seoul-Dublin's; 200 ms is nobody's): the path's RTT is the
 * one given, the run is deterministic, and LEDBAT meets the aims there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LedbatVsTcpPathTest {
    private static LedbatVsTcp.Params path(double rttMs) {
        return new LedbatVsTcp.Params(1, 20, "dublin", "mumbai", 400, LedbatOptions.rfc(100), 1, 14, 24, 30,
                "linux-cubic", 0, 0).withRttMs(rttMs).withWire(0, 73, 14);
    }

    private final LedbatVsTcp.Params p = path(200);
    private SimResult r;
    private LedbatMetrics m;

    @BeforeAll
    void run() {
        r = SimRunner.run(LedbatVsTcp.plan(p));
        m = LedbatVsTcp.metrics(p, r);
        System.out.println("rtt 200 ms: " + m + ", wall " + r.wallMs() + " ms");
    }

    @Test
    void thePathHasTheGivenRtt() {
        assertEquals(List.of(), r.faults());
        assertEquals(200, p.baseRttMs());
        double minRtt = r.flow("ledbat1").stream().mapToDouble(FlowSample::rttMs).filter(x -> !Double.isNaN(x) && x > 0)
                .min().orElseThrow();
        assertTrue(minRtt >= 200 && minRtt <= 203, "LEDBAT's smallest RTT sample " + minRtt + " ms");
        assertEquals(122, path(Double.NaN).baseRttMs(), "without --rtt-ms: the region pair's RTT");
    }

    @Test
    void sameSeed_sameSamples() {
        assertEquals(r.flow("ledbat1"), SimRunner.run(LedbatVsTcp.plan(p)).flow("ledbat1"));
    }

    @Test
    void ledbat_fillsTheLink_yieldsToCubic_andComesBack() {
        assertTrue(m.utilizationAlone() >= 0.90, "goodput alone / capacity " + m.utilizationAlone());
        assertTrue(m.ledbatShareDuringTcp() <= 0.05, "LEDBAT share 16-24 s " + m.ledbatShareDuringTcp());
        assertTrue(m.timeToYieldS() <= 3, "yield " + m.timeToYieldS() + " s");
        assertTrue(m.timeToRecoverS() <= 3, "recover to 80 % of capacity " + m.timeToRecoverS() + " s");
    }
}
