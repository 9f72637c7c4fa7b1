package geoblocks.sim.scenario;

import geoblocks.blockstore.core.BlockCodec;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Checksums;
import geoblocks.blockstore.core.Compression.Encoded;
import geoblocks.net.RttMatrix;
import geoblocks.sim.compression.CompressionJob;
import geoblocks.sim.compression.CompressionNodes;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;

/**
 * SPEC experiment 6, "compression": a client in Seoul uploads files (policy local, 1 MiB blocks)
 * to the Seoul node over its own link, slow (1 Mbit/s) or fast, with each compression mode, then
 * downloads them; text-like (base64: 6 bits of entropy per byte) and random content; sizes 1 to
 * 100 MB. Each link type is a slot with its own four real nodes (memory storage), so the links
 * never share anything. The real client component compresses and decompresses every block, but
 * the simulator does not advance time for CPU work, so the codecs' time is added from per-codec
 * speeds ({@link Speed}: measured on this machine before the run by {@link #measure}, or given):
 * upload = simulated transfer + compression of the file, download = simulated transfer +
 * decompression, with no overlap of CPU and network assumed (an upper bound on the codec's cost).
 */
public final class Compression {
    private Compression() {}

    /** Compression and decompression speed of one mode on one content kind, MB/s of original bytes. */
    public record Speed(String content, String mode, double compressMBps, double decompressMBps) {}

    /** What to run: link speeds (Mbit/s), file sizes, modes; the codec speeds (null: measure). */
    public record Params(long seed, List<Double> linksMbps, List<Long> sizes, List<String> modes, int blockSize,
            List<Speed> speeds) {
        public Params {
            linksMbps = List.copyOf(linksMbps);
            sizes = List.copyOf(sizes);
            modes = List.copyOf(modes);
            if (linksMbps.isEmpty() || sizes.isEmpty() || modes.isEmpty()) {
                throw new IllegalArgumentException("links, sizes and modes must not be empty");
            }
            for (String m : modes) {
                geoblocks.blockstore.core.Compression.parse(m);
            }
            if (!modes.contains("none")) {
                throw new IllegalArgumentException("modes must include none (the baseline), were " + modes);
            }
            for (double l : linksMbps) {
                if (!(l > 0)) {
                    throw new IllegalArgumentException("link speeds must be > 0 Mbit/s, was " + l);
                }
            }
            for (long s : sizes) {
                if (s < 1) {
                    throw new IllegalArgumentException("file sizes must be >= 1 byte, was " + s);
                }
            }
        }

        /** SPEC.md: 1 Mbit/s and a fast (1 Gbit/s) client link; 1, 10 and 100 MB; none, gzip, zstd, auto. */
        public static Params spec(long seed) {
            return new Params(seed, List.of(1.0, 1000.0), List.of(1_000_000L, 10_000_000L, 100_000_000L),
                    List.of("none", "gzip", "zstd", "auto"), 1 << 20, null);
        }
    }

    /** One file's figures. */
    public record Row(double linkMbps, String content, long size, String mode, long storedBytes, long uploadTransferMs,
            long downloadTransferMs, double compressMs, double decompressMs) {
        public double uploadMs() {
            return uploadTransferMs + compressMs;
        }

        public double downloadMs() {
            return downloadTransferMs + decompressMs;
        }
    }

    public record Outcome(List<Row> rows, List<Speed> speeds, List<String> errors, long wallMs) {}

    static final List<String> CONTENTS = List.of("text", "random");

    /**
     * Each mode's speed on each content, measured by encoding and decoding {@code blocks} blocks of
     * the scenario's content with the real {@link geoblocks.blockstore.core.Compression} code
     * (after one untimed warm-up pass). Wall-clock: differs between machines and runs.
     */
    public static List<Speed> measure(Params p, int blocks) {
        List<Speed> out = new ArrayList<>();
        for (String content : CONTENTS) {
            byte[][] raw = new byte[blocks][p.blockSize()];
            for (int b = 0; b < blocks; b++) {
                Content.fill(Content.key(p.seed(), 7), (long) b * p.blockSize(), ByteBuffer.wrap(raw[b]),
                        content.equals("text"));
            }
            for (String mode : p.modes()) {
                geoblocks.blockstore.core.Compression c = geoblocks.blockstore.core.Compression.parse(mode);
                long[] t = new long[2];
                for (int pass = 0; pass < 2; pass++) { // pass 0 warms the JIT up
                    long enc = 0;
                    long dec = 0;
                    for (byte[] r : raw) {
                        long t0 = System.nanoTime();
                        Encoded e = c.encode(r, r.length);
                        long t1 = System.nanoTime();
                        try {
                            e.codec().decompress(BlockId.of("calibration"), e.stored(), e.rawLength());
                        } catch (IOException ex) {
                            throw new IllegalStateException("calibration block did not round-trip", ex);
                        }
                        if (e.codec() != BlockCodec.NONE) {
                            Checksums.crc32c(r); // the client checks the original too
                        }
                        dec += System.nanoTime() - t1;
                        enc += t1 - t0;
                    }
                    t[0] = enc;
                    t[1] = dec;
                }
                double mb = (double) blocks * p.blockSize() / 1e6;
                out.add(new Speed(content, mode, mb / (t[0] / 1e9), mb / (t[1] / 1e9)));
            }
        }
        return out;
    }

