package geoblocks.sim.scenario;

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
 * {@code simulate flooded-server} (SPEC.md experiment 3): the near replica's node under N concurrent
 * readers. Test files live at seoul, mumbai and dublin; the reader at saopaulo is nearest to dublin
 * (184 ms against 298 and 305), whose uplink N noise readers at mumbai keep busy (each reads a
 * file stored at dublin only, thinks an exponential time, reads again). For each N, three slots:
 * {@code near} reads nearest first ({@code --read first --rank rtt}: always dublin), {@code far} reads files
 * stored without dublin ({@code no-dublin}: seoul, mumbai), so always from seoul, and {@code load}
 * reads nearest first by measured service latency ({@code --rank load}). Where {@code far} beats
 * {@code near} reading the farther replica pays; {@code load} shows whether the load-aware choice
 * finds it.
 */
public final class FloodedServer {
    private FloodedServer() {}

    public static final List<String> VARIANTS = List.of("near", "far", "load");

    public record Params(long seed, List<Integer> noiseReaders, List<Integer> sizes, int readsPerSize, int noiseBytes,
            long noiseThinkMs, double dublinUplinkMbps) {
        public Params {
            noiseReaders = List.copyOf(noiseReaders);
            sizes = List.copyOf(sizes);
            if (noiseReaders.isEmpty() || noiseReaders.stream().anyMatch(n -> n < 0 || n > 100)) {
                throw new IllegalArgumentException("noise readers must be in 0..100, were " + noiseReaders);
            }
            if (sizes.isEmpty() || sizes.stream().anyMatch(x -> x < 1) || readsPerSize < 1 || noiseBytes < 1
                    || noiseThinkMs < 0 || !(dublinUplinkMbps > 0)) {
                throw new IllegalArgumentException("sizes >= 1, reads >= 1, noise bytes >= 1, think >= 0 and uplink > 0"
                        + " needed, were " + sizes + ", " + readsPerSize + ", " + noiseBytes + ", " + noiseThinkMs + ", "
                        + dublinUplinkMbps);
            }
        }

        /** N = 0, 1, 2, 4, 8, 16; files of 100 kB and 1 MB read 20 times; noise files of 4 MiB, 1 s think; 100 Mbit/s. */
        public static Params defaults(long seed) {
            return new Params(seed, List.of(0, 1, 2, 4, 8, 16), List.of(100_000, 1_000_000), 20, 4 << 20, 1000, 100);
        }
    }

    public record Summary(int noiseReaders, String variant, int size, int reads, int failed, double p50, double p90,
            double mean) {}

    static List<ReadsRuns.Slot> slots(Params p) {
        List<ReadsRuns.Slot> out = new ArrayList<>();
        for (int n : p.noiseReaders()) {
            for (String v : VARIANTS) {
                int k = out.size();
                String policy = v.equals("far") ? "no-dublin" : "localclosest3";
                String rank = v.equals("load") ? "load" : "rtt";
                out.add(new ReadsRuns.Slot(v + "/" + n, new ReadsScript(k, p.seed(), p.sizes(), p.readsPerSize(), 250,
                        "first", rank, policy, p.noiseBytes(), "at-dublin", p.noiseThinkMs(), 1 << 20), n));
            }
        }
        return out;
    }

    public static ReadsRuns.Outcome run(Params p) {
        long cap = 60_000 + (long) p.readsPerSize() * p.sizes().size() * 30_000;
        return ReadsRuns.run(ReadsRuns.plan(p.seed(), slots(p), p.dublinUplinkMbps(), cap));
    }

    public static List<Summary> summaries(Params p, ReadsRuns.Outcome o) {
        List<Summary> out = new ArrayList<>();
        List<ReadsRuns.Slot> slots = slots(p);
        for (int k = 0; k < slots.size(); k++) {
            String[] label = slots.get(k).label().split("/");
            for (int size : p.sizes()) {
                int slot = k;
                double[] ms = o.sortedMs(slot, size);
                long all = o.reads().stream().filter(r -> r.slot() == slot && r.size() == size).count();
                out.add(new Summary(Integer.parseInt(label[1]), label[0], size, (int) all, (int) (all - ms.length),
                        PlacementCapacity.quantile(ms, 0.5), PlacementCapacity.quantile(ms, 0.9), Placement.mean(ms)));
            }
        }
        return out;
    }

