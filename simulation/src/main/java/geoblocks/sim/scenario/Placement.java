package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import geoblocks.sim.placement.PlacementJob;
import geoblocks.sim.placement.PlacementNodes;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.knowm.xchart.CategoryChart;

/**
 * SPEC experiments 1 and 2, "placement": four real geoblocks nodes (one per region, memory
 * storage) and two client machines; files are uploaded at one site with each policy and block
 * size, then downloaded at another. Between regions every directed path carries SPEC.md's measured
 * single-stream TCP throughput (so big blocks are not free) with a buffer large enough never to
 * drop (the file protocol rides TCP); within a region clients reach their node over a 1.7 Gbit/s
 * LAN. Latency is SPEC.md's RTT matrix.
 */
public final class Placement {
    private Placement() {}

    /** An upload site and a download site. */
    public record Experiment(String name, String uploadSite, String downloadSite) {}

    /**
     * {@code policies}: any names the nodes know; {@code placementConf}: HOCON with
     * geoblocks.placement (declarative and custom policies), "" for the built-in ones only.
     */
    public record Params(long seed, List<Experiment> experiments, int runs, int files, int fileBytes,
            List<Integer> blockSizes, List<String> policies, String placementConf) {
        public Params(long seed, List<Experiment> experiments, int runs, int files, int fileBytes,
                List<Integer> blockSizes, List<String> policies) {
            this(seed, experiments, runs, files, fileBytes, blockSizes, policies, "");
        }

        public Params {
            experiments = List.copyOf(experiments);
            blockSizes = List.copyOf(blockSizes);
            policies = List.copyOf(policies);
            if (runs < 1 || files < 1 || fileBytes < 1) {
                throw new IllegalArgumentException("runs, files and file size must be >= 1, were " + runs + ", " + files
                        + ", " + fileBytes);
            }
            for (Experiment e : experiments) {
                for (String site : List.of(e.uploadSite(), e.downloadSite())) {
                    if (!REGIONS.contains(site)) {
                        throw new IllegalArgumentException("unknown site '" + site + "'; known: " + REGIONS);
                    }
                }
            }
            PolicyCatalog known = PlacementNodes.policies(placementConf, REGIONS).catalog();
            policies = policies.stream().map(known::canonical).toList(); // refuses an unknown name, listing the known
        }

        /** SPEC.md: experiments 1 and 2, 10 files of 1 MB, 64 KB and 1 MB blocks, all policies, 3 runs. */
        public static Params spec(long seed) {
            return new Params(seed, List.of(new Experiment("1", "seoul", "seoul"), new Experiment("2", "dublin", "seoul")),
                    3, 10, 1 << 20, List.of(64 << 10, 1 << 20), POLICIES);
        }
    }

    public static final List<String> POLICIES = List.of("random", "tworandom", "local", "localclosest", "localfarthest");

    static final List<String> REGIONS = List.of("seoul", "dublin", "saopaulo", "mumbai");

    /**
     * Single-stream TCP throughput between regions in Mbit/s (SPEC.md: Asia-EU 84, Asia-US 144,
     * EU-US 208; Sao Paulo stands in for "US"; Seoul-Mumbai was not measured and is taken as 144).
     */
    static double mbps(String a, String b) {
        String pair = a.compareTo(b) < 0 ? a + "-" + b : b + "-" + a;
        return switch (pair) {
            case "dublin-seoul", "dublin-mumbai" -> 84;
            case "saopaulo-seoul", "mumbai-saopaulo", "mumbai-seoul" -> 144;
            case "dublin-saopaulo" -> 208;
            default -> throw new IllegalArgumentException("no bandwidth for " + pair);
        };
    }

    static final double LAN_MBPS = 1700;

    /** One row of placement.csv. */
    public record Row(Experiment experiment, String policy, int blockSize, int run, int fileIndex, long uploadMs,
            long downloadMs) {}

    /** Where the replicas of one block landed. */
    public record Replicas(Experiment experiment, String policy, int blockSize, int run, int fileIndex, int block,
            List<String> regions) {}

    /** The outcome: rows, replica placements, errors reported by the clients, wall time. */
    public record Outcome(List<Row> rows, List<Replicas> replicas, List<String> errors, long wallMs) {}

    /** One (experiment, repetition) pair; its index k gives it its own hosts and links. */
    record Slot(int index, Experiment experiment, int run) {}