    static Speed speed(List<Speed> speeds, String content, String mode) {
        return speeds.stream().filter(s -> s.content().equals(content) && s.mode().equals(mode)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no codec speed for " + content + "/" + mode));
    }

    /** Slot k: the four regions (tagged #k) and a client in Seoul behind its own link of {@code linksMbps[k]}. */
    static SimPlan plan(Params p) {
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults());
        List<NodePlan> nodes = new ArrayList<>();
        long simulatedBytes = 0;
        for (int k = 0; k < p.linksMbps().size(); k++) {
            Map<String, String> regions = Placement.slotCluster(net, k);
            String clientRegion = "seoul#client" + k;
            String clientIp = Placement.ip(k, 0, 100);
            net.host(clientIp, clientRegion);
            LinkSpec link = new LinkSpec(Math.round(p.linksMbps().get(k) * 1e6), 1L << 40);
            net.path(clientRegion, "seoul#" + k, link).path("seoul#" + k, clientRegion, link);
            List<CompressionJob> jobs = new ArrayList<>();
            int index = 0;
            for (String content : CONTENTS) {
                for (long size : p.sizes()) {
                    for (String mode : p.modes()) {
                        jobs.add(new CompressionJob(k, content.equals("text"), size, mode, Content.key(p.seed(), index++)));
                        simulatedBytes += 2 * size;
                    }
                }
            }
            for (int i = 0; i < Placement.REGIONS.size(); i++) {
                nodes.add(new NodePlan(Placement.REGIONS.get(i) + "#" + k, 0, Placement.ip(k, i, 1), 47000,
                        new CompressionNodes.Node(Placement.REGIONS.get(i), regions, p.seed() * 31 + i + 100L * k, k)));
            }
            nodes.add(new NodePlan("client#" + k, 0, clientIp, 48000, new CompressionNodes.Client("seoul", regions, jobs,
                    p.blockSize(), 4000, p.linksMbps().size())));
        }
        double slowest = p.linksMbps().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        long cap = 60_000 + Math.round(simulatedBytes * 8 / (slowest * 1e6) * 1000 * 1.5);
        return new SimPlan(p.seed(), net.build(), nodes, cap, 1000);
    }

    public static Outcome run(Params p, PrintStream progress) {
        List<Speed> speeds = p.speeds() != null ? p.speeds() : measure(p, 16);
        SimPlan plan = plan(p);
        progress.printf(Locale.ROOT, "simulating %d client links (up to %.0f s simulated) ...", p.linksMbps().size(),
                plan.durationMs() / 1000.0);
        SimResult r = SimRunner.run(plan);
        progress.printf(Locale.ROOT, " %.1f s wall%n", r.wallMs() / 1000.0);
        List<String> errors = new ArrayList<>(r.faults());
        Map<String, long[]> times = new LinkedHashMap<>();
        int ranged = 0;
        for (String rec : r.extra()) {
            String[] f = rec.split("\\|");
            switch (f[0]) {
                case "U" -> {
                    long[] t = times.computeIfAbsent(f[1], k -> new long[] {-1, -1, -1});
                    t[0] = Long.parseLong(f[2]);
                    t[2] = Long.parseLong(f[3]);
                }
                case "D" -> times.computeIfAbsent(f[1], k -> new long[] {-1, -1, -1})[1] = Long.parseLong(f[2]);
                case "E" -> errors.add(f[1] + ": " + f[2]);
                case "R" -> ranged++;
                default -> throw new IllegalStateException("unknown record " + rec);
            }
        }
        List<Row> rows = new ArrayList<>();
        times.forEach((key, t) -> {
            String[] k = key.split(",");
            double link = p.linksMbps().get(Integer.parseInt(k[0]));
            long size = Long.parseLong(k[2]);
            Speed s = speed(speeds, k[1], k[3]);
            boolean none = k[3].equals("none");
            rows.add(new Row(link, k[1], size, k[3], t[2], t[0], t[1], none ? 0 : size / 1e3 / s.compressMBps(),
                    none ? 0 : size / 1e3 / s.decompressMBps()));
        });
        rows.sort(Comparator.comparingInt((Row x) -> p.linksMbps().indexOf(x.linkMbps()))
                .thenComparingInt(x -> CONTENTS.indexOf(x.content())).thenComparingLong(Row::size)
                .thenComparingInt(x -> p.modes().indexOf(x.mode())));
        if (ranged != rows.size()) {
            errors.add("ranged gets came back right for " + ranged + " of " + rows.size() + " files");
        }
        if (!errors.isEmpty() || rows.stream().anyMatch(x -> x.downloadTransferMs() < 0)) {
            errors.add("not every transfer finished: " + rows.size() + " rows");
        }
        return new Outcome(rows, speeds, errors, r.wallMs());
    }

