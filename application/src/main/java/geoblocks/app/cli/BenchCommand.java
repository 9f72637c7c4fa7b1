package geoblocks.app.cli;

import geoblocks.app.LocalCluster;
import geoblocks.app.bench.DataBridgeBenchCommand;
import geoblocks.app.bench.EcBenchCommand;
import geoblocks.app.bench.MetaBenchCommand;
import geoblocks.app.bench.NetBenchCommand;
import geoblocks.app.bench.StorageBenchCommand;
import geoblocks.app.load.LoadCommand;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.Sizes;
import geoblocks.node.cli.Cluster;
import geoblocks.node.host.NetworkChoice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench}: put and get throughput and per-file latency on a local 4-node cluster (emulated
 * WAN off by default), for each block size and policy, next to this disk's own fsync'ed write
 * speed. Prints figures; never fails on timing.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure put/get MB/s and latency on a local 4-node cluster, next to the disk's fsync'ed write speed.",
        subcommands = {LoadCommand.class, StorageBenchCommand.class, NetBenchCommand.class,
            DataBridgeBenchCommand.class, MetaBenchCommand.class, EcBenchCommand.class})
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--files", defaultValue = "8", description = "Files per configuration (default: ${DEFAULT-VALUE}).")
    int files;

    @Option(names = "--size", defaultValue = "32MiB", description = "Size of each file (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--block-sizes", defaultValue = "1MiB,64KiB", split = ",", description = "Block sizes (default: ${DEFAULT-VALUE}).")
    List<String> blockSizes;

    @Option(names = "--policies", defaultValue = "local,localclosest", split = ",",
            description = "Policies: local = 1 replica, localclosest = 2 (default: ${DEFAULT-VALUE}).")
    List<String> policies;

    @Option(names = "--at", defaultValue = "dublin", split = ",",
            description = "Regions to put and get at, one row each (default: ${DEFAULT-VALUE}).")
    List<String> at;

    @Option(names = "--s3-backed", paramLabel = "REGION",
            description = "Keep this region's blocks in --s3-bucket at --s3-endpoint (geoblocks.s3-storage.REGION), e.g."
                    + " --s3-backed mumbai --at dublin,mumbai to compare it with a local-disk region; credentials from"
                    + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.")
    String s3Backed;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "S3 endpoint of --s3-backed, e.g. http://127.0.0.1:8333.")
    String s3Endpoint;

    @Option(names = "--s3-bucket", paramLabel = "BUCKET", description = "Existing bucket of --s3-backed (the bench writes"
            + " under a prefix of its own).")
    String s3Bucket;

    @Option(names = "--wan", description = "Turn the emulated WAN on (off by default: measures our code and the disk).")
    boolean wan;

    @Option(names = "--warmup", defaultValue = "true", negatable = true, fallbackValue = "true",
            description = "Before the table, put and get every file once per policy, untimed, so the first row does not"
                    + " pay the JIT's warm-up (--no-warmup to measure it; default: ${DEFAULT-VALUE}).")
    boolean warmup;

    @Mixin
    NetworkOption network = new NetworkOption();

    @Option(names = "--node-jvm-opt", paramLabel = "OPT",
            description = "Extra JVM option for every node (repeatable), e.g. -XX:StartFlightRecording=filename=n.jfr")
    List<String> nodeJvmOpts = new ArrayList<>();

    @Option(names = "--work-dir", description = "Where data and logs go (default: a temp dir, deleted after).")
    Path workDir;

    private List<String> jvm() {
        List<String> jvm = new ArrayList<>(List.of("-Xmx512m"));
        jvm.addAll(nodeJvmOpts);
        return jvm;
    }

    /** The cluster config's S3 section for {@code --s3-backed}, empty without it. */
    String s3Config(Path work) {
        if (s3Backed == null) {
            return "";
        }
        if (s3Endpoint == null || s3Bucket == null) {
            throw new IllegalArgumentException("--s3-backed needs --s3-endpoint and --s3-bucket");
        }
        if (!LocalCluster.REGIONS.contains(s3Backed)) {
            throw new IllegalArgumentException("unknown region '" + s3Backed + "' in --s3-backed; known: " + LocalCluster.REGIONS);
        }
        return "\ngeoblocks.s3-storage." + s3Backed + " { endpoint = \"" + s3Endpoint + "\", bucket = \"" + s3Bucket
                + "\", prefix = \"geoblocks-bench-" + work.getFileName() + "/\" }\n";
    }

    @Override
    public Integer call() throws Exception {
        for (String a : at) {
            if (!LocalCluster.REGIONS.contains(a)) {
                throw new IllegalArgumentException("unknown region '" + a + "' in --at; known: " + LocalCluster.REGIONS);
            }
        }
        long bytes = Sizes.parse(size);
        Path work = workDir != null ? workDir : Files.createTempDirectory("geoblocks-bench-");
        Files.createDirectories(work);
        try {
            double disk = diskWriteMBps(work.resolve("disk-probe"), Math.max(bytes * 4, 256L << 20));
            System.out.printf("disk: fsync'ed sequential write %.0f MB/s (%s in 1 MiB writes + fsync, %s)%n",
                    disk, Sizes.human(Math.max(bytes * 4, 256L << 20)), work);
            List<Path> inputs = new ArrayList<>();
            for (int i = 0; i < files; i++) {
                Path p = work.resolve("input-" + i);
                Cluster.generate(p, bytes, 1000 + i);
                inputs.add(p);
            }
            // the bench deletes its files between rows: keep no earlier versions, so its disk use stays one row's
            String config = network.config() + "\ngeoblocks.node { version-retention = 1 s, tombstone-retention = 1 s }"
                    + s3Config(work);
            try (LocalCluster cluster = LocalCluster.start(work.resolve("cluster"), wan, jvm(), config)) {
                AppConfig cfg = AppConfig.load(cluster.configFile());
                try (GeoClient client = GeoClient.start(cfg, 60_000)) {
                    System.out.printf("cluster: 4 nodes on loopback, emulated WAN %s; %d files of %s per row, put and get at %s%s%n",
                            wan ? "on" : "off", files, Sizes.human(bytes), at,
                            s3Backed == null ? "" : "; " + s3Backed + " keeps its blocks in S3 (" + s3Endpoint + ", bucket " + s3Bucket + ")");
                    System.out.printf("network: %s, chunks of %s%n%n", NetworkChoice.of(cfg).describe(cfg.cluster().address(at.get(0))),
                            Sizes.human(cfg.node().chunkBytes()));
                    Cluster.awaitAllUp(client, LocalCluster.REGIONS, 30_000);
                    if (warmup) {
                        long t0 = System.nanoTime();
                        for (String where : at) {
                            for (String policy : policies) {
                                for (int i = 0; i < files; i++) {
                                    String name = "bench-warmup-" + where + "-" + policy + "-" + i;
                                    client.put(where, inputs.get(i), name, policy, (int) Sizes.parse(blockSizes.get(0)), null);
                                    Path out = work.resolve("out");
                                    client.get(where, name, out, null);
                                    Files.delete(out);
                                    client.delete(where, name);
                                }
                            }
                        }
                        System.out.printf("warm-up: every file put and got once per policy, untimed (%.1f s)%n%n",
                                (System.nanoTime() - t0) / 1e9);
                    }
                    System.out.printf("%-12s %-8s %-14s %9s %9s %9s %9s %9s %9s%n", "AT", "BLOCK", "POLICY", "PUT MB/s", "p50 ms",
                            "max ms", "GET MB/s", "p50 ms", "max ms");
                    int run = 0;
                    for (String where : at) {
                        for (String bs : blockSizes) {
                            for (String policy : policies) {
                                run++;
                                double[] put = new double[files];
                                double[] get = new double[files];
                                for (int i = 0; i < files; i++) {
                                    String name = "bench-" + run + "-" + i;
                                    long t0 = System.nanoTime();
                                    client.put(where, inputs.get(i), name, policy, (int) Sizes.parse(bs), null);
                                    put[i] = (System.nanoTime() - t0) / 1e6;
                                }
                                for (int i = 0; i < files; i++) {
                                    Path out = work.resolve("out");
                                    long t0 = System.nanoTime();
                                    client.get(where, "bench-" + run + "-" + i, out, null);
                                    get[i] = (System.nanoTime() - t0) / 1e6;
                                    if (Files.mismatch(inputs.get(i), out) != -1) {
                                        throw new IOException("bench-" + run + "-" + i + " came back different");
                                    }
                                    Files.delete(out);
                                }
                                System.out.printf("%-12s %-8s %-14s %9.1f %9.0f %9.0f %9.1f %9.0f %9.0f%n",
                                        where + (where.equals(s3Backed) ? " (S3)" : ""), Sizes.human(Sizes.parse(bs)), policy,
                                        mbps(bytes, put), median(put), max(put), mbps(bytes, get), median(get), max(get));
                                for (int i = 0; i < files; i++) {
                                    client.delete(where, "bench-" + run + "-" + i);
                                }
                            }
                        }
                    }
                }
            }
            return 0;
        } finally {
            if (workDir == null) {
                Cluster.deleteTree(work);
            }
        }
    }

    /** Writes {@code total} bytes in 1 MiB writes and fsyncs: the disk's durable write speed. */
    static double diskWriteMBps(Path file, long total) throws IOException {
        byte[] buf = new byte[1 << 20];
        new Random(1).nextBytes(buf);
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long done = 0; done < total; done += buf.length) {
                ByteBuffer b = ByteBuffer.wrap(buf);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            ch.force(true);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        Files.delete(file);
        return total / 1e6 / s;
    }

    static double mbps(long bytes, double[] ms) {
        return bytes * ms.length / 1e6 / (Arrays.stream(ms).sum() / 1e3);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
