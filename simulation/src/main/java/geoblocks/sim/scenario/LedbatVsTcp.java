package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.LinkTotals;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SamplerNode;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.ledbat.LedbatNodes;
import geoblocks.sim.ledbat.LedbatOptions;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import geoblocks.sim.tcp.TcpNodes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;

/**
 * SPEC experiment 4, "LEDBAT vs TCP": LEDBAT flows from region {@code from} to region {@code to}
 * through one bottleneck (capacity {@code rateMbps}, drop-tail buffer of {@code bufferMs} at full
 * rate, larger than TARGET x capacity); one TCP flow joins between {@code tcpStartS} and
 * {@code tcpStopS}. The reverse path (ACKs) has no bottleneck. LEDBAT runs the real component.
 */
public final class LedbatVsTcp {
    private LedbatVsTcp() {}

    /**
     * The scenario's knobs. The path is the RTT between regions {@code from} and {@code to} of
     * SPEC.md's matrix unless {@code rttMs} is given (not NaN), then that RTT. {@code ledbatStartS}
     * delays the LEDBAT sender (e.g. by the session set-up the real network spends before the
     * first datagram); {@code udpOverheadBytes} / {@code tcpOverheadBytes} are the bytes each
     * packet takes on the bottleneck beyond its message size (headers, framing, seal).
     */
    public record Params(long seed, double rateMbps, String from, String to, double bufferMs, LedbatOptions ledbat,
            int ledbatFlows, double tcpStartS, double tcpStopS, double durationS, String tcpCc, double jitterMs,
            double lossRate, double rttMs, double ledbatStartS, int udpOverheadBytes, int tcpOverheadBytes) {
        public Params {
            if (!(rateMbps > 0)) {
                throw new IllegalArgumentException("rate must be > 0 Mbit/s, was " + rateMbps);
            }
            if (ledbatFlows < 1 || ledbatFlows > 64) {
                throw new IllegalArgumentException("LEDBAT flows must be in 1..64, was " + ledbatFlows);
            }
            if (!(tcpStartS > 0 && tcpStartS < tcpStopS && tcpStopS <= durationS)) {
                throw new IllegalArgumentException("need 0 < tcp start < tcp stop <= duration, was " + tcpStartS + " / "
                        + tcpStopS + " / " + durationS);
            }
            if (!(bufferMs > 0)) {
                throw new IllegalArgumentException("buffer must be > 0 ms, was " + bufferMs);
            }
            if (!Double.isNaN(rttMs) && !(rttMs >= 0 && rttMs <= 10_000)) {
                throw new IllegalArgumentException("rtt must be in 0..10000 ms, was " + rttMs);
            }
            if (!(ledbatStartS >= 0 && ledbatStartS < tcpStartS)) {
                throw new IllegalArgumentException("LEDBAT must start at >= 0 s and before TCP, was " + ledbatStartS);
            }
            if (from.equals(to)) {
                throw new IllegalArgumentException("from and to must be different regions, both were '" + from + "'");
            }
        }

        /** A path between two regions of the matrix, LEDBAT from time 0, message sizes only. */
        public Params(long seed, double rateMbps, String from, String to, double bufferMs, LedbatOptions ledbat,
                int ledbatFlows, double tcpStartS, double tcpStopS, double durationS, String tcpCc, double jitterMs,
                double lossRate) {
            this(seed, rateMbps, from, to, bufferMs, ledbat, ledbatFlows, tcpStartS, tcpStopS, durationS, tcpCc, jitterMs,
                    lossRate, Double.NaN, 0, 0, 0);
        }

        /** 10 Mbit/s, Dublin to Mumbai (RTT 122 ms), 200 ms buffer, target 100 ms, TCP Reno 14-24 s of 30 s. */
        public static Params defaults() {
            return new Params(1, 10, "dublin", "mumbai", 200, LedbatOptions.rfc(100), 1, 14, 24, 30, "reno", 0, 0);
        }

        public Params withSeed(long s) {
            return new Params(s, rateMbps, from, to, bufferMs, ledbat, ledbatFlows, tcpStartS, tcpStopS, durationS, tcpCc,
                    jitterMs, lossRate, rttMs, ledbatStartS, udpOverheadBytes, tcpOverheadBytes);
        }

        public Params withNoise(double jitter, double loss) {
            return new Params(seed, rateMbps, from, to, bufferMs, ledbat, ledbatFlows, tcpStartS, tcpStopS, durationS, tcpCc,
                    jitter, loss, rttMs, ledbatStartS, udpOverheadBytes, tcpOverheadBytes);
        }

        public Params withLedbat(LedbatOptions o) {
            return new Params(seed, rateMbps, from, to, bufferMs, o, ledbatFlows, tcpStartS, tcpStopS, durationS, tcpCc,
                    jitterMs, lossRate, rttMs, ledbatStartS, udpOverheadBytes, tcpOverheadBytes);
        }

        public Params withTcp(String cc) {
            return new Params(seed, rateMbps, from, to, bufferMs, ledbat, ledbatFlows, tcpStartS, tcpStopS, durationS, cc,
                    jitterMs, lossRate, rttMs, ledbatStartS, udpOverheadBytes, tcpOverheadBytes);
        }

        /** An explicit path: this RTT between {@code from} and {@code to}, whatever the matrix says. */
        public Params withRttMs(double rtt) {
            return new Params(seed, rateMbps, from, to, bufferMs, ledbat, ledbatFlows, tcpStartS, tcpStopS, durationS, tcpCc,
                    jitterMs, lossRate, rtt, ledbatStartS, udpOverheadBytes, tcpOverheadBytes);
        }

        /** Model of the real link's packets: LEDBAT starts late, and these bytes per packet beyond the messages. */
        public Params withWire(double ledbatStart, int udpOverhead, int tcpOverhead) {
            return new Params(seed, rateMbps, from, to, bufferMs, ledbat, ledbatFlows, tcpStartS, tcpStopS, durationS, tcpCc,
                    jitterMs, lossRate, rttMs, ledbatStart, udpOverhead, tcpOverhead);
        }

        public double baseRttMs() {
            return Double.isNaN(rttMs) ? RttMatrix.specDefaults().rttMs(from, to) : rttMs;
        }

        /** The RTT matrix of the run: SPEC.md's, with the explicit path's RTT if one is given. */
        RttMatrix matrix() {
            RttMatrix m = RttMatrix.specDefaults();
            if (!Double.isNaN(rttMs)) {
                m.put(from, to, rttMs);
                m.put(to, from, rttMs);
            }
            return m;
        }
    }

