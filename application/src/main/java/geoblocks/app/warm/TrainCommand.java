package geoblocks.app.warm;

import geoblocks.app.LocalCluster;
import geoblocks.app.bench.S3BenchClient;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.cli.Cluster;
import geoblocks.node.jvmcache.CacheKind;
import geoblocks.node.jvmcache.CacheStamp;
import geoblocks.node.jvmcache.JvmCaches;
import geoblocks.node.jvmcache.JvmId;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code train}: makes node.jar's class cache for the JVM that runs it. Starts a local 4-node cluster whose
 * seoul node records (JVM options at its launch: {@link CacheKind#recordOptions}), sends it a short
 * representative workload ({@link TrainingWorkload}), stops it so that its JVM writes the cache as it
 * exits, and keeps the cache beside node.jar (or in {@code --out}) with a {@link CacheStamp} naming the
 * jar and JVM. Nodes this program launches (demo, bench) then start from it; a hand-started server is
 * given the option this command prints.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = {"Make node.jar's class cache for this JVM from a short training run on a local 4-node cluster:"
                + " an AOT cache on Java 25+ (JEP 483/514/515), a dynamic CDS archive on Java 17-24.",
                "Nodes started from it start and warm up faster. The demo and bench use it when it fits this jar and JVM;"
                        + " a server is given the JVM option printed at the end."})
public final class TrainCommand implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "DIR",
            description = "Directory for the cache (default: -D" + JvmCaches.DIR_PROPERTY + ", else node.jar's directory).")
    Path out;

    @Option(names = "--requests", defaultValue = "2000", paramLabel = "N",
            description = "S3 PUTs (each read back) in the training run; a quarter as many file-protocol puts and gets"
                    + " (default: ${DEFAULT-VALUE}).")
    int requests;

    @Option(names = "--keep", description = "Keep the training cluster's work directory (logs) instead of deleting it.")
    boolean keep;

    /** The region whose node records the cache. */
    static final String RECORDER = "seoul";
    /** How long the recording JVM may take to exit: it writes the cache (on 25 a child JVM assembles it). */
    static final long WRITE_TIMEOUT_S = 300;

    @Override
    public Integer call() throws Exception {
        if (requests < 4) {
            throw new IllegalArgumentException("--requests must be at least 4, was " + requests);
        }
        Path jar = LocalCluster.nodeJar();
        if (jar == null) {
            throw new IllegalStateException("train makes a cache for a jar; run it as java -jar node.jar train");
        }
        int feature = JvmCaches.feature();
        CacheKind kind = CacheKind.forFeature(feature);
        Path dir = outDir(jar);
        Path cache = dir.resolve(kind.fileName(jar.getFileName().toString(), feature));
        Path partial = dir.resolve(cache.getFileName() + ".part");
        Files.deleteIfExists(partial);
        JvmId jvm = JvmId.current();
        System.out.printf("train: making the %s of %s for %s, into %s%n", kind.label(), jar, jvm.describe(), cache);
        long t0 = System.nanoTime();
        Path work = Files.createTempDirectory("geoblocks-train-");
        try {
            run(work, kind, partial, t0);
            if (!Files.isRegularFile(partial) || Files.size(partial) == 0) {
                throw new IllegalStateException("train: " + RECORDER + "'s JVM wrote no " + kind.label() + " to " + partial
                        + "; its log (" + work.resolve(RECORDER + ".log") + "):\n" + tail(work.resolve(RECORDER + ".log")));
            }
            Files.move(partial, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            JvmCaches.writeStamp(cache, new CacheStamp(kind, JvmCaches.jarId(jar), jvm, Instant.now()));
        } finally {
            Files.deleteIfExists(partial);
            if (!keep) {
                Cluster.deleteTree(work);
            } else {
                System.out.println("train: work directory kept: " + work);
            }
        }
        System.out.printf("train: wrote %s (%.1f MiB) in %.0f s%n", cache, Files.size(cache) / 1048576.0, secondsSince(t0));
        System.out.println("train: demo and bench nodes start from it while it fits this jar and JVM; start a server from it with");
        System.out.println("  " + JvmId.current().home() + "/bin/java " + String.join(" ", kind.useOptions(cache)) + " -jar " + jar
                + " server --id REGION ...");
        return 0;
    }

    /** --out, else the default cache directory; made if missing; an error naming it when it cannot be written. */
    private Path outDir(Path jar) {
        Path dir = out != null ? out.toAbsolutePath() : JvmCaches.dir(jar);
        if (dir == null) {
            throw new IllegalArgumentException("-D" + JvmCaches.DIR_PROPERTY + "=off turns caches off: give --out DIR");
        }
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".train-probe-", ".tmp"));
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException("cannot write the cache into " + dir + ": " + describe(e)
                    + " (give --out DIR, a directory you can write)");
        }
        return dir;
    }

    private static String describe(Exception e) {
        String name = e.getClass().getSimpleName();
        return switch (name) {
            case "AccessDeniedException" -> "permission denied";
            case "FileSystemException" -> e.getMessage();
            case "NotDirectoryException", "FileAlreadyExistsException" -> "not a directory (" + e.getMessage() + ")";
            default -> name + ": " + e.getMessage();
        };
    }

    private void run(Path work, CacheKind kind, Path partial, long t0) throws Exception {
        System.out.printf("train: [1/4] starting 4 nodes on loopback; %s records its %s%n", RECORDER, kind.label());
        try (LocalCluster cluster = LocalCluster.start(work, false, List.of("-Xmx256m"), "",
                Map.of(RECORDER, kind.recordOptions(partial)), false);
                GeoClient client = GeoClient.start(AppConfig.load(cluster.configFile()), 20_000)) {
            Cluster.awaitAllUp(client, LocalCluster.REGIONS, 60_000);
            List<URI> endpoints = new ArrayList<>();
            for (String r : LocalCluster.REGIONS) {
                endpoints.add(URI.create("http://127.0.0.1:" + cluster.httpPort(r)));
            }
            awaitBucket(endpoints.get(0));
            System.out.printf("train:       up after %.1f s%n", secondsSince(t0));
            TrainingWorkload load = new TrainingWorkload(LocalCluster.REGIONS);
            int files = Math.max(1, requests / 4);
            System.out.printf("train: [2/4] file protocol: %d puts under every policy at every region, each read back%n", files);
            long bytes = load.fileProtocol(client, files);
            System.out.printf("train:       done after %.1f s (%.1f MiB read)%n", secondsSince(t0), bytes / 1048576.0);
            System.out.printf("train: [3/4] S3 gateway: %d PUTs, each read back, on %d connections%n", requests,
                    TrainingWorkload.S3_THREADS);
            long s3 = load.s3(endpoints, ACCESS_KEY, SECRET_KEY, requests);
            System.out.printf("train:       done after %.1f s (%d requests)%n", secondsSince(t0), s3);
            System.out.printf("train: [4/4] stopping %s: its JVM writes the %s as it exits%s%n", RECORDER, kind.label(),
                    kind == CacheKind.AOT ? " (a child JVM assembles it: some seconds)" : "");
            int code = cluster.stop(RECORDER, WRITE_TIMEOUT_S);
            System.out.printf("train:       %s exited (%d) after %.1f s%n", RECORDER, code, secondsSince(t0));
        }
    }

    /** The demo credentials every local cluster's S3 gateway takes (reference.conf). */
    static final String ACCESS_KEY = "geoblocks-demo";
    static final String SECRET_KEY = "geoblocks-local-demo-secret";

    /** Creates the training bucket, retried while the owner region cannot decide creates yet (just started). */
    private static void awaitBucket(URI endpoint) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        try (S3BenchClient c = new S3BenchClient(endpoint, ACCESS_KEY, SECRET_KEY, "us-east-1", false)) {
            while (true) {
                try {
                    c.createBucket(TrainingWorkload.BUCKET);
                    return;
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IOException("train: the bucket could not be made within 120 s: " + e.getMessage());
                    }
                    Thread.sleep(200);
                }
            }
        }
    }

    private static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
