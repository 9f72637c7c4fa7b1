package geoblocks.app.cli;

import geoblocks.app.AppConfig;
import geoblocks.app.GeoClient;
import geoblocks.app.LocalCluster;
import geoblocks.app.NetworkOption;
import geoblocks.app.Sizes;
import geoblocks.app.host.NetworkChoice;
import geoblocks.app.bench.DataBridgeBenchCommand;
import geoblocks.app.bench.NetBenchCommand;
import geoblocks.app.bench.StorageBenchCommand;
import geoblocks.app.load.LoadCommand;
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
            DataBridgeBenchCommand.class, geoblocks.app.bench.MetaBenchCommand.class})
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

    @Option(names = "--at", defaultValue = "dublin", description = "Region to put and get at (default: ${DEFAULT-VALUE}).")
    String at;

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

    @Override
    public Integer call() throws Exception {
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
            String config = network.config() + "\ngeoblocks.node { version-retention = 1 s, tombstone-retention = 1 s }";
            try (LocalCluster cluster = LocalCluster.start(work.resolve("cluster"), wan, jvm(), config)) {
                AppConfig cfg = AppConfig.load(cluster.configFile());
                try (GeoClient client = GeoClient.start(cfg, 60_000)) {
                    System.out.printf("cluster: 4 nodes on loopback, emulated WAN %s; %d files of %s per row, put and get at %s%n",
                            wan ? "on" : "off", files, Sizes.human(bytes), at);
                    System.out.printf("network: %s, chunks of %s%n%n", NetworkChoice.of(cfg).describe(cfg.cluster().address(at)),
                            Sizes.human(cfg.node().chunkBytes()));
                    Cluster.awaitAllUp(client, LocalCluster.REGIONS, 30_000);
                    if (warmup) {
                        long t0 = System.nanoTime();
                        for (String policy : policies) {
                            for (int i = 0; i < files; i++) {
                                String name = "bench-warmup-" + policy + "-" + i;
                                client.put(at, inputs.get(i), name, policy, (int) Sizes.parse(blockSizes.get(0)), null);
                                Path out = work.resolve("out");
                                client.get(at, name, out, null);
                                Files.delete(out);
                                client.delete(at, name);
                            }
                        }
                        System.out.printf("warm-up: every file put and got once per policy, untimed (%.1f s)%n%n",
                                (System.nanoTime() - t0) / 1e9);
                    }
                    System.out.printf("%-8s %-14s %9s %9s %9s %9s %9s %9s%n", "BLOCK", "POLICY", "PUT MB/s", "p50 ms",
                            "max ms", "GET MB/s", "p50 ms", "max ms");
                    int run = 0;
                    for (String bs : blockSizes) {
                        for (String policy : policies) {
                            run++;
                            double[] put = new double[files];
                            double[] get = new double[files];
                            for (int i = 0; i < files; i++) {
                                String name = "bench-" + run + "-" + i;
                                long t0 = System.nanoTime();
                                client.put(at, inputs.get(i), name, policy, (int) Sizes.parse(bs), null);
                                put[i] = (System.nanoTime() - t0) / 1e6;
                            }
                            for (int i = 0; i < files; i++) {
                                Path out = work.resolve("out");
                                long t0 = System.nanoTime();
                                client.get(at, "bench-" + run + "-" + i, out, null);
                                get[i] = (System.nanoTime() - t0) / 1e6;
                                if (Files.mismatch(inputs.get(i), out) != -1) {
                                    throw new IOException("bench-" + run + "-" + i + " came back different");
                                }
                                Files.delete(out);
                            }
                            System.out.printf("%-8s %-14s %9.1f %9.0f %9.0f %9.1f %9.0f %9.0f%n", Sizes.human(Sizes.parse(bs)),
                                    policy, mbps(bytes, put), median(put), max(put), mbps(bytes, get), median(get), max(get));
                            for (int i = 0; i < files; i++) {
                                client.delete(at, "bench-" + run + "-" + i);
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
