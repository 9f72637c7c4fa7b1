package geoblocks.app.bench;

import geoblocks.app.LocalCluster;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.Sizes;
import geoblocks.node.cli.Cluster;
import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.databridge.DataBridgeReport;
import geoblocks.sim.databridge.DataBridgeResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench databridge}: experiment 7 live. For each loss percentage, starts the 4-region local
 * cluster with the emulated WAN on at that loss ({@code wan-loss-percent}; buckets of policy local,
 * moved objects one copy at home), then uploads each file size to the far home region directly and
 * through the near node: by default a real S3 PUT with curl through a {@link WanRelay}, following
 * the gateway's 307 ({@link DataBridgeHttpUpload}); with {@code --via client} through ClientPort calls
 * of a client placed in the near region ({@link DataBridgeUpload}). Prints a table (or JSON); with
 * --out writes databridge.csv and databridge.png. Figures only, never fails on timing.
 */
@Command(name = "databridge", mixinStandardHelpOptions = true,
        description = "DataBridge (experiment 7) on the local 4-region cluster with the emulated WAN: a client in --near"
                + " uploads each size to --home directly, and to the near node (ack local) then moved home; reports the"
                + " client's wait and the time until the object is home, per size and emulated loss.")
public final class DataBridgeBenchCommand implements Callable<Integer> {
    @Option(names = "--sizes", defaultValue = "50MB,100MB,300MB", split = ",", paramLabel = "SIZE",
            description = "File sizes: 50MB = 50,000,000 B, 5MiB = 5 x 2^20 B (default: ${DEFAULT-VALUE}).")
    List<String> sizes;

    @Option(names = "--loss-percent", defaultValue = "0,2", split = ",", paramLabel = "P",
            description = "Emulated WAN loss percentages, one cluster each (default: ${DEFAULT-VALUE}).")
    List<String> losses;

    @Option(names = "--near", defaultValue = "seoul", description = "The client's region (default: ${DEFAULT-VALUE}).")
    String near;

    @Option(names = "--home", defaultValue = "dublin", description = "The objects' home region (default: ${DEFAULT-VALUE}).")
    String home;

    @Option(names = "--block-size", defaultValue = "1MiB", description = "Block size (default: ${DEFAULT-VALUE}).")
    String blockSize;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the files and the emulated drops (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--timeout-s", defaultValue = "3600",
            description = "Longest one upload or move may take, in seconds (default: ${DEFAULT-VALUE}).")
    long timeoutS;

    @Option(names = "--via", defaultValue = "http",
            description = "http: curl's S3 PUT to the home node's gateway through an emulated-WAN relay, following the 307;"
                    + " client: the same through ClientPort calls of a client placed in --near (default: ${DEFAULT-VALUE}).")
    String via;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--out", paramLabel = "DIR", description = "Write databridge.csv and databridge.png here.")
    Path out;

    @Option(names = "--node-conf", paramLabel = "HOCON",
            description = "Extra config for every node (repeatable), e.g. 'geoblocks.node.rpc-timeout = 60 s' (a move's block"
                    + " copy times out after 8 RPC timeouts).")
    List<String> nodeConf = new ArrayList<>();

    @Option(names = "--node-jvm-opt", paramLabel = "OPT", description = "Extra JVM option for every node (repeatable).")
    List<String> nodeJvmOpts = new ArrayList<>();

    @Option(names = "--work-dir", description = "Where data and logs go (default: a temp dir, deleted after).")
    Path workDir;

    /** The validated plan of these options. */
    DataBridgePlan plan() {
        long bs = Sizes.parse(blockSize);
        if (bs > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("block size must be 64 KiB..64 MiB, was " + blockSize);
        }
        if (!LocalCluster.REGIONS.contains(near) || !LocalCluster.REGIONS.contains(home)) {
            throw new IllegalArgumentException("--near and --home must be regions of the local cluster "
                    + LocalCluster.REGIONS + ", were '" + near + "' and '" + home + "'");
        }
        if (!via.equals("http") && !via.equals("client")) {
            throw new IllegalArgumentException("--via must be http or client, was '" + via + "'");
        }
        if (timeoutS < 1) {
            throw new IllegalArgumentException("--timeout-s must be >= 1, was " + timeoutS);
        }
        return new DataBridgePlan(DataBridgePlan.parseSizes(sizes), DataBridgePlan.parseLosses(losses), near, home,
                (int) bs, seed);
    }