    static List<Slot> slots(Params p) {
        List<Slot> slots = new ArrayList<>();
        for (Experiment e : p.experiments()) {
            for (int run = 1; run <= p.runs(); run++) {
                slots.add(new Slot(slots.size(), e, run));
            }
        }
        return slots;
    }

    /** Address of the node of region {@code i} in slot {@code k}; host 100/101 are the clients. */
    static String ip(int k, int region, int host) {
        return "10." + (10 + k) + "." + (region + 1) + "." + host;
    }

    /**
     * Slot {@code k}'s cluster in {@code net}: the node of each region at {@code ip(k, i, 1)}, each
     * region's LAN and the paths between the regions (tagged {@code "seoul#k"}, so slots share no
     * link). Returns the cluster: region -> "ip:47000".
     */
    static Map<String, String> slotCluster(NetworkSpec.Builder net, int k) {
        Map<String, String> regions = new LinkedHashMap<>();
        for (int i = 0; i < REGIONS.size(); i++) {
            String r = REGIONS.get(i);
            regions.put(r, ip(k, i, 1) + ":47000");
            net.host(ip(k, i, 1), r + "#" + k);
            net.lan(r + "#" + k, new LinkSpec(Math.round(LAN_MBPS * 1e6), 1L << 40));
            for (String o : REGIONS) {
                if (!o.equals(r)) {
                    net.path(r + "#" + k, o + "#" + k, new LinkSpec(Math.round(mbps(r, o) * 1e6), 1L << 40));
                }
            }
        }
        return regions;
    }

