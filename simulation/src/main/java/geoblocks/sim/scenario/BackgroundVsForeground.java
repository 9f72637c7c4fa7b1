package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.bgfg.BgFgNodes;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.LinkSample;
import geoblocks.sim.harness.LinkTotals;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SamplerNode;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.knowm.xchart.XYChart;

/**
 * Issue 9's node experiment in the simulator, with two production {@code NodeParent}s: a near node
 * (region {@code from}) and a far node (region {@code to}) across one bottleneck from near to far
 * (capacity {@code rateMbps}, drop-tail buffer of {@code bufferMs} at full rate, base RTT
 * {@code rttMs}); the nodes' TCP messages ride simulated TCP connections, their LEDBAT streams the
 * real LEDBAT component. A client at the near region stores a foreground file there (policy
 * local), a client at the far region reads it through the far node, so every byte crosses the
 * bottleneck over TCP (foreground class): first alone, then again while the near node's
 * replication queue copies a background file (stored with ack local, policy localclosest) to the
 * far node over {@code background-transport} (background class); the copy then finishes alone.
 *
 * <p>Rates, all goodput at the far region in Mbit/s (10^6 bit/s): {@code fg_alone} and
 * {@code fg_with_bg} are the foreground file's bytes over each get's duration (request to
 * result, as {@code client get} takes); {@code bg_during_fg} the background bytes the far node
 * received during the second get; {@code bg_alone} those it received from the end of that get
 * until the copy was complete. Background bytes are the far node's LEDBAT stream bytes (its
 * {@code status} transfer counters) plus the bytes of TCP replica messages delivered to it.
 */
public final class BackgroundVsForeground {
    private BackgroundVsForeground() {}

    public static final long MIB = 1L << 20;

    /** The scenario's knobs; {@code backgrounds}: the background transports to run, one simulation each. */
    public record Params(long seed, double rateMbps, double bufferMs, String from, String to, double rttMs,
            long fgBytes, long bgBytes, int blockSize, double warmupS, String tcpCc, List<String> backgrounds) {
        public Params {
            backgrounds = List.copyOf(backgrounds);
            if (!(rateMbps > 0) || !(bufferMs > 0)) {
                throw new IllegalArgumentException("rate and buffer must be > 0, were " + rateMbps + " Mbit/s, "
                        + bufferMs + " ms");
            }
            if (!(rttMs >= 0 && rttMs <= 10_000)) {
                throw new IllegalArgumentException("rtt must be in 0..10000 ms, was " + rttMs);
            }
            if (fgBytes < 1 || bgBytes < 1) {
                throw new IllegalArgumentException("file sizes must be >= 1 byte, were " + fgBytes + " and " + bgBytes);
            }
            if (!(warmupS >= 0)) {
                throw new IllegalArgumentException("warm-up must be >= 0 s, was " + warmupS);
            }
            if (backgrounds.isEmpty()) {
                throw new IllegalArgumentException("need at least one background transport");
            }
            for (String b : backgrounds) {
                if (!b.equals("ledbat") && !b.equals("tcp")) {
                    throw new IllegalArgumentException("background transport must be ledbat or tcp, was '" + b + "'");
                }
            }
            if (from.equals(to)) {
                throw new IllegalArgumentException("the two nodes need two regions, got '" + from + "' twice");
            }
        }

        /**
         * Issue 9's sizes: a 32 MiB foreground file, a 200 MiB background copy, 20 Mbit/s with a
         * 400 ms buffer, Dublin to Mumbai (RTT 122 ms), 15 s of background alone before the second
         * get, TCP CUBIC, background over LEDBAT and over TCP.
         */
        public static Params defaults() {
            return new Params(1, 20, 400, "dublin", "mumbai", RttMatrix.specDefaults().rttMs("dublin", "mumbai"),
                    32 * MIB, 200 * MIB, 1 << 20, 15, "cubic", List.of("ledbat", "tcp"));
        }

        /** File sizes times {@code f}, and the warm-up too (at least 2 s), for quick runs. */
        public Params scaled(double f) {
            if (!(f > 0 && f <= 1)) {
                throw new IllegalArgumentException("scale must be in (0, 1], was " + f);
            }
            return new Params(seed, rateMbps, bufferMs, from, to, rttMs, Math.max(1, Math.round(fgBytes * f)),
                    Math.max(1, Math.round(bgBytes * f)), blockSize, Math.max(2, warmupS * f), tcpCc, backgrounds);
        }

        public Params withSeed(long s) {
            return new Params(s, rateMbps, bufferMs, from, to, rttMs, fgBytes, bgBytes, blockSize, warmupS, tcpCc,
                    backgrounds);
        }

        public Params withRttMs(double rtt) {
            return new Params(seed, rateMbps, bufferMs, from, to, rtt, fgBytes, bgBytes, blockSize, warmupS, tcpCc,
                    backgrounds);
        }

        public Params withWarmupS(double w) {
            return new Params(seed, rateMbps, bufferMs, from, to, rttMs, fgBytes, bgBytes, blockSize, w, tcpCc,
                    backgrounds);
        }

        public Params withBackgrounds(List<String> b) {
            return new Params(seed, rateMbps, bufferMs, from, to, rttMs, fgBytes, bgBytes, blockSize, warmupS, tcpCc, b);
        }
    }

