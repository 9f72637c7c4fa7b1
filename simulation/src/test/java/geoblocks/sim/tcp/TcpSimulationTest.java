package geoblocks.sim.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.RttMatrix;
import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SamplerNode;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Simulated TCP over a 10 Mbit/s bottleneck between Dublin and Mumbai (RTT 122 ms). */
class TcpSimulationTest {

    private static SimPlan plan(String cc, int flows, long durationMs) {
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults())
                .host("10.0.0.1", "dublin").host("10.0.0.2", "mumbai")
                .path("dublin", "mumbai", LinkSpec.ofMbps(10, 150));
        List<NodePlan> nodes = new ArrayList<>();
        nodes.add(new NodePlan("sampler", 0, "10.0.0.100", 1, new SamplerNode(100)));
        for (int i = 0; i < flows; i++) {
            nodes.add(new NodePlan("rx" + i, 0, "10.0.0.2", 2000 + i, new TcpNodes.Receiver("tcp" + i)));
            nodes.add(new NodePlan("tx" + i, 10 + i * 1000L, "10.0.0.1", 1000 + i,
                    new TcpNodes.Sender("10.0.0.2", 2000 + i, "tcp" + i, cc, 0)));
        }
        return new SimPlan(7, net.build(), nodes, durationMs, 100);
    }

    static double meanMbps(List<FlowSample> s, long fromMs, long toMs) {
        return s.stream().filter(x -> x.timeMs() > fromMs && x.timeMs() <= toMs)
                .mapToDouble(FlowSample::throughputMbps).average().orElse(0);
    }

    @Test
    void reno_alone_fillsTheBottleneck() {
        SimResult r = SimRunner.run(plan("reno", 1, 30_000));
        assertEquals(List.of(), r.faults());
        double mbps = meanMbps(r.flow("tcp0"), 5_000, 30_000);
        System.out.printf("reno alone: %.3f Mbit/s over 5-30 s, wall %d ms, drops %s%n", mbps, r.wallMs(), r.linkTotals());
        assertTrue(mbps >= 9.0, "throughput " + mbps);
    }

    @Test
    void cubic_alone_fillsTheBottleneck() {
        SimResult r = SimRunner.run(plan("cubic", 1, 30_000));
        double mbps = meanMbps(r.flow("tcp0"), 5_000, 30_000);
        System.out.printf("cubic alone: %.3f Mbit/s over 5-30 s, wall %d ms%n", mbps, r.wallMs());
        assertTrue(mbps >= 9.0, "throughput " + mbps);
    }

    @Test
    void twoReno_shareRoughlyFairly() {
        SimResult r = SimRunner.run(plan("reno", 2, 60_000));
        double a = meanMbps(r.flow("tcp0"), 10_000, 60_000);
        double b = meanMbps(r.flow("tcp1"), 10_000, 60_000);
        double jain = (a + b) * (a + b) / (2 * (a * a + b * b));
        System.out.printf("two reno: %.3f + %.3f Mbit/s, Jain %.3f, wall %d ms%n", a, b, jain, r.wallMs());
        assertTrue(a + b >= 9.0, "sum " + (a + b));
        assertTrue(jain >= 0.9, "jain " + jain);
    }
}
