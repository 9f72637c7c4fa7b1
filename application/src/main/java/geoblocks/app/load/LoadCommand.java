package geoblocks.app.load;

import com.typesafe.config.ConfigFactory;
import geoblocks.app.LocalCluster;
import geoblocks.app.cli.NetworkOption;
import geoblocks.blockstore.core.Policy;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.Sizes;
import geoblocks.node.host.NetworkChoice;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench load}: SPEC.md experiment 9 on one machine. Starts a local 4-node cluster (or uses
 * {@code --config}'s), runs {@link LoadRun}, prints throughput, latency percentiles and replicas
 * per node, reads every acknowledged file back ({@link Verifier}) and ends with
 * {@code RESULT ... lost=N corrupt=N failed=N}. Exit code 1 when anything was lost or corrupt.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = "Load test (SPEC.md experiment 9): many client threads, read:write 8:2, files of 50 KiB-10 MiB, "
                + "replication 2; verifies every acknowledged file at the end.")
public final class LoadCommand implements Callable<Integer> {
    @Option(names = "--threads", defaultValue = "32", description = "Client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--duration", defaultValue = "60", paramLabel = "S", description = "Seconds of load (default: ${DEFAULT-VALUE}).")
    double durationS;

    @Option(names = "--warmup", defaultValue = "0", paramLabel = "S",
            description = "Seconds of load before the measured duration: JIT warm-up (default: ${DEFAULT-VALUE}).")
    double warmupS;

    @Option(names = "--read-ratio", defaultValue = "0.8", description = "Share of reads (default: ${DEFAULT-VALUE}, i.e. 8:2).")
    double readRatio;

    @Option(names = "--sizes", defaultValue = "50KiB,100KiB,500KiB,1MiB,3MiB,5MiB,10MiB", split = ",",
            description = "File sizes, each write picks one at random (default: ${DEFAULT-VALUE}).")
    List<String> sizes;

    @Option(names = "--think-ms", defaultValue = "1000", paramLabel = "MAX",
            description = "Each thread waits a random 0..MAX ms after each request (default: ${DEFAULT-VALUE}).")
    long thinkMs;