    /**
     * One simulation for every slot: each slot has its own four nodes, two clients and links
     * (regions tagged {@code "seoul#k"}), so slots never share bandwidth; they take turns
     * ({@code PlacementBoard}), so their transfers never overlap either.
     */
    static SimPlan plan(Params p, Path inputDir, Path downloadDir) {
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults());
        List<NodePlan> nodes = new ArrayList<>();
        List<Slot> slots = slots(p);
        long jobCount = 0;
        for (Slot slot : slots) {
            int k = slot.index();
            Experiment e = slot.experiment();
            Map<String, String> regions = slotCluster(net, k);
            String upIp = ip(k, REGIONS.indexOf(e.uploadSite()), 100);
            String downIp = ip(k, REGIONS.indexOf(e.downloadSite()), 101);
            net.host(upIp, e.uploadSite() + "#" + k).host(downIp, e.downloadSite() + "#" + k);
            List<PlacementJob> jobs = new ArrayList<>();
            for (String policy : p.policies()) {
                for (int bs : p.blockSizes()) {
                    for (int i = 0; i < p.files(); i++) {
                        jobs.add(new PlacementJob(k, policy, bs, i, inputDir.resolve("file-" + i).toString(),
                                "e" + e.name() + "-r" + slot.run() + "-" + policy + "-" + bs + "-" + i));
                    }
                }
            }
            jobCount += jobs.size();
            long runSeed = p.seed() * 1000 + slot.run();
            for (int i = 0; i < REGIONS.size(); i++) {
                nodes.add(new NodePlan(REGIONS.get(i) + "#" + k, 0, ip(k, i, 1), 47000,
                        new PlacementNodes.Node(REGIONS.get(i), regions, runSeed * 31 + i, k, p.placementConf())));
            }
            boolean last = k == slots.size() - 1;
            // RTT monitors need 3 answered probes (1 s apart) before peers count as up
            nodes.add(new NodePlan("uploader#" + k, 0, upIp, 48000, new PlacementNodes.Client(e.uploadSite(), regions,
                    true, jobs, 4000, downloadDir.toString(), k, last)));
            nodes.add(new NodePlan("downloader#" + k, 0, downIp, 48001, new PlacementNodes.Client(e.downloadSite(),
                    regions, false, jobs, 4000, downloadDir.toString(), k, last)));
        }
        long cap = 5_000 + jobCount * 2L * 30_000;
        return new SimPlan(p.seed(), net.build(), nodes, cap, 100);
    }

    /** Runs every experiment and run; inputs are generated (seeded) in a temporary directory. */
    public static Outcome run(Params p, PrintStream progress) throws IOException {
        Path tmp = Files.createTempDirectory("geoblocks-placement");
        try {
            Path in = Files.createDirectories(tmp.resolve("in"));
            Random rnd = new Random(p.seed());
            for (int i = 0; i < p.files(); i++) {
                byte[] b = new byte[p.fileBytes()];
                rnd.nextBytes(b);
                Files.write(in.resolve("file-" + i), b);
            }
            List<Row> rows = new ArrayList<>();
            List<Replicas> replicas = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            List<Slot> slots = slots(p);
            progress.printf(Locale.ROOT, "simulating %d runs (%s) in one simulation ...", slots.size(),
                    String.join(", ", slots.stream().map(x -> "exp " + x.experiment().name() + " run " + x.run()).toList()));
            Path down = Files.createDirectories(tmp.resolve("out"));
            SimResult r = SimRunner.run(plan(p, in, down));
            long wall = r.wallMs();
            progress.printf(Locale.ROOT, " %.1f s wall%n", wall / 1000.0);
            errors.addAll(r.faults());
            collect(slots, p.policies(), r.extra(), rows, replicas, errors);
            return new Outcome(rows, replicas, errors, wall);
        } finally {
            deleteTree(tmp);
        }
    }

    static void collect(List<Slot> slots, List<String> policies, List<String> records, List<Row> rows,
            List<Replicas> replicas, List<String> errors) {
        Map<String, long[]> times = new LinkedHashMap<>();
        for (String rec : records) {
            String[] f = rec.split("\\|");
            switch (f[0]) {
                case "U" -> times.computeIfAbsent(f[1], k -> new long[] {-1, -1})[0] = Long.parseLong(f[2]);
                case "D" -> times.computeIfAbsent(f[1], k -> new long[] {-1, -1})[1] = Long.parseLong(f[2]);
                case "R" -> {
                    String[] k = f[1].split(",");
                    Slot s = slots.get(Integer.parseInt(k[0]));
                    replicas.add(new Replicas(s.experiment(), k[1], Integer.parseInt(k[2]), s.run(), Integer.parseInt(k[3]),
                            Integer.parseInt(f[2]), List.of(f[3].split(";"))));
                }
                case "E" -> {
                    Slot s = slots.get(Integer.parseInt(f[1].split(",")[0]));
                    errors.add("experiment " + s.experiment().name() + " run " + s.run() + " " + f[1] + ": " + f[2]);
                }
                default -> throw new IllegalStateException("unknown record " + rec);
            }
        }
        times.forEach((key, t) -> {
            String[] k = key.split(",");
            Slot s = slots.get(Integer.parseInt(k[0]));
            rows.add(new Row(s.experiment(), k[1], Integer.parseInt(k[2]), s.run(), Integer.parseInt(k[3]), t[0], t[1]));
        });
        rows.sort(Comparator.comparing((Row x) -> x.experiment().name()).thenComparingInt(Row::run)
                .thenComparing(x -> policies.indexOf(x.policy())).thenComparingInt(Row::blockSize)
                .thenComparingInt(Row::fileIndex));
    }

    /** Mean and sample standard deviation of upload and download times per experiment, policy, block size. */
    public static List<String> summaryRows(Params p, List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Experiment e : p.experiments()) {
            for (String policy : p.policies()) {
                for (int bs : p.blockSizes()) {
                    List<Row> g = rows.stream().filter(r -> r.experiment().equals(e) && r.policy().equals(policy)
                            && r.blockSize() == bs).toList();
                    double[] up = g.stream().mapToDouble(Row::uploadMs).toArray();
                    double[] down = g.stream().mapToDouble(Row::downloadMs).toArray();
                    out.add(e.name() + "," + e.uploadSite() + "," + e.downloadSite() + "," + policy + "," + bs + ","
                            + g.size() + "," + Csv.num(mean(up), 1) + "," + Csv.num(std(up), 1) + ","
                            + Csv.num(mean(down), 1) + "," + Csv.num(std(down), 1));
                }
            }
        }
        return out;
    }

    public static final String SUMMARY_HEADER = "experiment,upload_site,download_site,policy,block_size_bytes,n,"
            + "upload_ms_mean,upload_ms_std,download_ms_mean,download_ms_std";

    static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return x.length == 0 ? Double.NaN : s / x.length;
    }

    static double std(double[] x) {
        if (x.length < 2) {
            return Double.NaN;
        }
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return Math.sqrt(s / (x.length - 1));
    }

    /** Writes placement.csv, summary.csv, replicas.csv and placement.png into {@code dir}. */
    public static void write(Path dir, Params p, Outcome o, boolean plot) throws IOException {
        List<String> rows = o.rows().stream().map(r -> r.experiment().name() + "," + r.experiment().uploadSite() + ","
                + r.experiment().downloadSite() + "," + r.policy() + "," + r.blockSize() + "," + r.run() + ","
                + r.fileIndex() + "," + r.uploadMs() + "," + r.downloadMs()).toList();
        Csv.write(dir.resolve("placement.csv"),
                "experiment,upload_site,download_site,policy,block_size_bytes,run,file_index,upload_ms,download_ms", rows);
        Csv.write(dir.resolve("summary.csv"), SUMMARY_HEADER, summaryRows(p, o.rows()));
        Csv.write(dir.resolve("replicas.csv"), "experiment,policy,block_size_bytes,run,file_index,block_index,replicas",
                o.replicas().stream().map(r -> r.experiment().name() + "," + r.policy() + "," + r.blockSize() + ","
                        + r.run() + "," + r.fileIndex() + "," + r.block() + "," + String.join(";", r.regions())).toList());
        if (plot) {
            List<CategoryChart> charts = new ArrayList<>();
            for (Experiment e : p.experiments()) {
                for (boolean download : new boolean[] {true, false}) {
                    charts.add(chart(p, o.rows(), e, download));
                }
            }
            Charts.writeStacked(dir.resolve("placement.png"), charts);
        }
    }

    static CategoryChart chart(Params p, List<Row> rows, Experiment e, boolean download) {
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (int bs : p.blockSizes()) {
            double[] means = new double[p.policies().size()];
            double[] stds = new double[p.policies().size()];
            for (int i = 0; i < p.policies().size(); i++) {
                String policy = p.policies().get(i);
                double[] v = rows.stream().filter(r -> r.experiment().equals(e) && r.policy().equals(policy)
                        && r.blockSize() == bs).mapToDouble(r -> download ? r.downloadMs() : r.uploadMs()).toArray();
                means[i] = mean(v);
                stds[i] = Double.isNaN(std(v)) ? 0 : std(v);
            }
            series.put(bs >= 1 << 20 ? (bs >> 20) + " MB blocks" : (bs >> 10) + " KB blocks", new double[][] {means, stds});
        }
        String size = p.fileBytes() % (1 << 20) == 0 ? (p.fileBytes() >> 20) + " MB" : (p.fileBytes() >> 10) + " kB";
        String title = download
                ? String.format(Locale.ROOT, "Experiment %s: download at %s of %s files uploaded at %s (mean ± std)",
                        e.name(), e.downloadSite(), size, e.uploadSite())
                : String.format(Locale.ROOT, "Experiment %s: upload of %s files at %s (mean ± std)", e.name(), size,
                        e.uploadSite());
        return Charts.bars(title, (download ? "download" : "upload") + " time (ms)", p.policies(), series, 900, 320);
    }

    /** Runs, writes and prints the summary table (the CLI). */
    public static Outcome runCli(Path dir, Params p, boolean plot, PrintStream o) throws IOException {
        o.printf(Locale.ROOT, "placement: %d files of %d bytes, block sizes %s, policies %s, %d runs, seed %d%n", p.files(),
                p.fileBytes(), p.blockSizes(), p.policies(), p.runs(), p.seed());
        Outcome out = run(p, o);
        write(dir, p, out, plot);
        o.println();
        o.printf(Locale.ROOT, "  %-4s %-8s %-8s %-14s %8s %16s %16s%n", "exp", "upload", "download", "policy", "block",
                "upload ms", "download ms");
        for (String r : summaryRows(p, out.rows())) {
            String[] c = r.split(",");
            o.printf(Locale.ROOT, "  %-4s %-8s %-8s %-14s %8s %9s ± %-6s %9s ± %-6s%n", c[0], c[1], c[2], c[3], c[4], c[6],
                    c[7], c[8], c[9]);
        }
        o.printf(Locale.ROOT, "%n%d transfers, %d errors; wall time %.1f s (simulation); wrote %s%n",
                out.rows().size() * 2, out.errors().size(), out.wallMs() / 1000.0, dir.toAbsolutePath());
        if (!out.errors().isEmpty()) {
            throw new IllegalStateException(out.errors().size() + " transfers failed, first: " + out.errors().get(0));
        }
        return out;
    }

    private static void deleteTree(Path root) throws IOException {
        try (var s = Files.walk(root)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        }
    }
}
