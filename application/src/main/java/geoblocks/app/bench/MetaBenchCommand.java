package geoblocks.app.bench;

import com.sun.management.OperatingSystemMXBean;
import geoblocks.app.LocalCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench meta}: fills N small objects through the S3 gateway of a local 4-node cluster (or
 * any S3 endpoint, for a side-by-side run with the same client) and prints what a big bucket costs:
 * PUT/s and GET/s, heap after a full GC and RSS per node, files on disk, idle CPU, restart to
 * listening, the first ListObjectsV2 page at a prefix, and how long a node that missed the last
 * part of the writes takes to catch up by anti-entropy. Prints figures; never fails on timing.
 */
@Command(name = "meta", mixinStandardHelpOptions = true,
        description = "Fill N small objects through S3 and measure metadata costs (rates, heap, RSS, files, idle CPU,"
                + " restart, listing, anti-entropy catch-up).")
public final class MetaBenchCommand implements Callable<Integer> {
    @Option(names = "--objects", defaultValue = "20000", description = "Objects to put (default: ${DEFAULT-VALUE}).")
    int objects;

    @Option(names = "--size", defaultValue = "1024", description = "Bytes per object (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--threads", defaultValue = "16", description = "Concurrent S3 requests (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--heap", defaultValue = "256m", description = "Each node's -Xmx (default: ${DEFAULT-VALUE}).")
    String heap;

    @Option(names = "--meta-loss", defaultValue = "true", negatable = true,
            description = "At the end, wipe dublin's metadata directory (its blocks stay) and time its rebuild from its peers"
                    + " (default: ${DEFAULT-VALUE}; --no-meta-loss skips it).")
    boolean metaLoss;

    @Option(names = "--missed", defaultValue = "0.1",
            description = "Fraction of the writes mumbai misses (stopped), to time its anti-entropy catch-up (default: ${DEFAULT-VALUE}).")
    double missed;

    @Option(names = "--gets", defaultValue = "2000", description = "GETs of objects picked at random (seeded) among those put; more GETs than objects repeat some (default: ${DEFAULT-VALUE}).")
    int gets;

    @Option(names = "--idle-seconds", defaultValue = "10", description = "Idle CPU sampling window (default: ${DEFAULT-VALUE}).")
    int idleSeconds;

    @Option(names = "--work-dir", description = "Where data and logs go (default: a temp dir, deleted after).")
    Path workDir;

    @Option(names = "--endpoint", description = "Measure another S3 endpoint instead (puts, gets and listing only), e.g. http://127.0.0.1:39020")
    URI endpoint;

    @Option(names = "--access-key", defaultValue = "geoblocks-demo", description = "Access key (default: ${DEFAULT-VALUE}).")
    String accessKey;

    @Option(names = "--secret-key", defaultValue = "geoblocks-local-demo-secret", description = "Secret key.")
    String secretKey;

    @Option(names = "--region", defaultValue = "us-east-1", description = "Signing region (default: ${DEFAULT-VALUE}).")
    String region;

    @Option(names = "--client", defaultValue = "lean",
            description = "HTTP client: lean (one blocking keep-alive connection per thread) or jdk (java.net.http.HttpClient,"
                    + " about 0.5 ms of CPU per small request; always used for https) (default: ${DEFAULT-VALUE}).")
    String client;

    @Option(names = "--bucket", defaultValue = "bench", description = "Bucket (default: ${DEFAULT-VALUE}).")
    String bucket;

    private static final String AT = "seoul";
    private static final String MISSER = "mumbai";

    @Option(names = "--warmup", defaultValue = "30000",
            description = "Puts and gets of other keys (warm/...) before anything is timed, so the figures are the warm"
                    + " JIT's, as for a node that has been running (default: ${DEFAULT-VALUE}; with 3,000 or 10,000"
                    + " the nodes still compiled through the timed puts; 0: none).")
    int warmup;

    static String key(int i) {
        return key("obj/", i);
    }

    static String key(String prefix, int i) {
        return String.format("%s%08d", prefix, i);
    }

    private static final String WARM = "warm/";

