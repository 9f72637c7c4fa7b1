package geoblocks.sim.scenario;

import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.reads.ReadsScript;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;

/**
 * {@code simulate hedged-reads} (SPEC.md experiment 5): tail latency of one download by read
 * strategy. Files of 1 kB to 10 MB are stored on three replicas ({@code localclosest3} from seoul:
 * seoul, mumbai, dublin) and read one at a time at saopaulo, whose nearest replica, dublin, is the
 * slowed one: noise readers at mumbai keep pulling a file stored at dublin only, so dublin's
 * uplink carries bursts of their blocks and a block from dublin sometimes waits behind them. One
 * slot per strategy ({@code first}, {@code parallel}, {@code hedged}, replicas ranked by RTT), each
 * with its own nodes and links and the same seeded noise; p50, p90 and p99 of the download time
 * per strategy and size, and the bytes that crossed the paths into saopaulo per read.
 */
public final class HedgedReads {
    private HedgedReads() {}

    public static final List<String> STRATEGIES = List.of("first", "parallel", "hedged");
    public static final List<Integer> SIZES = List.of(1_000, 10_000, 100_000, 1_000_000, 10_000_000);

    public record Params(long seed, List<String> strategies, List<Integer> sizes, int readsPerSize, int noiseReaders,
            int noiseBytes, long noiseThinkMs, double dublinUplinkMbps) {
        public Params {
            strategies = List.copyOf(strategies);
            sizes = List.copyOf(sizes);
            strategies.forEach(s -> ReadOptions.parse(s, "rtt"));
            if (readsPerSize < 1 || noiseReaders < 0 || noiseBytes < 1 || noiseThinkMs < 0 || !(dublinUplinkMbps > 0)) {
                throw new IllegalArgumentException("reads >= 1, noise readers >= 0, noise bytes >= 1, think time >= 0 and"
                        + " uplink > 0 needed, were " + readsPerSize + ", " + noiseReaders + ", " + noiseBytes + ", "
                        + noiseThinkMs + ", " + dublinUplinkMbps);
            }
            if (sizes.isEmpty() || sizes.stream().anyMatch(x -> x < 1)) {
                throw new IllegalArgumentException("file sizes must be >= 1 byte, were " + sizes);
            }
        }

        /** 1 kB..10 MB, 30 reads each; 1 noise reader of a 4 MiB file, 4 s mean think time; dublin's uplink 50 Mbit/s. */
        public static Params defaults(long seed) {
            return new Params(seed, STRATEGIES, SIZES, 30, 1, 4 << 20, 4000, 50);
        }
    }

    /** One row of summary.csv. */
    public record Summary(String strategy, int size, int reads, int failed, double p50, double p90, double p99,
            double mean, double bytesInPerRead) {}

    static List<ReadsRuns.Slot> slots(Params p) {
        List<ReadsRuns.Slot> out = new ArrayList<>();
        for (int k = 0; k < p.strategies().size(); k++) {
            out.add(new ReadsRuns.Slot(p.strategies().get(k), new ReadsScript(k, p.seed(), p.sizes(), p.readsPerSize(),
                    250, p.strategies().get(k), "rtt", "localclosest3", p.noiseBytes(), "at-dublin", p.noiseThinkMs(),
                    1 << 20), p.noiseReaders()));
        }
        return out;
    }

    public static ReadsRuns.Outcome run(Params p) {
        List<ReadsRuns.Slot> slots = slots(p);
        long cap = 60_000 + (long) p.readsPerSize() * p.sizes().size() * 20_000;
        return ReadsRuns.run(ReadsRuns.plan(p.seed(), slots, p.dublinUplinkMbps(), cap));
    }

    public static List<Summary> summaries(Params p, ReadsRuns.Outcome o) {
        List<Summary> out = new ArrayList<>();
        for (int k = 0; k < p.strategies().size(); k++) {
            for (int size : p.sizes()) {
                int slot = k;
                double[] ms = o.sortedMs(slot, size);
                long all = o.reads().stream().filter(r -> r.slot() == slot && r.size() == size).count();
                long bytes = o.bytesIn(slot, size);
                out.add(new Summary(p.strategies().get(k), size, (int) all, (int) (all - ms.length),
                        PlacementCapacity.quantile(ms, 0.5), PlacementCapacity.quantile(ms, 0.9),
                        PlacementCapacity.quantile(ms, 0.99), Placement.mean(ms), all == 0 ? Double.NaN : (double) bytes / all));
            }
        }
        return out;
    }

