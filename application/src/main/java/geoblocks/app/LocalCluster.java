package geoblocks.app;

import geoblocks.network.session.NodeIdentity;
import geoblocks.node.Ports;
import geoblocks.node.admin.AdminTokens;
import geoblocks.node.http.HttpSettings;
import geoblocks.node.jvmcache.CacheChoice;
import geoblocks.node.jvmcache.CacheKind;
import geoblocks.node.jvmcache.JvmCaches;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of real node processes on loopback, one per region of SPEC.md, each started as
 * {@code server} from this same program (node.jar or the current class path), with free ports, a
 * generated config and its own data directory and log under {@code workDir}. For the demo, the
 * benchmark and end-to-end tests.
 */
public final class LocalCluster implements AutoCloseable {
    public static final List<String> REGIONS = List.of("seoul", "dublin", "saopaulo", "mumbai");

    private final Path workDir;
    private final Path configFile;
    private final List<String> jvmArgs;
    /** JVM options of one region's node besides jvmArgs (train's recording node). */
    private final Map<String, List<String>> regionJvmArgs;
    /** The class cache options every node starts with (empty: none), chosen once ({@link #chooseCache}). */
    private final List<String> cacheOptions;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Map<String, Integer> httpPorts;
    /** "listening on" lines in each node's log when it was last started (logs are appended to). */
    private final Map<String, Integer> listenCountAtStart = new LinkedHashMap<>();

    private LocalCluster(Path workDir, Path configFile, List<String> jvmArgs, Map<String, List<String>> regionJvmArgs,
            boolean jvmCache, Map<String, Integer> httpPorts) throws IOException {
        this.workDir = workDir;
        this.configFile = configFile;
        this.jvmArgs = jvmArgs;
        this.regionJvmArgs = regionJvmArgs;
        this.cacheOptions = jvmCache ? chooseCache(jvmArgs) : List.of();
        this.httpPorts = httpPorts;
    }

    /** Writes the config and starts every node; returns once each one listens. */
    public static LocalCluster start(Path workDir, boolean emulateWan, List<String> jvmArgs) throws IOException {
        return start(workDir, emulateWan, jvmArgs, "");
    }

    /** As above, with {@code extraConfig} (HOCON) appended to the generated cluster config. */
    public static LocalCluster start(Path workDir, boolean emulateWan, List<String> jvmArgs, String extraConfig)
            throws IOException {
        return start(workDir, emulateWan, jvmArgs, extraConfig, Map.of(), true);
    }