    static final String LEDBAT_TX = "10.1.0.1";
    static final String LEDBAT_RX = "10.2.0.1";
    static final String TCP_TX = "10.1.0.2";
    static final String TCP_RX = "10.2.0.2";

    public static SimPlan plan(Params p) {
        NetworkSpec net = NetworkSpec.builder(p.matrix())
                .host(LEDBAT_TX, p.from()).host(TCP_TX, p.from())
                .host(LEDBAT_RX, p.to()).host(TCP_RX, p.to())
                .path(p.from(), p.to(), LinkSpec.ofMbps(p.rateMbps(), p.bufferMs()))
                .jitterMs(p.jitterMs()).lossRate(p.lossRate())
                .overheadBytes(p.udpOverheadBytes(), p.tcpOverheadBytes())
                .build();
        List<String> flows = new ArrayList<>();
        for (int i = 1; i <= p.ledbatFlows(); i++) {
            flows.add("ledbat" + i);
        }
        long tcpStart = Math.round(p.tcpStartS() * 1000);
        long tcpDuration = Math.round((p.tcpStopS() - p.tcpStartS()) * 1000);
        List<NodePlan> nodes = List.of(
                new NodePlan("sampler", 0, "10.9.0.1", 1, new SamplerNode(100)),
                new NodePlan("ledbat-rx", 0, LEDBAT_RX, 7000, new LedbatNodes.Receiver(p.ledbat())),
                new NodePlan("tcp-rx", 0, TCP_RX, 8000, new TcpNodes.Receiver("tcp1", p.tcpCc())),
                new NodePlan("ledbat-tx", Math.round(p.ledbatStartS() * 1000), LEDBAT_TX, 7000,
                        new LedbatNodes.Sender(LEDBAT_RX, 7000, flows, p.ledbat())),
                new NodePlan("tcp-tx", tcpStart, TCP_TX, 8000,
                        new TcpNodes.Sender(TCP_RX, 8000, "tcp1", p.tcpCc(), tcpDuration)));
        return new SimPlan(p.seed(), net, nodes, Math.round(p.durationS() * 1000), 100);
    }

    public static LedbatMetrics metrics(Params p, SimResult r) {
        return LedbatMetrics.of(r.flows(), p.rateMbps(), p.tcpStartS(), p.tcpStopS(), p.durationS(), 2.0);
    }

    /** summary.csv rows: metric,value (bottleneck totals from the run). */
    public static List<String> summaryRows(Params p, LedbatMetrics m, SimResult r) {
        List<String> rows = summaryRows(p, m);
        for (LinkTotals t : r.linkTotals()) {
            rows.add("bottleneck_packets," + t.packets());
            rows.add("bottleneck_drops," + t.drops());
            rows.add("bottleneck_mean_queuing_delay_ms," + Csv.num(t.meanQueueDelayMs(), 2));
            rows.add("bottleneck_max_queuing_delay_ms," + Csv.num(t.maxQueueDelayMs(), 2));
        }
        return rows;
    }