    @Option(names = "--policy", defaultValue = "tworandom", description = "Placement policy of writes (default: ${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--block-size", defaultValue = "1MiB", description = "Block size of writes (default: ${DEFAULT-VALUE}).")
    String blockSize;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random choice and of the file contents (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--preload", defaultValue = "-1", description = "Files written before the clock starts (default: one per size).")
    int preload;

    @Option(names = "--kill", paramLabel = "REGION@SECONDS", description = "SIGKILL that region's node at that time (local cluster only).")
    String kill;

    @Option(names = "--restart-after", paramLabel = "S", defaultValue = "-1", description = "Restart the killed node S seconds after the kill (default: never).")
    double restartAfterS;

    @Option(names = "--out", paramLabel = "DIR", description = "Write requests.csv (one row per request) and summary.txt there.")
    Path outDir;

    @Option(names = "--config", paramLabel = "FILE", description = "Run against this existing cluster instead of starting a local one.")
    Path config;

    @Option(names = "--wan", description = "Local cluster: turn the emulated WAN on (off by default).")
    boolean wan;

    @Option(names = "--node-heap", defaultValue = "256m", description = "Local cluster: each node's -Xmx (default: ${DEFAULT-VALUE}).")
    String nodeHeap;

    @Option(names = "--node-jvm-opt", paramLabel = "OPT", description = "Local cluster: extra JVM option for every node (repeatable), e.g. -XX:StartFlightRecording=...")
    List<String> nodeJvmOpts = new ArrayList<>();

    @CommandLine.Mixin
    NetworkOption network = new NetworkOption();

    @Option(names = "--failover", defaultValue = "0", paramLabel = "N",
            description = "Send a request that failed as UNAVAILABLE (its node down or restarting: nothing was decided)"
                    + " again to the next region, up to N times; each counted as a failover, not a failure (default: ${DEFAULT-VALUE}).")
    int failover;

    @Option(names = "--busy-retries", defaultValue = "0", paramLabel = "N",
            description = "Send a request a node refused as busy again up to N times, after a jittered backoff"
                    + " (default: ${DEFAULT-VALUE}: a refusal counts as a failed request, as the load test always did;"
                    + " under overload retries add load and lowered the rate here).")
    int busyRetries;

    @Option(names = "--timeout", defaultValue = "30000", paramLabel = "MS", description = "A request fails when its node is silent this long (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(names = "--progress", defaultValue = "5", paramLabel = "S", description = "Seconds between progress lines (default: ${DEFAULT-VALUE}).")
    double progressS;

    @Option(names = "--verify-threads", defaultValue = "4", description = "Threads reading files back at the end (default: ${DEFAULT-VALUE}).")
    int verifyThreads;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Local cluster's data and node logs (default: a temp dir, deleted after).")
    Path workDir;

    @Option(names = "--follow-layout", description = "With --config: send requests only to the cluster layout's members,"
            + " refreshed every second from `cluster show` (a region added gets requests, a removed one none), instead of"
            + " every region of the config. The config must list every region that may join, with its address.")
    boolean followLayout;

    @Option(names = "--keep-files", description = "With --config: leave the test's files in the cluster (default: delete them after the check).")
    boolean keepFiles;

    @Override
    public Integer call() throws Exception {
        if (busyRetries < 0) { // before a local cluster starts
            throw new IllegalArgumentException("--busy-retries must be >= 0, was " + busyRetries);
        }
        if (failover < 0) {
            throw new IllegalArgumentException("--failover must be >= 0, was " + failover);
        }
        LoadSettings s = settings();
        Path work = workDir != null ? workDir : Files.createTempDirectory("geoblocks-load-");
        PrintStream out = System.out;
        LocalCluster cluster = null;
        try {
            AppConfig cfg;
            if (config != null) {
                cfg = AppConfig.load(config);
                out.printf("cluster: %s from %s%n", cfg.cluster().regionIds(), config);
            } else {
                List<String> jvm = new ArrayList<>(List.of("-Xmx" + nodeHeap));
                jvm.addAll(nodeJvmOpts);
                out.printf("starting 4 nodes %s on loopback, emulated WAN %s, node JVM %s (work dir %s)%n",
                        LocalCluster.REGIONS, wan ? "on" : "off", String.join(" ", jvm), work);
                cluster = LocalCluster.start(work.resolve("cluster"), wan, jvm, network.config());
                cfg = AppConfig.load(cluster.configFile());
                out.printf("network: %s%n", NetworkChoice.of(cfg).describe(cfg.cluster().regions().values().iterator().next()));
            }
            AppConfig withRetries = new AppConfig(ConfigFactory.parseMap(
                    Map.of("geoblocks.client.busy-retries", busyRetries)).withFallback(cfg.config()),
                    cfg.cluster(), cfg.node(), cfg.network());
            try (GeoClient client = GeoClient.start(withRetries, timeoutMs);
                    RequestLog log = outDir == null ? RequestLog.none() : RequestLog.to(outDir.resolve("requests.csv"))) {
                List<String> configured = cfg.cluster().regionIds();
                LayoutFollower follower = followLayout ? LayoutFollower.start(client, configured, out) : null;
                Targets targets = follower != null ? follower.targets() : new Targets(configured, configured);
                awaitAllUp(client, targets.get(), 60_000);
                out.printf("load: %d threads, %s%.0f s, read ratio %.2f, sizes %s, think 0-%d ms, policy %s, blocks of %s, seed %d%s%n",
                        s.threads(), s.warmupMs() > 0 ? s.warmupMs() / 1e3 + " s warm-up + " : "", s.durationMs() / 1e3, s.readRatio(),
                        s.sizes().stream().map(Sizes::human).collect(Collectors.joining(", ")), s.thinkMaxMs(), s.policy(),
                        Sizes.human(s.blockSize()), s.seed(), s.kill() == null ? "" : ", SIGKILL " + s.kill().region()
                                + " at " + s.kill().atMs() / 1e3 + " s" + (s.restartAfterMs() >= 0 ? ", restart " + s.restartAfterMs() / 1e3 + " s later" : ""));
                String runTag = Long.toString(System.currentTimeMillis(), 36);
                AdmissionFigures admissionBefore = AdmissionFigures.read(cfg);
                LoadRun.Result r;
                try {
                    r = new LoadRun(client, targets, s, nodes(cluster), runTag, log, out).run();
                } finally {
                    if (follower != null) {
                        follower.close();
                    }
                }
                List<String> regions = targets.get();
                Thread.sleep(1500); // the nodes' metrics come from snapshots published about once a second
                AdmissionFigures admission = AdmissionFigures.read(cfg).since(admissionBefore);
                LoadReport.printRun(out, r);
                LoadReport.printAdmission(out, r, admission, client.busyRetries());

                List<String> up = new ArrayList<>(regions);
                if (r.killed() != null && !r.restarted()) {
                    up.remove(r.killed());
                }
                out.printf("%nreading back every acknowledged file (%d) from the nodes that are up %s...%n", r.acked().size(), up);
                List<AckedFiles.File> files = r.acked().snapshot();
                Verifier.Outcome v = Verifier.verify(client, files, up, s.verifyThreads(), out);
                LoadReport.printVerification(out, v, files.size());
                out.printf("%nreplicas per node (policy %s):%n", s.policy());
                Map<String, Path> disks = new LinkedHashMap<>();
                if (cluster != null) {
                    for (String region : regions) {
                        disks.put(region, cluster.dataDir(region));
                    }
                }
                long missing = Replicas.print(out, regions, v.expected(), disks);
                LoadReport.Summary sum = LoadReport.summarize(r, v, missing, client.busyRetries(), admission);
                out.println();
                out.println(sum.line());
                if (outDir != null) {
                    Files.writeString(outDir.resolve("summary.txt"), sum.line() + System.lineSeparator());
                }
                if (config != null && !keepFiles) {
                    deleteAll(client, files, up);
                }
                return sum.lost() > 0 || sum.corrupt() > 0 ? 1 : 0;
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            if (workDir == null) {
                deleteTree(work);
            }
        }
    }

    private LoadSettings settings() {
        if (!(durationS > 0) || !(progressS > 0) || !(warmupS >= 0)) {
            throw new IllegalArgumentException("--duration and --progress must be > 0 seconds, --warmup >= 0");
        }
        Policy.parse(policy);
        List<Long> bytes = sizes.stream().map(Sizes::parse).collect(Collectors.toList());
        long bs = Sizes.parse(blockSize);
        if (bs > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("block size " + blockSize + " is too large");
        }
        if (followLayout && config == null) {
            throw new IllegalArgumentException("--follow-layout needs --config (a cluster whose layout changes)");
        }
        if (config != null && (wan || kill != null || !nodeJvmOpts.isEmpty())) {
            throw new IllegalArgumentException("--wan, --kill and --node-jvm-opt only apply to the local cluster, not with --config");
        }
        LoadSettings.Kill k = kill == null ? null : LoadSettings.Kill.parse(kill);
        if (k != null && !LocalCluster.REGIONS.contains(k.region())) {
            throw new IllegalArgumentException("unknown region '" + k.region() + "' in --kill; known: " + LocalCluster.REGIONS);
        }
        return new LoadSettings(threads, Math.round(warmupS * 1000), Math.round(durationS * 1000), readRatio, bytes, thinkMs, policy, (int) bs, seed,
                preload < 0 ? bytes.size() : preload, k,
                restartAfterS < 0 ? -1 : Math.round(restartAfterS * 1000), Math.round(progressS * 1000), verifyThreads, failover);
    }

    private static LoadRun.Nodes nodes(LocalCluster cluster) {
        if (cluster == null) {
            return null;
        }
        return new LoadRun.Nodes() {
            @Override
            public void kill(String region) throws IOException {
                cluster.kill(region);
            }

            @Override
            public void restart(String region) throws IOException {
                cluster.startNode(region);
                cluster.awaitListening(region);
            }
        };
    }

    /** Waits until every node sees every other node up (its RTT monitor has samples of each). */
    static void awaitAllUp(GeoClient client, List<String> regions, long timeoutMs) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        for (String r : regions) {
            while (!client.status(r).peers().stream().allMatch(p -> p.rttMs() >= 0)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("node " + r + " still sees peers down after " + timeoutMs + " ms: " + client.status(r).peers());
                }
                Thread.sleep(200);
            }
        }
    }

    private static void deleteAll(GeoClient client, List<AckedFiles.File> files, List<String> up) {
        int failed = 0;
        for (AckedFiles.File f : files) {
            try {
                client.delete(up.get((int) (f.index() % up.size())), f.name());
            } catch (IOException e) {
                failed++;
            }
        }
        System.out.printf("deleted the test's %d files from the cluster%s%n", files.size() - failed,
                failed == 0 ? "" : " (" + failed + " could not be deleted)");
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e.getMessage());
        }
    }
}