    /** Puts {@code warmup} objects under warm/ and reads them back, untimed (printed as such). */
    private void warmUp(S3BenchClient c) throws Exception {
        if (warmup <= 0) {
            return;
        }
        Rate w = fill(c, WARM, 0, warmup);
        Rate r = read(c, WARM, warmup, warmup);
        System.out.printf("warm-up (not counted): %d puts at %.0f/s, %d gets at %.0f/s%n", warmup, w.perSecond(),
                warmup, r.perSecond());
    }

    private boolean jdkClient() {
        return switch (client) {
            case "lean" -> false;
            case "jdk" -> true;
            default -> throw new IllegalArgumentException("--client must be lean or jdk, was '" + client + "'");
        };
    }

    @Override
    public Integer call() throws Exception {
        if (objects < 1 || size < 0 || threads < 1 || missed < 0 || missed >= 1) {
            throw new IllegalArgumentException("need --objects >= 1, --size >= 0, --threads >= 1, 0 <= --missed < 1");
        }
        if (endpoint != null) {
            try (S3BenchClient c = new S3BenchClient(endpoint, accessKey, secretKey, region, jdkClient())) {
                System.out.println("client: " + c.transport() + ", " + threads + " threads");
                c.createBucket(bucket);
                warmUp(c);
                Rate put = fill(c, 0, objects);
                System.out.printf("PUT %d x %d B: %.0f/s (%d failed)%s%n", objects, size, put.perSecond(), put.failed(),
                        put.clientCpu());
                reportReads(c);
                return 0;
            }
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("geoblocks-bench-meta");
        System.out.printf("starting 4 nodes at -Xmx%s in %s%n", heap, dir);
        long started = System.nanoTime();
        try (LocalCluster cluster = LocalCluster.start(dir, false, List.of("-Xmx" + heap))) {
            double listening = (System.nanoTime() - started) / 1e9;
            URI s3 = URI.create("http://127.0.0.1:" + cluster.httpPort(AT));
            S3BenchClient c = new S3BenchClient(s3, accessKey, secretKey, region, jdkClient());
            System.out.println("client: " + c.transport() + ", " + threads + " threads");
            awaitTrue(120, "CreateBucket to succeed at " + AT, () -> {
                c.createBucket(bucket);
                return true;
            });
            System.out.printf("start-up: 4 nodes listening after %.1f s, CreateBucket at %s answered after %.1f s%n", listening,
                    AT, (System.nanoTime() - started) / 1e9);
            warmUp(c);
            int first = (int) Math.round(objects * (1 - missed));
            Rate put = fill(c, 0, first);
            System.out.printf("PUT %d x %d B, 4 nodes up: %.0f/s (%d failed)%s%n", first, size, put.perSecond(), put.failed(),
                    put.clientCpu());
            if (first < objects) {
                cluster.kill(MISSER);
                awaitTrue(60, AT + " to see " + MISSER + " down", () -> metric(cluster, AT, "geoblocks_peer_up", MISSER) == 0);
                Rate rest = fill(c, first, objects);
                System.out.printf("PUT %d x %d B, %s down: %.0f/s (%d failed)%n", objects - first, size, MISSER,
                        rest.perSecond(), rest.failed());
                long t0 = System.nanoTime();
                cluster.startNode(MISSER);
                cluster.awaitListening(MISSER);
                double listen = (System.nanoTime() - t0) / 1e9;
                double seoulFiles = metric(cluster, AT, "geoblocks_files", null);
                awaitTrue(1800, MISSER + " to catch up", () -> metric(cluster, MISSER, "geoblocks_files", null) >= seoulFiles);
                System.out.printf("%s missed %d writes: restart to listening %.1f s, caught up by anti-entropy %.1f s after start%n",
                        MISSER, objects - first, listen, (System.nanoTime() - t0) / 1e9);
            }
            reportReads(c);
            System.out.printf("%nsettling %d s, then sampling idle CPU for %d s%n", 5, idleSeconds);
            Thread.sleep(5_000);
            System.out.printf("%-9s %12s %10s %10s %12s %12s%n", "NODE", "FILES", "HEAP MiB", "RSS MiB", "IDLE CPU %", "META MiB");
            for (String r : LocalCluster.REGIONS) {
                long pid = cluster.pid(r);
                double cpu = idleCpu(pid, idleSeconds);
                double heapMiB = heapAfterFullGc(pid);
                System.out.printf("%-9s %12d %10.1f %10.1f %12.1f %12.1f%n", r, files(cluster.dataDir(r)), heapMiB,
                        rssMiB(pid), cpu, bytesUnder(cluster.dataDir(r).resolve("meta")) / 1048576.0);
            }
            cluster.kill(AT);
            long t0 = System.nanoTime();
            cluster.startNode(AT);
            cluster.awaitListening(AT);
            double listen = (System.nanoTime() - t0) / 1e9;
            awaitTrue(120, AT + " to serve a GET", () -> c.get(bucket, key(0)).length == size);
            System.out.printf("%nrestart of %s with %d objects: listening after %.1f s, serving GETs after %.1f s%n", AT,
                    objects + Math.max(0, warmup), listen, (System.nanoTime() - t0) / 1e9);
            if (metaLoss) {
                metadataLoss(cluster);
            }
            return 0;
        } finally {
            if (workDir == null) {
                deleteTree(dir);
            }
        }
    }

    /** The region whose metadata directory {@code --meta-loss} wipes. */
    static final String WIPED = "dublin";

    /**
     * Issue 44's aim: a node whose metadata directory is lost (its blocks stay) back in service. Stops {@link #WIPED},
     * deletes its {@code meta/}, starts it, and times listening and the rebuild of its manifests from its peers
     * (anti-entropy) until it knows as many files as {@code AT}.
     */
    private void metadataLoss(LocalCluster cluster) throws Exception {
        awaitTrue(120, WIPED + " to know every file", () -> metric(cluster, WIPED, "geoblocks_files", null)
                >= metric(cluster, AT, "geoblocks_files", null));
        double files = metric(cluster, AT, "geoblocks_files", null);
        cluster.kill(WIPED);
        Path meta = cluster.dataDir(WIPED).resolve("meta");
        long metaBytes = bytesUnder(meta);
        deleteTree(meta);
        long t0 = System.nanoTime();
        cluster.startNode(WIPED);
        cluster.awaitListening(WIPED);
        double listen = (System.nanoTime() - t0) / 1e9;
        long[] last = {System.nanoTime(), 0};
        awaitTrue(1800, WIPED + " to rebuild its manifests", () -> {
            double now = metric(cluster, WIPED, "geoblocks_files", null);
            if (System.nanoTime() - last[0] > 10_000_000_000L) {
                System.out.printf("  %s rebuilding: %.0f of %.0f files after %.0f s%n", WIPED, now, files,
                        (System.nanoTime() - t0) / 1e9);
                last[0] = System.nanoTime();
            }
            return now >= files;
        });
        System.out.printf("%nmetadata loss at %s (%.1f MiB of meta/ wiped, blocks kept), %.0f files: listening after %.1f s,"
                + " every manifest back from its peers %.1f s after start%n", WIPED, metaBytes / 1048576.0, files, listen,
                (System.nanoTime() - t0) / 1e9);
    }

    private void reportReads(S3BenchClient c) throws Exception {
        Rate get = read(c);
        System.out.printf("GET %d: %.0f/s (%d failed)%s%n", gets, get.perSecond(), get.failed(), get.clientCpu());
        double[] ms = new double[5];
        int keys = 0;
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            keys = c.listFirstPage(bucket, "obj/", 1000);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf("ListObjectsV2 first page at prefix obj/ (%d keys): median %.1f ms, min %.1f ms of 5%n", keys,
                ms[2], ms[0]);
    }

    /** {@code cpuNanos}: this process's CPU time over the phase (the client's cost, to tell whether it was the limit). */
    record Rate(int done, int failed, double seconds, long cpuNanos) {
        double perSecond() {
            return done / seconds;
        }

        String clientCpu() {
            return cpuNanos < 0 || done == 0 ? "" : String.format(", client CPU %.2f ms per request, %.0f %% of a core",
                    cpuNanos / 1e6 / done, cpuNanos / 1e7 / seconds);
        }
    }

    /** This process's CPU time so far, or -1 where the JVM does not tell. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean()
                instanceof OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
    }

    private Rate fill(S3BenchClient c, int from, int to) throws Exception {
        return fill(c, "obj/", from, to);
    }

    private Rate fill(S3BenchClient c, String prefix, int from, int to) throws Exception {
        byte[] body = new byte[size];
        new Random(7).nextBytes(body);
        AtomicInteger next = new AtomicInteger(from);
        AtomicInteger failed = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        String firstError[] = {null};
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            fs.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < to; i = next.getAndIncrement()) {
                    try {
                        c.put(bucket, key(prefix, i), body);
                    } catch (IOException e) {
                        if (failed.getAndIncrement() == 0) {
                            firstError[0] = e.getMessage();
                        }
                    }
                    done.incrementAndGet();
                }
                return null;
            }));
        }
        long lastPrint = t0;
        while (fs.stream().anyMatch(f -> !f.isDone())) {
            Thread.sleep(200);
            long now = System.nanoTime();
            if (now - lastPrint > 10_000_000_000L) {
                lastPrint = now;
                System.out.printf("  put %d/%d, %.0f/s%n", from + done.get(), to, done.get() / ((now - t0) / 1e9));
            }
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        if (firstError[0] != null) {
            System.out.println("  first failure: " + firstError[0]);
        }
        return new Rate(to - from, failed.get(), (System.nanoTime() - t0) / 1e9, cpu0 < 0 ? -1 : processCpuNanos() - cpu0);
    }

    private Rate read(S3BenchClient c) throws Exception {
        return read(c, "obj/", gets, objects);
    }

    /** {@code n} gets of keys picked at random (seeded) among the first {@code of} under {@code prefix}. */
    private Rate read(S3BenchClient c, String prefix, int n, int of) throws Exception {
        List<Integer> picks = new ArrayList<>();
        Random rnd = new Random(11);
        for (int i = 0; i < n; i++) {
            picks.add(rnd.nextInt(of));
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            fs.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    try {
                        if (c.get(bucket, key(prefix, picks.get(i))).length != size) {
                            failed.incrementAndGet();
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        return new Rate(n, failed.get(), (System.nanoTime() - t0) / 1e9, cpu0 < 0 ? -1 : processCpuNanos() - cpu0);
    }

    interface Check {
        boolean ok() throws Exception;
    }

    private static void awaitTrue(int seconds, String what, Check check) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(250);
        }
        throw new IOException("timed out after " + seconds + " s waiting for " + what
                + (last == null ? "" : " (last error: " + last.getMessage() + ")"));
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A gauge from the node's /metrics, summed over series (only those with peer=... when {@code peer} is set). */
    static double metric(LocalCluster cluster, String region, String name, String peer) throws Exception {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.httpPort(region) + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        return parseMetric(text, name, peer);
    }

    static double parseMetric(String text, String name, String peer) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (!line.startsWith(name + " ") && !line.startsWith(name + "{")) {
                continue;
            }
            if (peer != null && !line.contains("peer=\"" + peer + "\"")) {
                continue;
            }
            sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            found = true;
        }
        if (!found) {
            throw new IllegalStateException("no " + name + (peer == null ? "" : " for " + peer) + " in /metrics");
        }
        return sum;
    }

    /** Percent of one core the process used over {@code seconds}, from /proc/PID/stat (utime + stime). */
    static double idleCpu(long pid, int seconds) throws Exception {
        long a = cpuTicks(pid);
        Thread.sleep(seconds * 1000L);
        long b = cpuTicks(pid);
        return 100.0 * (b - a) / 100.0 / seconds; // USER_HZ is 100 on Linux
    }

    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static final Pattern USED = Pattern.compile("used (\\d+)K");

    /** Heap in use after {@code jcmd PID GC.run} (a full collection), from {@code GC.heap_info}. */
    static double heapAfterFullGc(long pid) throws Exception {
        run("jcmd", String.valueOf(pid), "GC.run");
        Matcher m = USED.matcher(run("jcmd", String.valueOf(pid), "GC.heap_info"));
        return m.find() ? Long.parseLong(m.group(1)) / 1024.0 : Double.NaN;
    }

    static double rssMiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return Double.NaN;
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    static long files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    static long bytesUnder(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