    /**
     * As above, a region's node given the JVM options {@code regionJvmArgs} names for it besides, and each node
     * started from the class cache {@code train} made for node.jar on this JVM when {@code jvmCache} and one
     * fits ({@link JvmCaches}; said on stdout, and on stderr why one there does not fit).
     */
    public static LocalCluster start(Path workDir, boolean emulateWan, List<String> jvmArgs, String extraConfig,
            Map<String, List<String>> regionJvmArgs, boolean jvmCache) throws IOException {
        List<String> fresh = REGIONS.stream().filter(r -> !Files.exists(workDir.resolve("data").resolve(r))).toList();
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(workDir, emulateWan, jvmArgs, extraConfig, regionJvmArgs, jvmCache);
            } catch (IOException e) {
                // the ports are chosen free, then bound by the nodes: another process (or a node's own
                // gateway endpoint) may take one in between; new ports, a fresh start
                if (attempt == 3 || !portTaken(e.getMessage())) {
                    throw e;
                }
                System.err.println("local cluster: a port was taken before its node bound it; starting again on new ports");
                for (String r : fresh) { // what this start made; data that was there before stays
                    deleteTree(workDir.resolve("data").resolve(r));
                }
            }
        }
    }

    /**
     * Whether a start failed because a port was taken: the JVM's words, or the node's own (it checks its ports
     * before binding and says "port P on IP is in use: ..." or "http-port P on IP is in use").
     */
    static boolean portTaken(String message) {
        return message != null && (message.contains("Address already in use") || message.contains(" is in use"));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static LocalCluster startOnce(Path workDir, boolean emulateWan, List<String> jvmArgs, String extraConfig,
            Map<String, List<String>> regionJvmArgs, boolean jvmCache) throws IOException {
        Files.createDirectories(workDir);
        InetAddress lo = InetAddress.getLoopbackAddress();
        StringBuilder conf = new StringBuilder("geoblocks.cluster {\n  emulate-wan = " + emulateWan + "\n  regions = [\n");
        List<Integer> used = new ArrayList<>();
        Map<String, Integer> httpPorts = new LinkedHashMap<>();
        for (String r : REGIONS) {
            int port = unusedPort(lo, used);
            int http = unusedPort(lo, used);
            httpPorts.put(r, http);
            // each node's key, made in its data directory before its first start and named in the config:
            // a connection that claims a node's address must prove its key (NodeIdentity)
            KeyPair key = NodeIdentity.loadOrCreate(
                    workDir.resolve("data").resolve(r).resolve("node.key"));
            conf.append("    { id = ").append(r).append(", address = \"").append(lo.getHostAddress())
                    .append(':').append(port).append("\", http-port = ").append(http).append(", key = \"")
                    .append(NodeIdentity.format(key.getPublic())).append("\" }\n");
        }
        conf.append("  ]\n}\n");
        // the admin API's root token and the dashboard's own credentials (not the S3 key): known, for the
        // demo's README and the tests
        conf.append("geoblocks.admin.token = \"").append(AdminTokens.DEMO_ROOT).append("\"\n");
        conf.append("geoblocks.http.dashboard.password = \"").append(HttpSettings.DEMO_DASHBOARD_PASSWORD)
                .append("\"\n").append(extraConfig).append('\n');
        Path cfg = workDir.resolve("cluster.conf");
        Files.writeString(cfg, conf);
        LocalCluster c = new LocalCluster(workDir, cfg, jvmArgs, regionJvmArgs, jvmCache, httpPorts);
        try {
            for (String r : REGIONS) {
                c.startNode(r);
            }
            for (String r : REGIONS) {
                c.awaitListening(r);
            }
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** A free port on {@code lo} not in {@code used} (the cluster's ports so far), added to it. */
    private static int unusedPort(InetAddress lo, List<Integer> used) {
        int port;
        do {
            port = Ports.freePort(lo);
        } while (used.contains(port));
        used.add(port);
        return port;
    }

    /** The port of {@code region}'s HTTP server (dashboard, /metrics) on loopback. */
    public int httpPort(String region) {
        Integer p = httpPorts.get(region);
        if (p == null) {
            throw new IllegalArgumentException("no region '" + region + "' in " + httpPorts.keySet());
        }
        return p;
    }

    public Path configFile() {
        return configFile;
    }

    public Path dataDir(String region) {
        return workDir.resolve("data").resolve(region);
    }

    public Path log(String region) {
        return workDir.resolve(region + ".log");
    }

    /** Starts (or restarts) one node process. */
    public void startNode(String region) throws IOException {
        startNode(region, List.of());
    }

    /** Starts (or restarts) one node process with extra JVM arguments (e.g. -Dgeoblocks.node.x=y). */
    public void startNode(String region, List<String> extraJvmArgs) throws IOException {
        startNode(region, extraJvmArgs, List.of());
    }

    /** As above, with extra arguments of {@code server} (e.g. a second {@code --data}). */
    public void startNode(String region, List<String> extraJvmArgs, List<String> serverArgs) throws IOException {
        listenCountAtStart.put(region, countListening(region));
        List<String> args = new ArrayList<>(List.of("-XX:+ExitOnOutOfMemoryError")); // die, don't limp
        args.addAll(jvmArgs);
        List<String> own = new ArrayList<>(regionJvmArgs.getOrDefault(region, List.of()));
        own.addAll(extraJvmArgs);
        if (!CacheKind.chosenIn(own)) {
            args.addAll(cacheOptions);
        }
        args.addAll(own);
        List<String> cmd = new ArrayList<>(launcher(args));
        cmd.addAll(List.of("server", "--id", region, "--config", configFile.toString(),
                "--data", dataDir(region).toString()));
        cmd.addAll(serverArgs);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(region).toFile())).start();
        processes.put(region, p);
    }

    /**
     * The options that start a node from node.jar's class cache on this JVM ({@link JvmCaches}), or none: when
     * this program runs from classes, the launch options or {@code jvmArgs} choose a cache already, or none fits
     * (a warning says why when one is there).
     */
    private static List<String> chooseCache(List<String> jvmArgs) throws IOException {
        Path jar = nodeJar();
        List<String> given = new ArrayList<>(launchOptions());
        given.addAll(jvmArgs);
        if (jar == null || CacheKind.chosenIn(given)) {
            return List.of();
        }
        CacheChoice.Choice choice = JvmCaches.choose(jar);
        if (choice instanceof CacheChoice.Use use) {
            System.out.println("local cluster: nodes start from the " + use.stamp().kind().label() + " " + use.cache()
                    + " (made " + use.stamp().made() + ")");
            return use.options();
        }
        if (choice instanceof CacheChoice.PassOver p) {
            System.err.println("warning: local cluster: nodes start cold, not from " + p.cache() + ": " + p.why()
                    + "; java -jar node.jar train makes a new one");
        }
        return List.of();
    }

    /** node.jar, when this program runs from it (or {@code geoblocks.nodeJar} names it); null when it runs from classes. */
    public static Path nodeJar() {
        String jar = System.getProperty("geoblocks.nodeJar");
        if (jar != null) {
            return Path.of(jar).toAbsolutePath();
        }
        String cp = System.getProperty("java.class.path");
        return cp.endsWith(".jar") && !cp.contains(File.pathSeparator) && cp.contains("node") ? Path.of(cp).toAbsolutePath()
                : null;
    }

    /**
     * Stops one node (SIGTERM) and waits up to {@code timeoutS} for its JVM to exit (a JVM writing a class
     * cache as it exits takes seconds); returns its exit code, or -1 when it was killed after the wait.
     */
    public int stop(String region, long timeoutS) throws InterruptedException {
        Process p = processes.get(region);
        p.destroy();
        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            return -1;
        }
        return p.exitValue();
    }

    /** Waits until the node's log says it listens, or fails with the log's tail. */
    public void awaitListening(String region) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Process p = processes.get(region);
        while (System.nanoTime() < deadline) {
            if (countListening(region) > listenCountAtStart.getOrDefault(region, 0)) {
                return;
            }
            if (!p.isAlive()) {
                throw new IOException("node " + region + " exited with " + p.exitValue() + ":\n" + tail(region));
            }
            sleep(100);
        }
        throw new IOException("node " + region + " did not start listening within 60 s:\n" + tail(region));
    }

    private int countListening(String region) throws IOException {
        if (!Files.exists(log(region))) {
            return 0;
        }
        return (int) Files.readAllLines(log(region)).stream().filter(l -> l.contains("listening on")).count();
    }

    /** The operating-system pid of a running node's process. */
    public long pid(String region) {
        Process p = processes.get(region);
        if (p == null) {
            throw new IllegalArgumentException("no node '" + region + "' started");
        }
        return p.pid();
    }

    /** SIGKILLs one node (no shutdown hooks run), as a crash would. */
    public void kill(String region) throws IOException {
        Process p = processes.get(region);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Freezes one node (SIGSTOP): its sockets stay open, it answers nothing until {@link #resume}. */
    public void pause(String region) throws IOException {
        signal(region, "STOP");
    }

    /** Lets a node frozen by {@link #pause} run again (SIGCONT). */
    public void resume(String region) throws IOException {
        signal(region, "CONT");
    }

    private void signal(String region, String sig) throws IOException {
        Process kill = new ProcessBuilder("kill", "-" + sig, String.valueOf(processes.get(region).pid())).start();
        try {
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IOException("kill -" + sig + " of node " + region + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    public String tail(String region) {
        try {
            List<String> lines = Files.exists(log(region)) ? Files.readAllLines(log(region)) : List.of();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * JVM options added to every process this program launches (nodes and commands), from the system
     * property {@value #LAUNCH_OPTIONS}, separated by whitespace; the end-to-end tests start their
     * many short-lived node processes faster with it (a class-data archive, C1 only).
     */
    public static final String LAUNCH_OPTIONS = "geoblocks.launch.jvm-options";

    /** The options of {@value #LAUNCH_OPTIONS}, split at whitespace. */
    private static List<String> launchOptions() {
        String options = System.getProperty(LAUNCH_OPTIONS, "").strip();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    /** How to run this program again: {@code java -jar node.jar} or {@code java -cp CP Main}. */
    static List<String> launcher(List<String> jvmArgs) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(launchOptions());
        Path jar = nodeJar();
        if (jar == null) { // node.jar's manifest opens it; an option here too would keep a JVM from an AOT cache made without it
            cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED"); // NettyMemory
        }
        cmd.addAll(jvmArgs);
        if (jar != null) {
            cmd.addAll(List.of("-jar", jar.toString())); // absolute: a class cache names the jar as it was given
        } else {
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        }
        return cmd;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        for (Process p : processes.values()) {
            p.destroy();
        }
        for (Process p : processes.values()) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