    static final String NEAR = "10.1.0.1";
    static final String FAR = "10.2.0.1";
    static final String NEAR_CLIENT = "10.1.0.100";
    static final String FAR_CLIENT = "10.2.0.100";
    /** RTT monitors need three answered probes (1 s apart) before a peer counts as up. */
    static final long START_MS = 5_000;

    /** The bottleneck's link key. */
    static String link(Params p) {
        return p.from() + ">" + p.to();
    }

    /** One simulation: both nodes, both clients and a sampler (every 500 ms); background over {@code background}. */
    public static SimPlan plan(Params p, String background) {
        RttMatrix m = RttMatrix.specDefaults();
        m.put(p.from(), p.to(), p.rttMs());
        m.put(p.to(), p.from(), p.rttMs());
        NetworkSpec net = NetworkSpec.builder(m)
                .host(NEAR, p.from()).host(NEAR_CLIENT, p.from())
                .host(FAR, p.to()).host(FAR_CLIENT, p.to())
                .path(p.from(), p.to(), LinkSpec.ofMbps(p.rateMbps(), p.bufferMs()))
                .build();
        Map<String, String> regions = new LinkedHashMap<>();
        regions.put(p.from(), NEAR + ":47000");
        regions.put(p.to(), FAR + ":47000");
        long warmupMs = Math.round(p.warmupS() * 1000);
        List<NodePlan> nodes = List.of(
                new NodePlan("sampler", 0, "10.9.0.1", 1, new SamplerNode(500)),
                new NodePlan("near", 0, NEAR, 47000,
                        new BgFgNodes.Node(p.from(), regions, p.seed() * 31, background, p.tcpCc(), false)),
                new NodePlan("far", 0, FAR, 47000,
                        new BgFgNodes.Node(p.to(), regions, p.seed() * 31 + 1, background, p.tcpCc(), true)),
                new NodePlan("uploader", 0, NEAR_CLIENT, 48000, new BgFgNodes.Client(p.from(), regions, true, p.seed(),
                        p.fgBytes(), p.bgBytes(), p.blockSize(), START_MS, warmupMs)),
                new NodePlan("downloader", 0, FAR_CLIENT, 48000, new BgFgNodes.Client(p.to(), regions, false, p.seed(),
                        p.fgBytes(), p.bgBytes(), p.blockSize(), START_MS, warmupMs)));
        // a cap far above the expected run: every transfer at a tenth of the link, plus a minute
        double bytes = 2.0 * p.fgBytes() + p.bgBytes();
        long capMs = START_MS + warmupMs + 60_000 + Math.round(bytes * 8 / (p.rateMbps() * 1e5) * 1000);
        return new SimPlan(p.seed(), net, nodes, capMs, 500);
    }

    /** A status sample at the far region: time, downloaded bytes, LEDBAT and TCP-replica background bytes. */
    public record Sample(long ms, long downloaded, long ledbat, long tcpReplica, long tcpBlock) {
        long background() {
            return ledbat + tcpReplica;
        }
    }