    /** summary.csv rows: metric,value. */
    public static List<String> summaryRows(Params p, LedbatMetrics m) {
        List<String> rows = new ArrayList<>();
        rows.add("rate_mbps," + Csv.num(p.rateMbps(), 1));
        rows.add("base_rtt_ms," + Csv.num(p.baseRttMs(), 1));
        rows.add("ledbat_start_s," + Csv.num(p.ledbatStartS(), 2));
        rows.add("udp_overhead_bytes," + p.udpOverheadBytes());
        rows.add("tcp_overhead_bytes," + p.tcpOverheadBytes());
        rows.add("buffer_ms," + Csv.num(p.bufferMs(), 1));
        rows.add("target_ms," + p.ledbat().targetMs());
        rows.add("ledbat_mode," + p.ledbat().mode());
        rows.add("ledbat_flows," + p.ledbatFlows());
        rows.add("tcp," + p.tcpCc() + " " + Csv.num(p.tcpStartS(), 1) + "-" + Csv.num(p.tcpStopS(), 1) + " s");
        rows.add("jitter_ms," + Csv.num(p.jitterMs(), 2));
        rows.add("loss_rate," + Csv.num(p.lossRate(), 5));
        rows.add("seed," + p.seed());
        rows.add("utilization_alone," + Csv.num(m.utilizationAlone(), 4));
        rows.add("ledbat_share_during_tcp," + Csv.num(m.ledbatShareDuringTcp(), 4));
        rows.add("tcp_share_during_tcp," + Csv.num(m.tcpShareDuringTcp(), 4));
        rows.add("ledbat_share_after_tcp," + Csv.num(m.ledbatShareAfterTcp(), 4));
        rows.add("time_to_yield_s," + Csv.num(m.timeToYieldS(), 1));
        rows.add("time_to_recover_s," + Csv.num(m.timeToRecoverS(), 1));
        rows.add("mean_queuing_delay_alone_ms," + Csv.num(m.meanQueuingDelayAloneMs(), 2));
        rows.add("ledbat_estimated_queuing_delay_alone_ms," + Csv.num(m.meanOwnQueuingDelayAloneMs(), 2));
        return rows;
    }

    /** Writes timeseries.csv, summary.csv, links.csv and ledbat-vs-tcp.png into {@code dir}. */
    public static void write(Path dir, Params p, SimResult r, LedbatMetrics m, boolean plot) throws IOException {
        Csv.writeTimeseries(dir.resolve("timeseries.csv"), r.flows());
        Csv.write(dir.resolve("summary.csv"), "metric,value", summaryRows(p, m, r));
        Csv.writeLinks(dir.resolve("links.csv"), r.links());
        if (plot) {
            String title = String.format(Locale.ROOT, "LEDBAT (%s, target %d ms) vs TCP %s, %.0f Mbit/s, RTT %.0f ms",
                    p.ledbat().mode(), p.ledbat().targetMs(), p.tcpCc(), p.rateMbps(), p.baseRttMs());
            Charts.writeStacked(dir.resolve("ledbat-vs-tcp.png"), panels(title, r, p.rateMbps()));
        }
    }

    /**
     * Throughput of every flow (in-order delivery per 100 ms, so a filled hole shows as a spike; the
     * axis is cut at 1.5 x capacity), LEDBAT cwnd, and RTT / queuing delay, over time.
     */
    static List<XYChart> panels(String title, SimResult r, double rateMbps) {
        Map<String, double[][]> thr = new LinkedHashMap<>();
        Map<String, double[][]> cwnd = new LinkedHashMap<>();
        Map<String, double[][]> delay = new LinkedHashMap<>();
        for (String f : r.flowNames()) {
            List<FlowSample> s = r.flow(f);
            thr.put(f, xy(s, FlowSample::throughputMbps, 1));
            if (s.get(0).kind().equals("ledbat")) {
                cwnd.put(f, xy(s, FlowSample::cwndBytes, 1e-3));
                delay.put(f + " RTT", xy(s, FlowSample::rttMs, 1));
            }
        }
        String first = r.flowNames().get(0);
        delay.put("queuing delay (bottleneck)", xy(r.flow(first), FlowSample::queuingDelayMs, 1));
        delay.put(first + " own estimate", xy(r.flow(first), FlowSample::ownQueuingDelayMs, 1));
        return List.of(Charts.timeSeries(title, "throughput (Mbit/s)", thr, 900, 300,
                        1.5 * rateMbps),
                Charts.timeSeries("LEDBAT congestion window", "cwnd (kB)", cwnd, 900, 250),
                Charts.timeSeries("RTT and queuing delay", "ms", delay, 900, 300));
    }

    static double[][] xy(List<FlowSample> s, ToDoubleFunction<FlowSample> f, double scale) {
        List<double[]> pts = new ArrayList<>();
        for (FlowSample x : s) {
            double v = f.applyAsDouble(x);
            if (!Double.isNaN(v)) {
                pts.add(new double[] {x.timeMs() / 1000.0, v * scale});
            }
        }
        double[][] out = new double[2][pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            out[0][i] = pts.get(i)[0];
            out[1][i] = pts.get(i)[1];
        }
        return out;
    }
}
