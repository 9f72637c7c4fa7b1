package geoblocks.sim.scenario;

import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.net.RttMatrix;
import geoblocks.sim.capacity.CapacityNodes;
import geoblocks.sim.capacity.CapacityOp;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.NetworkSpec;
import geoblocks.sim.placement.PlacementNodes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;

/**
 * {@code simulate placement-capacity}: the four SPEC.md regions with disks of uneven size (by
 * default 32, 48, 64 and 96 MiB, 4 MiB of each kept free as the reserve) are filled, one policy per
 * run: files are uploaded in turn at seoul, dublin, saopaulo and mumbai, then every file is read at
 * every region. Per policy it reports the read latency, the uploads refused (placement found no
 * region with room, or a disk filled) and the disk use of each region at the end, whose spread
 * (most used minus least used) shows how evenly the policy filled the cluster. The network is the
 * placement scenario's (SPEC.md RTTs and measured throughputs, a 1.7 Gbit/s LAN to each node).
 */
public final class PlacementCapacity {
    private PlacementCapacity() {}

    static final List<String> SITES = Placement.REGIONS;

    public record Params(long seed, List<String> policies, int files, int fileBytes, int blockBytes,
            Map<String, Long> capacities, long reserveBytes, String placementConf) {
        public Params {
            capacities = new LinkedHashMap<>(capacities);
            if (files < 1 || fileBytes < 1 || blockBytes < 1) {
                throw new IllegalArgumentException("files, file size and block size must be >= 1, were " + files + ", "
                        + fileBytes + ", " + blockBytes);
            }
            if (!capacities.keySet().equals(new HashSet<>(SITES))) {
                throw new IllegalArgumentException("capacities must name " + SITES + ", named " + capacities.keySet());
            }
            PolicyCatalog known = PlacementNodes.policies(placementConf, SITES).catalog();
            policies = policies.stream().map(known::canonical).toList();
        }

        /** 80 files of 1 MiB (1 MiB blocks); disks of 32, 48, 64 and 96 MiB; the seeds and balanced. */
        public static Params defaults(long seed) {
            Map<String, Long> caps = new LinkedHashMap<>();
            caps.put("seoul", 32L << 20);
            caps.put("dublin", 64L << 20);
            caps.put("saopaulo", 96L << 20);
            caps.put("mumbai", 48L << 20);
            return new Params(seed, POLICIES, 80, 1 << 20, 1 << 20, caps, 4L << 20, "");
        }
    }

    public static final List<String> POLICIES = List.of("random", "tworandom", "local", "localclosest", "localfarthest",
            "balanced");

    /** One upload or download. */
    public record Transfer(String policy, boolean upload, int file, String site, long ms, String error) {
        public boolean ok() {
            return error.isEmpty();
        }
    }

    /** A region's disk at the end of a policy's run. */
    public record Disk(String policy, String region, long used, long capacity) {
        public double use() {
            return (double) used / capacity;
        }
    }

    /** Per policy: uploads ok and refused, read latency, disk use at the end. */
    public record Summary(String policy, int uploadsOk, int uploadsFailed, int reads, int readsFailed, double readMean,
            double readP50, double readP90, double uploadMean, double useMin, double useMax) {
        public double spread() {
            return useMax - useMin;
        }
    }

    public record Outcome(List<Transfer> transfers, List<Disk> disks, Map<String, List<String>> replicas, long wallMs) {}