    /** A get: when it started and ended (simulated ms), bytes delivered, error or "". */
    public record Get(long startMs, long endMs, long bytes, String error) {
        double mbps() {
            return endMs > startMs ? bytes * 8.0 / (endMs - startMs) / 1000.0 : Double.NaN;
        }

        double seconds() {
            return (endMs - startMs) / 1000.0;
        }
    }

    /** What one simulation gave. */
    public record Series(String background, List<Sample> samples, List<Get> gets, Map<String, Long> phases,
            long copiedMs, List<String> errors, SimResult result) {

        /** Background bytes at the far node at {@code ms}, interpolated between samples. */
        double backgroundAt(double ms) {
            return at(ms, s -> (double) s.background());
        }

        /** Mbit/s of the counter {@code f} over the 500 ms ending at {@code ms}. */
        double mbps(long ms, ToLongFunction<Sample> f) {
            return (at(ms, x -> (double) f.applyAsLong(x)) - at(ms - 500, x -> (double) f.applyAsLong(x))) * 8 / 500 / 1000;
        }

        double at(double ms, Function<Sample, Double> f) {
            if (samples.isEmpty() || ms < samples.get(0).ms()) {
                return 0;
            }
            for (int i = 1; i < samples.size(); i++) {
                Sample a = samples.get(i - 1);
                Sample b = samples.get(i);
                if (ms <= b.ms()) {
                    double fa = f.apply(a);
                    double fb = f.apply(b);
                    return b.ms() == a.ms() ? fb : fa + (fb - fa) * (ms - a.ms()) / (b.ms() - a.ms());
                }
            }
            return f.apply(samples.get(samples.size() - 1));
        }

        /** When the far node's background bytes first reached their final count (the copy's last byte), or -1. */
        long backgroundDoneMs() {
            if (samples.isEmpty()) {
                return -1;
            }
            long last = samples.get(samples.size() - 1).background();
            for (Sample s : samples) {
                if (s.background() == last) {
                    return s.ms();
                }
            }
            return -1;
        }

        /** The phase at {@code ms}: the last one entered at or before it. */
        String phaseAt(long ms) {
            String p = "";
            for (Map.Entry<String, Long> e : phases.entrySet()) {
                if (e.getValue() <= ms) {
                    p = e.getKey();
                }
            }
            return p.toLowerCase(Locale.ROOT);
        }
    }

    /** The four rates of the RESULT line, and what they came from. */
    public record Metrics(String background, double fgAloneMbps, double fgWithBgMbps, double bgAloneMbps,
            double bgDuringFgMbps, double bgWarmupMbps, double fgAloneS, double fgWithBgS, double bgAloneS,
            double bgCopyS, long bgBytesReceived) {

        /** fg_with_bg / fg_alone (aim with LEDBAT: >= 0.9). */
        public double fgRatio() {
            return fgWithBgMbps / fgAloneMbps;
        }

        public String resultLine() {
            return String.format(Locale.ROOT, "RESULT background=%s fg_alone_mbps=%.2f fg_with_bg_mbps=%.2f"
                    + " bg_alone_mbps=%.2f bg_during_fg_mbps=%.2f", background, fgAloneMbps, fgWithBgMbps, bgAloneMbps,
                    bgDuringFgMbps);
        }
    }

    /** Runs one simulation per background transport, in order. */
    public static List<Series> run(Params p, Function<SimPlan, SimResult> runner) {
        List<Series> out = new ArrayList<>();
        for (String b : p.backgrounds()) {
            out.add(parse(b, runner.apply(plan(p, b))));
        }
        return out;
    }