    @Override
    public Integer call() throws Exception {
        DataBridgePlan plan = plan();
        Path work = workDir != null ? workDir : Files.createTempDirectory("geoblocks-bench-databridge-");
        Files.createDirectories(work);
        List<DataBridgeResult> results = new ArrayList<>();
        try {
            if (!json) {
                System.out.printf(Locale.ROOT, "bench databridge: client in %s, home %s, %s blocks; 4 nodes on loopback,"
                        + " emulated WAN on; via %s (work dir %s)%n", plan.near(), plan.home(), Sizes.human(plan.blockSize()),
                        via.equals("http") ? "curl's S3 PUT to the gateway" : "ClientPort calls", work);
            }
            boolean headed = false;
            for (double loss : plan.lossPercents()) {
                String conf = String.format(Locale.ROOT, "geoblocks.cluster { wan-loss-percent = %s, wan-seed = %d }%n"
                        + "geoblocks.s3 { default-policy = local, migrated-copies = 1 }%n%s", loss, plan.seed(),
                        String.join("\n", nodeConf));
                Path dir = work.resolve("loss-" + loss);
                try (LocalCluster cluster = LocalCluster.start(dir.resolve("cluster"), true, jvm(), conf)) {
                    AppConfig cfg = AppConfig.load(cluster.configFile());
                    boolean http = via.equals("http");
                    try (GeoClient client = GeoClient.start(cfg, timeoutS * 1000, http ? null : plan.near());
                            WanRelay relay = http ? new WanRelay(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                                    cluster.httpPort(plan.home())), cfg.cluster().rtt().rttMs(plan.near(), plan.home()),
                                    loss / 100) : null) {
                        Cluster.awaitAllUp(client, LocalCluster.REGIONS, 60_000);
                        Uploads up = http ? httpUploads(cfg, cluster, client, plan, relay) : new DataBridgeUpload(client, plan);
                        if (!json && !headed) {
                            System.out.println(DataBridgeReport.header());
                            headed = true;
                        }
                        for (long size : plan.sizes()) {
                            Path file = dir.resolve("input-" + size);
                            Cluster.generate(file, size, plan.seed() * 1000 + size);
                            DataBridgeResult d = up.direct(file, size, loss);
                            DataBridgeResult r = up.redirected(file, size, loss);
                            results.add(d);
                            results.add(r);
                            Files.delete(file);
                            if (!json) {
                                System.out.println(DataBridgeReport.row(size, loss, d, r));
                            }
                        }
                    }
                }
            }
            if (json) {
                System.out.println(DataBridgeReport.json(plan, "live via " + via, results));
            }
            if (out != null) {
                DataBridgeReport.write(out, "DataBridge live (via " + via + "): " + plan.near() + " client, home " + plan.home()
                        + " (emulated WAN)", results, true);
                if (!json) {
                    System.out.println("wrote " + out.resolve("databridge.csv") + " and databridge.png");
                }
            }
            return 0;
        } finally {
            if (workDir == null) {
                Cluster.deleteTree(work);
            }
        }
    }

    /** The two uploads of one size, along either path. */
    interface Uploads {
        DataBridgeResult direct(Path file, long size, double loss);

        DataBridgeResult redirected(Path file, long size, double loss);
    }

    private Uploads httpUploads(AppConfig cfg, LocalCluster cluster, GeoClient client, DataBridgePlan plan, WanRelay relay)
            throws IOException {
        String key = cfg.config().getString("geoblocks.http.access-key");
        String secret = cfg.config().getString("geoblocks.http.secret-key");
        DataBridgeHttpUpload.createBucket(cluster.httpPort(plan.home()), plan, key, secret);
        return new DataBridgeHttpUpload(client, plan, relay.port(), key, secret, timeoutS);
    }

    private List<String> jvm() {
        List<String> jvm = new ArrayList<>(List.of("-Xmx512m"));
        jvm.addAll(nodeJvmOpts);
        return jvm;
    }
}
