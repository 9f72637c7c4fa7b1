package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.FlowSample;
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
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Experiment 7, DataBridge: a client in region {@code client} uploads files of each size to a bucket
 * whose home is the far region {@code home}, either directly (one TCP flow across the WAN path to the
 * home node) or redirected to the node of its own region (one TCP flow over its access link, RTT
 * {@code accessRttMs}), which then migrates the file home in the background the way a node's
 * {@code move} does (LEDBAT, {@code migrationStreams} streams of {@code blockBytes}-byte blocks). The
 * client waits for the upload; the file is home when the direct upload, or the migration after the
 * redirected upload, has delivered every byte. Each leg is its own seeded simulation with the given
 * random packet loss on every path (the emulated WAN's loss); a leg's time to N bytes is read off
 * the receiver's in-order delivery, so one run per leg and loss gives every size.
 */
public final class DataBridge {
    private DataBridge() {}

    /** The scenario's knobs. */
    public record Params(long seed, List<Integer> sizesMb, String client, String home, double wanMbps, double accessMbps,
            double accessRttMs, double bufferMs, List<Double> losses, String tcpCc, LedbatOptions ledbat,
            int migrationStreams, int blockBytes, double maxSimulatedS) {
        public Params {
            sizesMb = List.copyOf(sizesMb);
            losses = List.copyOf(losses);
            if (sizesMb.isEmpty() || sizesMb.stream().anyMatch(s -> s < 1)) {
                throw new IllegalArgumentException("sizes must be >= 1 MB, were " + sizesMb);
            }
            if (losses.isEmpty() || losses.stream().anyMatch(l -> !(l >= 0 && l < 0.5))) {
                throw new IllegalArgumentException("loss rates must be in [0, 0.5), were " + losses);
            }
            if (!(wanMbps > 0 && accessMbps > 0 && accessRttMs > 0 && bufferMs > 0 && maxSimulatedS > 0)) {
                throw new IllegalArgumentException("rates, access RTT, buffer and max simulated time must be > 0");
            }
            if (client.equals(home)) {
                throw new IllegalArgumentException("the client's region and the home region must differ, both " + client);
            }
            if (migrationStreams < 1 || blockBytes < 1) {
                throw new IllegalArgumentException("migration streams and block bytes must be >= 1");
            }
        }

        /**
         * The issue's setting: 50, 100 and 300 MB from Seoul to Sao Paulo (RTT 298 ms), 0 % and 2 % loss,
         * 100 Mbit/s WAN path and access link, client 10 ms from its region's node, TCP Cubic, LEDBAT
         * target 100 ms, 4 migration streams of 1 MiB blocks (as Migrations.PARALLEL).
         */
        public static Params defaults(long seed) {
            return new Params(seed, List.of(50, 100, 300), "seoul", "saopaulo", 100, 100, 10, 200, List.of(0.0, 0.02),
                    "cubic", LedbatOptions.rfc(100), 4, 1 << 20, 4 * 3600);
        }

        public double wanRttMs() {
            return RttMatrix.specDefaults().rttMs(client, home);
        }

        long maxBytes() {
            return sizesMb.stream().mapToLong(s -> s * 1_000_000L).max().orElseThrow();
        }
    }

    /** The three legs: the direct upload, the redirected upload and the migration home. */
    public enum Leg {
        DIRECT, NEAR, MIGRATION
    }

    static final String CLIENT = "10.1.0.1";
    static final String NEAR = "10.1.0.2";
    static final String HOME = "10.2.0.1";

    /** The plan of one leg at one loss rate, run long enough to move the largest size at the expected rate. */
    public static SimPlan plan(Params p, Leg leg, double loss) {
        NetworkSpec net = NetworkSpec.builder(RttMatrix.specDefaults())
                .host(CLIENT, p.client()).host(NEAR, p.client()).host(HOME, p.home())
                .path(p.client(), p.home(), LinkSpec.ofMbps(p.wanMbps(), p.bufferMs()))
                .lan(p.client(), LinkSpec.ofMbps(p.accessMbps(), p.bufferMs()))
                .localRttMs(p.accessRttMs()).lossRate(loss)
                .build();
        long durationMs = Math.round(1000 * Math.min(p.maxSimulatedS(), expectedSeconds(p, leg, loss)));
        List<NodePlan> nodes = new ArrayList<>();
        nodes.add(new NodePlan("sampler", 0, "10.9.0.1", 1, new SamplerNode(200)));
        switch (leg) {
            case DIRECT -> {
                nodes.add(new NodePlan("home", 0, HOME, 8000, new TcpNodes.Receiver("direct")));
                nodes.add(new NodePlan("client", 0, CLIENT, 8000, new TcpNodes.Sender(HOME, 8000, "direct", p.tcpCc(), 0)));
            }
            case NEAR -> {
                nodes.add(new NodePlan("near", 0, NEAR, 8000, new TcpNodes.Receiver("near")));
                nodes.add(new NodePlan("client", 0, CLIENT, 8000, new TcpNodes.Sender(NEAR, 8000, "near", p.tcpCc(), 0)));
            }
            case MIGRATION -> {
                List<String> flows = new ArrayList<>();
                for (int i = 1; i <= p.migrationStreams(); i++) {
                    flows.add("migration" + i);
                }
                nodes.add(new NodePlan("home", 0, HOME, 7000, new LedbatNodes.Receiver(p.ledbat())));
                nodes.add(new NodePlan("near", 0, NEAR, 7000,
                        new LedbatNodes.Sender(HOME, 7000, flows, p.ledbat(), p.blockBytes())));
            }
        }
        return new SimPlan(p.seed(), net, nodes, durationMs, 200);
    }

    /**
     * Simulated seconds a leg gets: 2.5 x the largest size at the lower of the link rate and the Mathis
     * et al. bound for a loss-limited TCP flow (MSS 1448 B: rate = MSS / RTT x 1.22 / sqrt(p)), plus 30 s.
     */
    static double expectedSeconds(Params p, Leg leg, double loss) {
        double rttS = (leg == Leg.NEAR ? p.accessRttMs() : p.wanRttMs()) / 1000.0;
        double link = (leg == Leg.NEAR ? p.accessMbps() : p.wanMbps()) * 1e6;
        double rate = loss > 0 ? Math.min(link, 1448 * 8 / rttS * 1.22 / Math.sqrt(loss)) : link;
        return 2.5 * p.maxBytes() * 8 / rate + 30;
    }

    /** Seconds until {@code bytes} were delivered in order (summed over the leg's flows), or NaN if never. */
    static double secondsTo(List<FlowSample> samples, long bytes, long sampleMs) {
        Map<Long, Double> mbitByTime = new java.util.TreeMap<>();
        for (FlowSample s : samples) {
            if (!Double.isNaN(s.throughputMbps())) {
                mbitByTime.merge(s.timeMs(), s.throughputMbps() * sampleMs / 1000.0, Double::sum);
            }
        }
        double bits = 0;
        for (Map.Entry<Long, Double> e : mbitByTime.entrySet()) {
            double before = bits;
            bits += e.getValue() * 1e6;
            if (bits >= bytes * 8.0) {
                double frac = (bytes * 8.0 - before) / (bits - before); // linear within the sample period
                return (e.getKey() - sampleMs + frac * sampleMs) / 1000.0;
            }
        }
        return Double.NaN;
    }

    /** One size at one loss rate: the client's wait and the time until the file is home, both ways. */
    public record Outcome(int sizeMb, double loss, double directS, double nearS, double migrationS) {
        public double redirectedHomeS() {
            return nearS + migrationS;
        }
    }

    /** Runs every leg at every loss rate with {@code runner} and returns the outcomes and each run's samples. */
    public static Map<String, SimResult> runAll(Params p, Function<SimPlan, SimResult> runner, List<Outcome> out) {
        Map<String, SimResult> runs = new LinkedHashMap<>();
        for (double loss : p.losses()) {
            Map<Leg, SimResult> legs = new LinkedHashMap<>();
            for (Leg leg : Leg.values()) {
                SimResult r = runner.apply(plan(p, leg, loss));
                legs.put(leg, r);
                runs.put(leg.name().toLowerCase(Locale.ROOT) + "@" + Csv.num(loss, 3), r);
            }
            for (int mb : p.sizesMb()) {
                long bytes = mb * 1_000_000L;
                out.add(new Outcome(mb, loss, secondsTo(legs.get(Leg.DIRECT).flows(), bytes, 200),
                        secondsTo(legs.get(Leg.NEAR).flows(), bytes, 200),
                        secondsTo(legs.get(Leg.MIGRATION).flows(), bytes, 200)));
            }
        }
        return runs;
    }

    static String num(double v) {
        return Double.isNaN(v) ? "" : Csv.num(v, 1);
    }

    /** summary.csv rows. */
    public static List<String> rows(List<Outcome> outcomes) {
        List<String> rows = new ArrayList<>();
        for (Outcome o : outcomes) {
            double speedup = o.directS() / o.nearS();
            rows.add(o.sizeMb() + "," + Csv.num(o.loss(), 3) + "," + num(o.directS()) + "," + num(o.nearS()) + ","
                    + num(o.migrationS()) + "," + num(o.redirectedHomeS()) + "," + (Double.isNaN(speedup) ? "" : Csv.num(speedup, 2)));
        }
        return rows;
    }

    static final String HEADER = "size_mb,loss,direct_s,redirected_client_s,migration_s,redirected_home_s,client_speedup";

    /** Runs the scenario, writes summary.csv, timeseries.csv and databridge.png into {@code dir}, prints the table. */
    public static void runCli(Path dir, Params p, boolean plot, PrintStream o, Function<SimPlan, SimResult> runner)
            throws IOException {
        o.printf(Locale.ROOT, "databridge: %s -> home %s (RTT %.0f ms), WAN %.0f Mbit/s, access %.0f Mbit/s RTT %.0f ms,"
                + " TCP %s, LEDBAT target %d ms x%d streams, sizes %s MB, loss %s, seed %d%n", p.client(), p.home(),
                p.wanRttMs(), p.wanMbps(), p.accessMbps(), p.accessRttMs(), p.tcpCc(), p.ledbat().targetMs(),
                p.migrationStreams(), p.sizesMb(), p.losses(), p.seed());
        List<Outcome> outcomes = new ArrayList<>();
        Map<String, SimResult> runs = runAll(p, runner, outcomes);
        List<String> rows = rows(outcomes);
        Csv.write(dir.resolve("summary.csv"), HEADER, rows);
        List<FlowSample> all = new ArrayList<>();
        runs.forEach((k, r) -> r.flows().forEach(s -> all.add(new FlowSample(s.timeMs(), k + ":" + s.flow(), s.kind(),
                s.throughputMbps(), s.cwndBytes(), s.rttMs(), s.queuingDelayMs(), s.ownQueuingDelayMs()))));
        Csv.writeTimeseries(dir.resolve("timeseries.csv"), all);
        if (plot) {
            List<org.knowm.xchart.CategoryChart> panels = new ArrayList<>();
            for (double loss : p.losses()) {
                List<Outcome> at = outcomes.stream().filter(x -> x.loss() == loss).toList();
                List<String> categories = at.stream().map(x -> x.sizeMb() + " MB").toList();
                Map<String, double[][]> series = new LinkedHashMap<>();
                series.put("direct: client waits = home", bars(at, Outcome::directS));
                series.put("redirected: client waits", bars(at, Outcome::nearS));
                series.put("redirected: home (after migration)", bars(at, Outcome::redirectedHomeS));
                panels.add(Charts.bars(String.format(Locale.ROOT, "DataBridge, %s client, home %s (RTT %.0f ms), %s%% loss",
                        p.client(), p.home(), p.wanRttMs(), Csv.num(100 * loss, 1)), "seconds", categories, series, 1000, 330));
            }
            Charts.writeStacked(dir.resolve("databridge.png"), panels);
        }
        o.println();
        o.println("  " + HEADER.replace(',', '\t'));
        for (String r : rows) {
            o.println("  " + r.replace(',', '\t'));
        }
        o.println();
        o.println("wrote " + dir.toAbsolutePath());
    }

    /** Bar heights (NaN, never reached, as 0) and zero error bars. */
    private static double[][] bars(List<Outcome> at, java.util.function.ToDoubleFunction<Outcome> f) {
        double[][] out = new double[2][at.size()];
        for (int i = 0; i < at.size(); i++) {
            double v = f.applyAsDouble(at.get(i));
            out[0][i] = Double.isNaN(v) ? 0 : v;
        }
        return out;
    }
}