    public static final String SUMMARY_HEADER = "strategy,size_bytes,p50_ms,p90_ms,p99_ms";

    /** Writes summary.csv, details.csv, reads.csv and hedged-reads.png into {@code dir}. */
    public static void write(Path dir, Params p, ReadsRuns.Outcome o, boolean plot) throws IOException {
        List<Summary> sums = summaries(p, o);
        Csv.write(dir.resolve("summary.csv"), SUMMARY_HEADER, sums.stream().map(s -> s.strategy() + "," + s.size() + ","
                + Csv.num(s.p50(), 1) + "," + Csv.num(s.p90(), 1) + "," + Csv.num(s.p99(), 1)).toList());
        Csv.write(dir.resolve("details.csv"), "strategy,size_bytes,reads,failed,mean_ms,bytes_in_per_read",
                sums.stream().map(s -> s.strategy() + "," + s.size() + "," + s.reads() + "," + s.failed() + ","
                        + Csv.num(s.mean(), 1) + "," + Csv.num(s.bytesInPerRead(), 0)).toList());
        Csv.write(dir.resolve("reads.csv"), "strategy,size_bytes,read,ms,error", o.reads().stream()
                .map(r -> p.strategies().get(r.slot()) + "," + r.size() + "," + r.index() + "," + r.ms() + ","
                        + r.error().replace(',', ';')).toList());
        if (plot) {
            Charts.writeStacked(dir.resolve("hedged-reads.png"), List.of(chart(p, sums, "p50"), chart(p, sums, "p99")));
        }
    }

    private static CategoryChart chart(Params p, List<Summary> sums, String which) {
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (String st : p.strategies()) {
            double[] v = sums.stream().filter(s -> s.strategy().equals(st))
                    .mapToDouble(s -> which.equals("p50") ? s.p50() : s.p99()).toArray();
            series.put(st, new double[][] {v, new double[v.length]});
        }
        List<String> cats = p.sizes().stream().map(HedgedReads::size).toList();
        return Charts.bars("Download time at saopaulo, " + which + " (3 replicas; dublin, the nearest, loaded)",
                which + " download time (ms)", cats, series, 900, 320);
    }

    static String size(long bytes) {
        if (bytes >= 1_000_000 && bytes % 1_000_000 == 0) {
            return bytes / 1_000_000 + " MB";
        }
        return bytes >= 1000 && bytes % 1000 == 0 ? bytes / 1000 + " kB" : bytes + " B";
    }

    /** Runs, writes and prints the summary table (the CLI). */
    public static ReadsRuns.Outcome runCli(Path dir, Params p, boolean plot, PrintStream out) throws IOException {
        out.printf(Locale.ROOT, "hedged-reads: files %s on 3 replicas (localclosest3 from seoul), read %d times each at"
                + " saopaulo; %d noise readers of %d bytes at mumbai (mean think %d ms) on dublin's %.0f Mbit/s uplink;"
                + " strategies %s; seed %d%n", p.sizes().stream().map(HedgedReads::size).toList(), p.readsPerSize(),
                p.noiseReaders(), p.noiseBytes(), p.noiseThinkMs(), p.dublinUplinkMbps(), p.strategies(), p.seed());
        out.print("simulating ...");
        out.flush();
        ReadsRuns.Outcome o = run(p);
        out.printf(Locale.ROOT, " %.1f s wall%n", o.wallMs() / 1000.0);
        o.errors().forEach(e -> out.println("  error: " + e));
        write(dir, p, o, plot);
        out.printf(Locale.ROOT, "%n  %-9s %8s %6s %9s %9s %9s %9s %12s%n", "strategy", "size", "reads", "p50 ms", "p90 ms",
                "p99 ms", "mean ms", "MB in/read");
        for (Summary s : summaries(p, o)) {
            out.printf(Locale.ROOT, "  %-9s %8s %6d %9.1f %9.1f %9.1f %9.1f %12.3f%n", s.strategy(), size(s.size()),
                    s.reads() - s.failed(), s.p50(), s.p90(), s.p99(), s.mean(), s.bytesInPerRead() / 1e6);
        }
        out.println("  replicas: " + o.replicas().values().stream().distinct().toList() + "; noise reads per slot: "
                + o.noiseReads().values());
        out.printf(Locale.ROOT, "%nwrote %s%n", dir.toAbsolutePath());
        return o;
    }
}