    static Series parse(String background, SimResult r) {
        List<Sample> samples = new ArrayList<>();
        List<Get> gets = new ArrayList<>();
        Map<String, Long> phases = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>(r.faults());
        long copied = -1;
        for (String rec : r.extra()) {
            String[] f = rec.split("\\|", -1);
            switch (f[0]) {
                case "S" -> samples.add(new Sample(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                        Long.parseLong(f[5]), Long.parseLong(f[6])));
                case "G" -> {
                    gets.add(new Get(Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), f[5]));
                    if (!f[5].isEmpty()) {
                        errors.add("get " + f[1] + ": " + f[5]);
                    }
                }
                case "P" -> phases.put(f[1], Long.parseLong(f[2]));
                case "C" -> copied = Long.parseLong(f[1]);
                case "E" -> errors.add(f[1]);
                default -> throw new IllegalStateException("unknown record " + rec);
            }
        }
        if (copied < 0) {
            errors.add("the background copy did not complete within " + r.links().stream()
                    .mapToLong(LinkSample::timeMs).max().orElse(0) / 1000 + " simulated s");
        }
        return new Series(background, samples, gets, phases, copied, errors, r);
    }

    /** The rates of one series (NaN where the run did not get that far). */
    public static Metrics metrics(Params p, Series s) {
        double fgAlone = s.gets().size() > 0 ? s.gets().get(0).mbps() : Double.NaN;
        double fgAloneS = s.gets().size() > 0 ? s.gets().get(0).seconds() : Double.NaN;
        if (s.gets().size() < 2) {
            return new Metrics(s.background(), fgAlone, Double.NaN, Double.NaN, Double.NaN, Double.NaN, fgAloneS,
                    Double.NaN, Double.NaN, Double.NaN, 0);
        }
        Get g = s.gets().get(1);
        double during = rate(s, g.startMs(), g.endMs());
        long done = s.backgroundDoneMs();
        double alone = done > g.endMs() + 1000 ? rate(s, g.endMs(), done) : Double.NaN;
        double warmupEnd = g.startMs();
        double warmupStart = warmupEnd - p.warmupS() * 500; // the second half of the warm-up
        double warm = rate(s, warmupStart, warmupEnd);
        Long putDone = s.phases().get("WARMUP");
        double copyS = putDone != null && done > 0 ? (done - putDone) / 1000.0 : Double.NaN;
        long received = s.samples().isEmpty() ? 0 : s.samples().get(s.samples().size() - 1).background();
        return new Metrics(s.background(), fgAlone, g.mbps(), alone, during, warm, fgAloneS, g.seconds(),
                done > g.endMs() ? (done - g.endMs()) / 1000.0 : Double.NaN, copyS, received);
    }

    private static double rate(Series s, double fromMs, double toMs) {
        return (s.backgroundAt(toMs) - s.backgroundAt(fromMs)) * 8 / (toMs - fromMs) / 1000.0;
    }

    /**
     * timeseries.csv: per 500 ms, goodput at the far region of the foreground (block messages of the
     * gets, arriving at the far node over TCP; {@code fg_client_mbps}: what the client received, in
     * whole verified blocks) and of the background (LEDBAT stream bytes plus TCP replica bytes
     * arriving at the far node), the near-to-far TCP connection's delivery rate and cwnd, the
     * bottleneck's queuing delay (backlog at the instant) and utilization over the period.
     */
    public static final String TIMESERIES_HEADER = "background,time_s,phase,fg_mbps,bg_mbps,bg_ledbat_mbps,bg_tcp_mbps,"
            + "fg_client_mbps,tcp_near_to_far_mbps,tcp_cwnd_bytes,bottleneck_queue_ms,link_utilization";

    /** Rows of timeseries.csv: every 500 ms of each series. */
    public static List<String> timeseriesRows(Params p, List<Series> all) {
        List<String> rows = new ArrayList<>();
        for (Series s : all) {
            Map<Long, FlowSample> tcp = new LinkedHashMap<>();
            for (FlowSample f : s.result().flow("tcp " + p.from() + ">" + p.to())) {
                tcp.put(f.timeMs(), f);
            }
            Map<Long, LinkSample> links = new LinkedHashMap<>();
            for (LinkSample l : s.result().link(link(p))) {
                links.put(l.timeMs(), l);
            }
            long end = s.samples().isEmpty() ? 0 : s.samples().get(s.samples().size() - 1).ms();
            for (long t = 500; t <= end; t += 500) {
                double fg = s.mbps(t, Sample::tcpBlock);
                double led = s.mbps(t, Sample::ledbat);
                double tr = s.mbps(t, Sample::tcpReplica);
                double client = s.mbps(t, Sample::downloaded);
                FlowSample f = tcp.get(t);
                LinkSample l = links.get(t);
                rows.add(s.background() + "," + Csv.num(t / 1000.0, 1) + "," + s.phaseAt(t) + "," + Csv.num(fg, 3) + ","
                        + Csv.num(led + tr, 3) + "," + Csv.num(led, 3) + "," + Csv.num(tr, 3) + "," + Csv.num(client, 3) + ","
                        + Csv.num(f == null ? Double.NaN : f.throughputMbps(), 3) + ","
                        + Csv.num(f == null ? Double.NaN : f.cwndBytes(), 0) + ","
                        + Csv.num(l == null ? Double.NaN : l.backlogMs(), 2) + ","
                        + Csv.num(l == null ? Double.NaN : l.utilization(), 4));
            }
        }
        return rows;
    }

    public static final String SUMMARY_HEADER = "background,fg_alone_mbps,fg_with_bg_mbps,bg_alone_mbps,bg_during_fg_mbps,"
            + "bg_warmup_mbps,fg_with_bg_over_alone,bg_alone_over_link,fg_alone_s,fg_with_bg_s,bg_alone_s,bg_copy_s,"
            + "bg_bytes_received,bottleneck_drops,bottleneck_mean_queue_ms,bottleneck_max_queue_ms,rate_mbps,buffer_ms,"
            + "rtt_ms,fg_bytes,bg_bytes,tcp,seed";

    public static List<String> summaryRows(Params p, List<Series> all) {
        List<String> rows = new ArrayList<>();
        for (Series s : all) {
            Metrics m = metrics(p, s);
            LinkTotals t = s.result().linkTotals().stream().filter(x -> x.link().equals(link(p))).findFirst()
                    .orElse(new LinkTotals(link(p), 0, 0, 0, Double.NaN, Double.NaN));
            rows.add(s.background() + "," + Csv.num(m.fgAloneMbps(), 3) + "," + Csv.num(m.fgWithBgMbps(), 3) + ","
                    + Csv.num(m.bgAloneMbps(), 3) + "," + Csv.num(m.bgDuringFgMbps(), 3) + ","
                    + Csv.num(m.bgWarmupMbps(), 3) + "," + Csv.num(m.fgRatio(), 3) + ","
                    + Csv.num(m.bgAloneMbps() / p.rateMbps(), 3) + "," + Csv.num(m.fgAloneS(), 3) + ","
                    + Csv.num(m.fgWithBgS(), 3) + "," + Csv.num(m.bgAloneS(), 3) + "," + Csv.num(m.bgCopyS(), 3) + ","
                    + m.bgBytesReceived() + "," + t.drops() + "," + Csv.num(t.meanQueueDelayMs(), 2) + ","
                    + Csv.num(t.maxQueueDelayMs(), 2) + "," + Csv.num(p.rateMbps(), 1) + "," + Csv.num(p.bufferMs(), 1)
                    + "," + Csv.num(p.rttMs(), 1) + "," + p.fgBytes() + "," + p.bgBytes() + "," + p.tcpCc() + ","
                    + p.seed());
        }
        return rows;
    }

    /** Writes timeseries.csv, summary.csv and background-vs-foreground.png into {@code dir}. */
    public static void write(Path dir, Params p, List<Series> all, boolean plot) throws IOException {
        Csv.write(dir.resolve("timeseries.csv"), TIMESERIES_HEADER, timeseriesRows(p, all));
        Csv.write(dir.resolve("summary.csv"), SUMMARY_HEADER, summaryRows(p, all));
        if (plot) {
            Charts.writeStacked(dir.resolve("background-vs-foreground.png"), panels(p, all));
        }
    }

    static List<XYChart> panels(Params p, List<Series> all) {
        List<XYChart> panels = new ArrayList<>();
        Map<String, double[][]> queue = new LinkedHashMap<>();
        for (Series s : all) {
            Metrics m = metrics(p, s);
            List<double[]> fg = new ArrayList<>();
            List<double[]> bg = new ArrayList<>();
            for (String row : timeseriesRows(p, List.of(s))) {
                String[] c = row.split(",", -1);
                double t = Double.parseDouble(c[1]);
                fg.add(new double[] {t, Double.parseDouble(c[3])});
                bg.add(new double[] {t, Double.parseDouble(c[4])});
            }
            Map<String, double[][]> thr = new LinkedHashMap<>();
            thr.put("foreground get (TCP)", xy(fg));
            thr.put("background copy (" + s.background().toUpperCase(Locale.ROOT) + ")", xy(bg));
            String title = String.format(Locale.ROOT, "background over %s: fg alone %.1f, fg with bg %.1f (%.0f %%),"
                    + " bg alone %.1f, bg during fg %.1f Mbit/s", s.background().toUpperCase(Locale.ROOT),
                    m.fgAloneMbps(), m.fgWithBgMbps(), 100 * m.fgRatio(), m.bgAloneMbps(), m.bgDuringFgMbps());
            panels.add(Charts.timeSeries(title, "goodput (Mbit/s)", thr, 1000, 300, 1.25 * p.rateMbps()));
            List<double[]> q = new ArrayList<>();
            for (LinkSample l : s.result().link(link(p))) {
                q.add(new double[] {l.timeMs() / 1000.0, l.backlogMs()});
            }
            queue.put("background over " + s.background(), xy(q));
        }
        panels.add(Charts.timeSeries(String.format(Locale.ROOT, "bottleneck queuing delay (%.0f Mbit/s, %.0f ms buffer,"
                + " RTT %.0f ms)", p.rateMbps(), p.bufferMs(), p.rttMs()), "ms", queue, 1000, 260));
        return panels;
    }

    private static double[][] xy(List<double[]> pts) {
        double[][] out = new double[2][pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            out[0][i] = pts.get(i)[0];
            out[1][i] = pts.get(i)[1];
        }
        return out;
    }

    /**
     * Runs every series, writes the files and prints a RESULT line per background transport (the
     * CLI); fails after writing them if a transfer failed or the copy did not complete.
     */
    public static List<Metrics> runCli(Path dir, Params p, boolean plot, PrintStream o,
            Function<SimPlan, SimResult> runner) throws IOException {
        o.printf(Locale.ROOT, "background-vs-foreground: %.0f Mbit/s %s->%s, buffer %.0f ms, RTT %.1f ms, foreground %s,"
                + " background %s, TCP %s, warm-up %.1f s, seed %d%n", p.rateMbps(), p.from(), p.to(), p.bufferMs(),
                p.rttMs(), size(p.fgBytes()), size(p.bgBytes()), p.tcpCc(), p.warmupS(), p.seed());
        List<Series> all = new ArrayList<>();
        for (String b : p.backgrounds()) {
            o.print("background over " + b + ": ");
            Series s = parse(b, runner.apply(plan(p, b)));
            all.add(s);
            if (!s.errors().isEmpty()) {
                o.println("errors: " + s.errors());
            }
        }
        write(dir, p, all, plot);
        List<Metrics> out = new ArrayList<>();
        o.println();
        for (Series s : all) {
            Metrics m = metrics(p, s);
            out.add(m);
            o.printf(Locale.ROOT, "  background over %-6s fg alone %6.2f Mbit/s (%.1f s), fg with bg %6.2f Mbit/s (%.1f s,"
                    + " %.0f %% of alone), bg alone %6.2f Mbit/s (%.0f %% of the link), bg during fg %6.2f Mbit/s%n",
                    s.background(), m.fgAloneMbps(), m.fgAloneS(), m.fgWithBgMbps(), m.fgWithBgS(), 100 * m.fgRatio(),
                    m.bgAloneMbps(), 100 * m.bgAloneMbps() / p.rateMbps(), m.bgDuringFgMbps());
        }
        o.println();
        for (Metrics m : out) {
            o.println(m.resultLine());
        }
        o.printf(Locale.ROOT, "wrote %s%n", dir.toAbsolutePath());
        for (Series s : all) {
            if (!s.errors().isEmpty()) {
                throw new IllegalStateException("background over " + s.background() + ": " + s.errors().get(0));
            }
        }
        return out;
    }

    private static String size(long bytes) {
        return bytes % MIB == 0 ? bytes / MIB + " MiB" : String.format(Locale.ROOT, "%.2f MiB", bytes / (double) MIB);
    }
}