    public static final String SUMMARY_HEADER = "noise_readers,variant,size_bytes,reads,failed,p50_ms,p90_ms,mean_ms";

    /** Writes summary.csv, reads.csv and flooded-server.png into {@code dir}. */
    public static void write(Path dir, Params p, ReadsRuns.Outcome o, boolean plot) throws IOException {
        List<Summary> sums = summaries(p, o);
        Csv.write(dir.resolve("summary.csv"), SUMMARY_HEADER, sums.stream().map(s -> s.noiseReaders() + "," + s.variant()
                + "," + s.size() + "," + s.reads() + "," + s.failed() + "," + Csv.num(s.p50(), 1) + ","
                + Csv.num(s.p90(), 1) + "," + Csv.num(s.mean(), 1)).toList());
        List<ReadsRuns.Slot> slots = slots(p);
        Csv.write(dir.resolve("reads.csv"), "noise_readers,variant,size_bytes,read,ms,error", o.reads().stream()
                .map(r -> slots.get(r.slot()).label().split("/")[1] + "," + slots.get(r.slot()).label().split("/")[0] + ","
                        + r.size() + "," + r.index() + "," + r.ms() + "," + r.error().replace(',', ';')).toList());
        if (plot) {
            List<CategoryChart> charts = new ArrayList<>();
            for (int size : p.sizes()) {
                charts.add(chart(p, sums, size));
            }
            Charts.writeStacked(dir.resolve("flooded-server.png"), charts);
        }
    }

    private static CategoryChart chart(Params p, List<Summary> sums, int size) {
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (String v : VARIANTS) {
            double[] mean = sums.stream().filter(s -> s.variant().equals(v) && s.size() == size).mapToDouble(Summary::mean)
                    .toArray();
            series.put(v, new double[][] {mean, new double[mean.length]});
        }
        List<String> cats = p.noiseReaders().stream().map(n -> n + " readers").toList();
        return Charts.bars("Mean download time of " + HedgedReads.size(size) + " at saopaulo while dublin serves N readers",
                "mean download time (ms)", cats, series, 900, 320);
    }

    /** Runs, writes and prints the summary table (the CLI). */
    public static ReadsRuns.Outcome runCli(Path dir, Params p, boolean plot, PrintStream out) throws IOException {
        out.printf(Locale.ROOT, "flooded-server: files %s read %d times each at saopaulo; N = %s noise readers of %d bytes"
                + " at mumbai (mean think %d ms) on dublin's %.0f Mbit/s uplink; variants %s; seed %d%n",
                p.sizes().stream().map(HedgedReads::size).toList(), p.readsPerSize(), p.noiseReaders(), p.noiseBytes(),
                p.noiseThinkMs(), p.dublinUplinkMbps(), VARIANTS, p.seed());
        out.print("simulating ...");
        out.flush();
        ReadsRuns.Outcome o = run(p);
        out.printf(Locale.ROOT, " %.1f s wall%n", o.wallMs() / 1000.0);
        o.errors().forEach(e -> out.println("  error: " + e));
        write(dir, p, o, plot);
        out.printf(Locale.ROOT, "%n  %6s %-5s %8s %6s %9s %9s %9s%n", "N", "read", "size", "reads", "p50 ms", "p90 ms",
                "mean ms");
        for (Summary s : summaries(p, o)) {
            out.printf(Locale.ROOT, "  %6d %-5s %8s %6d %9.1f %9.1f %9.1f%n", s.noiseReaders(), s.variant(),
                    HedgedReads.size(s.size()), s.reads() - s.failed(), s.p50(), s.p90(), s.mean());
        }
        out.println("  replicas per slot: " + o.replicas() + "; noise reads per slot: " + o.noiseReads());
        out.printf(Locale.ROOT, "%nwrote %s%n", dir.toAbsolutePath());
        return o;
    }
}