    /** The row with mode none for the same link, content and size. */
    static Row baseline(List<Row> rows, Row r) {
        return rows.stream().filter(x -> x.linkMbps() == r.linkMbps() && x.content().equals(r.content())
                && x.size() == r.size() && x.mode().equals("none")).findFirst().orElseThrow();
    }

    public static final String HEADER = "link_mbps,content,size_bytes,mode,stored_bytes,stored_pct,upload_transfer_ms,"
            + "download_transfer_ms,compress_ms,decompress_ms,upload_ms,download_ms,total_vs_none";

    static String csv(List<Row> rows, Row r) {
        Row b = baseline(rows, r);
        return Csv.num(r.linkMbps(), 1) + "," + r.content() + "," + r.size() + "," + r.mode() + "," + r.storedBytes()
                + "," + Csv.num(100.0 * r.storedBytes() / r.size(), 1) + "," + r.uploadTransferMs() + ","
                + r.downloadTransferMs() + "," + Csv.num(r.compressMs(), 1) + "," + Csv.num(r.decompressMs(), 1) + ","
                + Csv.num(r.uploadMs(), 1) + "," + Csv.num(r.downloadMs(), 1) + ","
                + Csv.num((r.uploadMs() + r.downloadMs()) / (b.uploadMs() + b.downloadMs()), 3);
    }

    public static void write(Path dir, Params p, Outcome o, boolean plot) throws IOException {
        Csv.write(dir.resolve("compression.csv"), HEADER, o.rows().stream().map(r -> csv(o.rows(), r)).toList());
        Csv.write(dir.resolve("codec_speeds.csv"), "content,mode,compress_mbps,decompress_mbps", o.speeds().stream()
                .map(s -> s.content() + "," + s.mode() + "," + Csv.num(s.compressMBps(), 1) + ","
                        + Csv.num(s.decompressMBps(), 1)).toList());
        if (plot) {
            List<CategoryChart> charts = new ArrayList<>();
            List<String> sizes = p.sizes().stream().map(s -> s % 1_000_000 == 0 ? s / 1_000_000 + " MB" : s + " B").toList();
            for (double link : p.linksMbps()) {
                Map<String, double[][]> series = new LinkedHashMap<>();
                for (String content : CONTENTS) {
                    for (String mode : p.modes()) {
                        if (mode.equals("none")) {
                            continue;
                        }
                        double[] v = new double[p.sizes().size()];
                        for (int i = 0; i < v.length; i++) {
                            long size = p.sizes().get(i);
                            Row r = o.rows().stream().filter(x -> x.linkMbps() == link && x.content().equals(content)
                                    && x.size() == size && x.mode().equals(mode)).findFirst().orElse(null);
                            if (r != null) {
                                Row b = baseline(o.rows(), r);
                                v[i] = (r.uploadMs() + r.downloadMs()) / (b.uploadMs() + b.downloadMs());
                            }
                        }
                        series.put(content + " " + mode, new double[][] {v, new double[v.length]});
                    }
                }
                charts.add(Charts.bars(String.format(Locale.ROOT,
                        "%s Mbit/s client link: upload + download time relative to no compression (< 1: it pays)",
                        Csv.num(link, link < 10 ? 1 : 0)), "time / time without compression", sizes, series, 900, 320));
            }
            Charts.writeStacked(dir.resolve("compression.png"), charts);
        }
    }

    public static Outcome runCli(Path dir, Params p, boolean plot, PrintStream o) throws IOException {
        o.printf(Locale.ROOT, "compression: links %s Mbit/s, sizes %s bytes, modes %s, blocks of %d bytes, seed %d%n",
                p.linksMbps(), p.sizes(), p.modes(), p.blockSize(), p.seed());
        Outcome out = run(p, o);
        o.println("codec speeds (MB/s of original bytes; " + (p.speeds() == null ? "measured on this machine" : "given")
                + "):");
        for (Speed s : out.speeds()) {
            o.printf(Locale.ROOT, "  %-6s %-5s compress %8.1f  decompress %8.1f%n", s.content(), s.mode(), s.compressMBps(),
                    s.decompressMBps());
        }
        write(dir, p, out, plot);
        o.printf(Locale.ROOT, "%n  %9s %-7s %11s %-5s %7s %12s %12s %8s%n", "link", "content", "size", "mode", "stored",
                "upload ms", "download ms", "vs none");
        for (Row r : out.rows()) {
            Row b = baseline(out.rows(), r);
            o.printf(Locale.ROOT, "  %9s %-7s %11d %-5s %6.1f%% %12.0f %12.0f %8.3f%n", Csv.num(r.linkMbps(), 1),
                    r.content(), r.size(), r.mode(), 100.0 * r.storedBytes() / r.size(), r.uploadMs(), r.downloadMs(),
                    (r.uploadMs() + r.downloadMs()) / (b.uploadMs() + b.downloadMs()));
        }
        o.printf(Locale.ROOT, "%n%d files, %d errors; wall time %.1f s; wrote %s%n", out.rows().size(), out.errors().size(),
                out.wallMs() / 1000.0, dir.toAbsolutePath());
        if (!out.errors().isEmpty()) {
            throw new IllegalStateException(out.errors().size() + " transfers failed, first: " + out.errors().get(0));
        }
        return out;
    }
}