    static List<CapacityOp> ops(int files) {
        List<CapacityOp> ops = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            ops.add(new CapacityOp(true, f, SITES.get(f % SITES.size())));
        }
        for (int f = 0; f < files; f++) {
            for (String s : SITES) {
                ops.add(new CapacityOp(false, f, s));
            }
        }
        return ops;
    }

    static SimPlan plan(Params p) {
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults());
        List<NodePlan> nodes = new ArrayList<>();
        List<CapacityOp> ops = ops(p.files());
        for (int k = 0; k < p.policies().size(); k++) {
            Map<String, String> regions = Placement.slotCluster(net, k);
            boolean last = k == p.policies().size() - 1;
            for (int i = 0; i < SITES.size(); i++) {
                String r = SITES.get(i);
                net.host(Placement.ip(k, i, 100), r + "#" + k); // the region's client
                nodes.add(new NodePlan(r + "#" + k, 0, Placement.ip(k, i, 1), 47000, new CapacityNodes.Node(r, regions,
                        p.seed() * 1000 + k * 31L + i, k, p.capacities().get(r), p.reserveBytes(), p.placementConf())));
                // RTT monitors need 3 answered probes (1 s apart) before peers count as up
                nodes.add(new NodePlan("client-" + r + "#" + k, 0, Placement.ip(k, i, 100), 48000, new CapacityNodes.Client(
                        r, regions, k, last, p.policies().get(k), ops, p.seed(), p.fileBytes(), p.blockBytes(), 4000)));
            }
        }
        long cap = 10_000 + (long) p.policies().size() * ops.size() * 30_000;
        return new SimPlan(p.seed(), net.build(), nodes, cap, 1000);
    }

    public static Outcome run(Params p) {
        SimResult r = SimRunner.run(plan(p));
        if (!r.faults().isEmpty()) {
            throw new IllegalStateException("simulated component failed: " + r.faults().get(0));
        }
        List<Transfer> transfers = new ArrayList<>();
        List<Disk> disks = new ArrayList<>();
        Map<String, List<String>> replicas = new LinkedHashMap<>();
        for (String rec : r.extra()) {
            String[] f = rec.split("\\|", -1);
            String policy = p.policies().get(Integer.parseInt(f[1]));
            switch (f[0]) {
                case "U", "D" -> transfers.add(new Transfer(policy, f[0].equals("U"), Integer.parseInt(f[2]), f[3],
                        Long.parseLong(f[4]), f[5]));
                case "R" -> replicas.put(policy + "|" + f[2] + "|" + f[3], List.of(f[4].split(";")));
                case "S" -> disks.add(new Disk(policy, f[2], Long.parseLong(f[3]), Long.parseLong(f[4])));
                default -> throw new IllegalStateException("unknown record " + rec);
            }
        }
        return new Outcome(transfers, disks, replicas, r.wallMs());
    }

    public static List<Summary> summaries(Params p, Outcome o) {
        List<Summary> out = new ArrayList<>();
        for (String policy : p.policies()) {
            List<Transfer> ups = o.transfers().stream().filter(t -> t.policy().equals(policy) && t.upload()).toList();
            List<Transfer> reads = o.transfers().stream().filter(t -> t.policy().equals(policy) && !t.upload()).toList();
            double[] ok = reads.stream().filter(Transfer::ok).mapToDouble(Transfer::ms).sorted().toArray();
            double[] upMs = ups.stream().filter(Transfer::ok).mapToDouble(Transfer::ms).toArray();
            double[] use = o.disks().stream().filter(d -> d.policy().equals(policy)).mapToDouble(Disk::use).toArray();
            out.add(new Summary(policy, (int) ups.stream().filter(Transfer::ok).count(),
                    (int) ups.stream().filter(t -> !t.ok()).count(), reads.size(), (int) reads.stream().filter(t -> !t.ok()).count(),
                    Placement.mean(ok), quantile(ok, 0.5), quantile(ok, 0.9), Placement.mean(upMs),
                    Arrays.stream(use).min().orElse(Double.NaN), Arrays.stream(use).max().orElse(Double.NaN)));
        }
        return out;
    }

    /** The {@code q} quantile of sorted {@code x} (nearest rank), NaN when empty. */
    static double quantile(double[] x, double q) {
        return x.length == 0 ? Double.NaN : x[Math.max(0, (int) Math.ceil(q * x.length) - 1)];
    }

    public static final String SUMMARY_HEADER = "policy,uploads_ok,uploads_refused,reads,reads_failed,read_ms_mean,"
            + "read_ms_p50,read_ms_p90,upload_ms_mean,disk_use_min,disk_use_max,disk_spread";

    static String row(Summary s) {
        return s.policy() + "," + s.uploadsOk() + "," + s.uploadsFailed() + "," + s.reads() + "," + s.readsFailed() + ","
                + Csv.num(s.readMean(), 1) + "," + Csv.num(s.readP50(), 1) + "," + Csv.num(s.readP90(), 1) + ","
                + Csv.num(s.uploadMean(), 1) + "," + Csv.num(s.useMin(), 3) + "," + Csv.num(s.useMax(), 3) + ","
                + Csv.num(s.spread(), 3);
    }

    /** Writes transfers.csv, disks.csv, summary.csv and placement-capacity.png into {@code dir}. */
    public static void write(Path dir, Params p, Outcome o, boolean plot) throws IOException {
        Csv.write(dir.resolve("transfers.csv"), "policy,op,file,site,ms,error", o.transfers().stream()
                .map(t -> t.policy() + "," + (t.upload() ? "upload" : "download") + "," + t.file() + "," + t.site() + ","
                        + t.ms() + "," + t.error().replace(',', ';'))
                .toList());
        Csv.write(dir.resolve("disks.csv"), "policy,region,capacity_bytes,used_bytes,use", o.disks().stream()
                .map(d -> d.policy() + "," + d.region() + "," + d.capacity() + "," + d.used() + "," + Csv.num(d.use(), 4))
                .toList());
        List<Summary> sums = summaries(p, o);
        Csv.write(dir.resolve("summary.csv"), SUMMARY_HEADER, sums.stream().map(PlacementCapacity::row).toList());
        if (plot) {
            Charts.writeStacked(dir.resolve("placement-capacity.png"), List.of(readChart(p, o), diskChart(p, o)));
        }
    }

    static CategoryChart readChart(Params p, Outcome o) {
        double[] means = new double[p.policies().size()];
        double[] p90 = new double[p.policies().size()];
        double[] none = new double[p.policies().size()];
        List<Summary> sums = summaries(p, o);
        for (int i = 0; i < sums.size(); i++) {
            means[i] = sums.get(i).readMean();
            p90[i] = sums.get(i).readP90();
        }
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("mean", new double[][] {means, none});
        series.put("p90", new double[][] {p90, none});
        return Charts.bars(String.format(Locale.ROOT, "Read latency: %d files of %s read at every region", p.files(),
                size(p.fileBytes())), "download time (ms)", p.policies(), series, 900, 320);
    }

    static CategoryChart diskChart(Params p, Outcome o) {
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (String r : SITES) {
            double[] use = new double[p.policies().size()];
            for (int i = 0; i < use.length; i++) {
                String policy = p.policies().get(i);
                use[i] = 100 * o.disks().stream().filter(d -> d.policy().equals(policy) && d.region().equals(r))
                        .mapToDouble(Disk::use).findFirst().orElse(Double.NaN);
            }
            series.put(r + " (" + size(p.capacities().get(r)) + ")", new double[][] {use, new double[use.length]});
        }
        return Charts.bars("Disk use at the end (uploads at all four regions in turn)", "disk use (%)", p.policies(),
                series, 900, 320);
    }

    private static String size(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB";
    }

    /** Runs, writes and prints the summary table (the CLI). */
    public static Outcome runCli(Path dir, Params p, boolean plot, PrintStream o) throws IOException {
        o.printf(Locale.ROOT, "placement-capacity: %d files of %s (blocks of %s) uploaded at %s in turn, each read at every"
                + " region; disks %s, reserve %s; policies %s; seed %d%n", p.files(), size(p.fileBytes()),
                size(p.blockBytes()), SITES, p.capacities().entrySet().stream().map(e -> e.getKey() + " " + size(e.getValue()))
                        .toList(), size(p.reserveBytes()), p.policies(), p.seed());
        o.print("simulating ...");
        o.flush();
        Outcome out = run(p);
        o.printf(Locale.ROOT, " %.1f s wall%n", out.wallMs() / 1000.0);
        write(dir, p, out, plot);
        o.println();
        o.printf(Locale.ROOT, "  %-14s %9s %8s %9s %9s %9s %10s %s%n", "policy", "uploads", "refused", "read mean", "read p50",
                "read p90", "upload ms", "disk use min..max (spread)");
        for (Summary s : summaries(p, out)) {
            o.printf(Locale.ROOT, "  %-14s %9d %8d %9.1f %9.1f %9.1f %10.1f %5.1f%% .. %5.1f%% (%.1f pts)%n", s.policy(),
                    s.uploadsOk(), s.uploadsFailed(), s.readMean(), s.readP50(), s.readP90(), s.uploadMean(),
                    s.useMin() * 100, s.useMax() * 100, s.spread() * 100);
        }
        o.printf(Locale.ROOT, "%nwrote %s%n", dir.toAbsolutePath());
        return out;
    }
}
