package geoblocks.app.cli;

import geoblocks.app.LocalCluster;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.Sizes;
import geoblocks.node.cli.Cluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the embedded default. Starts the 4-region cluster on loopback with the emulated
 * WAN, uploads a generated file with each policy at one region, downloads it at another, verifies
 * the bytes and prints where the replicas landed and how long each transfer took.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a local 4-region cluster (emulated WAN), put/get with every policy, print a table.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--upload-at", defaultValue = "seoul", description = "Region to upload at (default: ${DEFAULT-VALUE}).")
    String uploadAt;

    @Option(names = "--download-at", defaultValue = "dublin", description = "Region to download at (default: ${DEFAULT-VALUE}).")
    String downloadAt;

    @Option(names = "--size", defaultValue = "4MiB", description = "Size of each generated file (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--block-size", defaultValue = "1MiB", description = "Block size (default: ${DEFAULT-VALUE}).")
    String blockSize;

    @Option(names = "--keep", description = "Keep the work directory (data, logs) instead of deleting it.")
    boolean keep;

    @Override
    public Integer call() throws Exception {
        long bytes = Sizes.parse(size);
        int bs = (int) Sizes.parse(blockSize);
        for (String r : List.of(uploadAt, downloadAt)) {
            if (!LocalCluster.REGIONS.contains(r)) {
                throw new IllegalArgumentException("unknown region '" + r + "'; known: " + LocalCluster.REGIONS);
            }
        }
        Path work = Files.createTempDirectory("geoblocks-demo-");
        System.out.println("starting 4 nodes " + LocalCluster.REGIONS + " on loopback with emulated WAN (work dir " + work + ")");
        try (LocalCluster cluster = LocalCluster.start(work, true, List.of("-Xmx256m"));
                GeoClient client = GeoClient.start(AppConfig.load(cluster.configFile()), 20_000)) {
            Cluster.awaitAllUp(client, LocalCluster.REGIONS, 30_000);
            Thread.sleep(3000); // a few more probe rounds, so fresh-JVM outliers leave the RTT medians
            System.out.println("RTT seen from " + uploadAt + ": " + Cluster.rtts(client, uploadAt));
            System.out.printf("%nuploading a %s file with each policy at %s (blocks of %s), downloading at %s%n%n",
                    Sizes.human(bytes), uploadAt, Sizes.human(bs), downloadAt);
            System.out.printf("%-14s %-34s %9s %9s  %s%n", "POLICY", "REPLICAS (blocks per region)", "PUT ms", "GET ms", "CHECK");
            int failures = 0;
            // every policy the node lists (client policies): the five seeds, localclosest3, balanced, and any in its config
            List<String> policies = client.policies(uploadAt).policies().stream().map(ClientOp.PolicyInfo::name).toList();
            for (int i = 0; i < policies.size(); i++) {
                String policy = policies.get(i);
                Path in = work.resolve("in-" + policy + ".bin");
                Cluster.generate(in, bytes, i);
                Path out = work.resolve("out-" + policy + ".bin");
                String name = "demo-" + policy;
                long t0 = System.nanoTime();
                client.put(uploadAt, in, name, policy, bs, null);
                long t1 = System.nanoTime();
                client.get(downloadAt, name, out, null);
                long t2 = System.nanoTime();
                Manifest m = client.stat(downloadAt, name);
                boolean same = Files.mismatch(in, out) == -1;
                failures += same ? 0 : 1;
                System.out.printf("%-14s %-34s %9.0f %9.0f  %s%n", policy, Cluster.replicaSummary(m),
                        (t1 - t0) / 1e6, (t2 - t1) / 1e6, same ? "bytes identical" : "MISMATCH");
            }
            System.out.println();
            System.out.println(failures == 0 ? "all " + policies.size() + " files verified byte for byte"
                    : failures + " file(s) differ!");
            return failures == 0 ? 0 : 1;
        } finally {
            if (!keep) {
                Cluster.deleteTree(work);
            }
        }
    }
}
