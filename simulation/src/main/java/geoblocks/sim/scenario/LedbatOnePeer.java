package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.cli.SimulateCommand;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.LinkSample;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SamplerNode;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.ledbat.LedbatNodes;
import geoblocks.sim.ledbat.LedbatOptions;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * "LEDBAT streams to one peer": {@code streams} concurrent streams from one host to one peer
 * through one bottleneck (no other traffic), as a node's background transfers to one region are.
 * Either endless streams ({@code blockBytes = 0}) or, per stream slot, a sequence of streams of one
 * block each ({@code blockBytes > 0}; the next opens when the last is acknowledged). The figures,
 * over the steady window after {@code warmupS}: utilization, the bottleneck's queuing delay (mean
 * of the 100 ms samples, and max), and blocks finished.
 */
public final class LedbatOnePeer {
    private LedbatOnePeer() {}

    public record Params(long seed, double rateMbps, String from, String to, double bufferMs, LedbatOptions ledbat,
            int streams, int blockBytes, double warmupS, double durationS) {
        public Params {
            if (!(rateMbps > 0)) {
                throw new IllegalArgumentException("rate must be > 0 Mbit/s, was " + rateMbps);
            }
            if (streams < 1 || streams > 64) {
                throw new IllegalArgumentException("streams must be in 1..64, was " + streams);
            }
            if (blockBytes < 0) {
                throw new IllegalArgumentException("block size must be >= 0, was " + blockBytes);
            }
            if (!(warmupS >= 0 && warmupS < durationS)) {
                throw new IllegalArgumentException("need 0 <= warm-up < duration, was " + warmupS + " / " + durationS);
            }
        }

        public double baseRttMs() {
            return RttMatrix.specDefaults().rttMs(from, to);
        }
    }

    /** The figures of one run over the steady window. */
    public record Figures(double utilization, double meanQueuingDelayMs, double maxQueuingDelayMs, long drops,
            int blocks, double meanBlockSeconds) {
        /** The mean queuing delay as a multiple of the target. */
        public double queueOverTarget(int targetMs) {
            return meanQueuingDelayMs / targetMs;
        }
    }

    static final String TX = "10.1.0.1";
    static final String RX = "10.2.0.1";

    public static SimPlan plan(Params p) {
        NetworkSpec net = NetworkSpec.builder(RttMatrix.specDefaults())
                .host(TX, p.from()).host(RX, p.to())
                .path(p.from(), p.to(), LinkSpec.ofMbps(p.rateMbps(), p.bufferMs()))
                .build();
        List<String> flows = new ArrayList<>();
        for (int i = 1; i <= p.streams(); i++) {
            flows.add("stream" + i);
        }
        List<NodePlan> nodes = List.of(
                new NodePlan("sampler", 0, "10.9.0.1", 1, new SamplerNode(100)),
                new NodePlan("rx", 0, RX, 7000, new LedbatNodes.Receiver(p.ledbat())),
                new NodePlan("tx", 0, TX, 7000, new LedbatNodes.Sender(RX, 7000, flows, p.ledbat(), p.blockBytes())));
        return new SimPlan(p.seed(), net, nodes, Math.round(p.durationS() * 1000), 100);
    }

    public static Figures figures(Params p, SimResult r) {
        double from = p.warmupS() * 1000;
        double delivered = r.flows().stream().filter(s -> s.timeMs() > from).mapToDouble(s -> s.throughputMbps()).sum();
        long samples = r.flows().stream().filter(s -> s.timeMs() > from).mapToLong(s -> s.timeMs()).distinct().count();
        String bottleneck = r.linkTotals().get(0).link();
        List<LinkSample> link = r.link(bottleneck).stream().filter(s -> s.timeMs() > from).toList();
        double qMean = link.stream().mapToDouble(LinkSample::backlogMs).average().orElse(Double.NaN);
        double qMax = link.stream().mapToDouble(LinkSample::backlogMs).max().orElse(Double.NaN);
        long drops = r.linkTotals().get(0).drops();
        int blocks = 0;
        double blockMs = 0;
        for (String e : r.extra()) {
            String[] c = e.split(",");
            if (c[0].equals("block") && Long.parseLong(c[2]) > from) {
                blocks++;
                blockMs += Long.parseLong(c[3]) - Long.parseLong(c[2]);
            }
        }
        return new Figures(samples == 0 ? Double.NaN : delivered / samples / p.rateMbps(), qMean, qMax, drops, blocks,
                blocks == 0 ? Double.NaN : blockMs / blocks / 1000);
    }

    /** summary.csv rows: metric,value. */
    public static List<String> summaryRows(Params p, Figures f) {
        List<String> rows = new ArrayList<>();
        rows.add("rate_mbps," + Csv.num(p.rateMbps(), 1));
        rows.add("base_rtt_ms," + Csv.num(p.baseRttMs(), 1));
        rows.add("buffer_ms," + Csv.num(p.bufferMs(), 1));
        rows.add("target_ms," + p.ledbat().targetMs());
        rows.add("ledbat_mode," + p.ledbat().mode());
        rows.add("streams," + p.streams());
        rows.add("block_bytes," + p.blockBytes());
        rows.add("seed," + p.seed());
        rows.add("window_s," + Csv.num(p.warmupS(), 1) + "-" + Csv.num(p.durationS(), 1));
        rows.add("utilization," + Csv.num(f.utilization(), 4));
        rows.add("mean_queuing_delay_ms," + Csv.num(f.meanQueuingDelayMs(), 2));
        rows.add("mean_queuing_delay_over_target," + Csv.num(f.queueOverTarget(p.ledbat().targetMs()), 3));
        rows.add("max_queuing_delay_ms," + Csv.num(f.maxQueuingDelayMs(), 2));
        rows.add("bottleneck_drops," + f.drops());
        rows.add("blocks_finished," + f.blocks());
        rows.add("mean_block_seconds," + Csv.num(f.meanBlockSeconds(), 3));
        return rows;
    }

    /** Runs one plan, writes timeseries.csv, links.csv and summary.csv, prints the summary. */
    public static Figures runCli(Path dir, Params p, PrintStream o) throws IOException {
        o.printf(Locale.ROOT, "ledbat-one-peer: %d stream(s)%s, %.0f Mbit/s %s->%s (RTT %.0f ms), buffer %.0f ms, LEDBAT %s"
                + " target %d ms, %.0f s simulated, seed %d%n", p.streams(),
                p.blockBytes() > 0 ? " of " + p.blockBytes() + "-byte blocks" : "", p.rateMbps(), p.from(), p.to(),
                p.baseRttMs(), p.bufferMs(), p.ledbat().mode(), p.ledbat().targetMs(), p.durationS(), p.seed());
        SimResult r = SimulateCommand.run(plan(p), o);
        Figures f = figures(p, r);
        Csv.writeTimeseries(dir.resolve("timeseries.csv"), r.flows());
        Csv.writeLinks(dir.resolve("links.csv"), r.links());
        List<String> rows = summaryRows(p, f);
        Csv.write(dir.resolve("summary.csv"), "metric,value", rows);
        SimulateCommand.printTable(o, rows);
        o.printf(Locale.ROOT, "wall time %.1f s; wrote %s%n", r.wallMs() / 1000.0, dir.toAbsolutePath());
        return f;
    }
}
