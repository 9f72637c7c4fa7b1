package geoblocks.app;

import geoblocks.node.Ports;
import geoblocks.node.jvmcache.CacheKind;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes the node.jar processes an end-to-end test launches (nodes, and commands run as a user would)
 * start with less CPU, by setting {@link LocalCluster#LAUNCH_OPTIONS} for the test's JVM:
 * <ul>
 * <li>a class-data archive of node.jar ({@code target/node.jsa}: the classes a node loads until it
 * listens, already parsed and verified), made once per build of node.jar by starting one node with
 * {@code -XX:ArchiveClassesAtExit} and stopping it;</li>
 * <li>{@code -XX:TieredStopAtLevel=1}: C1 only. The nodes of a test live for seconds to a minute and
 * spend much of it starting; C2's compilations of four nodes, a test JVM and a client on two cores
 * cost more than the faster code they would bring.</li>
 * </ul>
 * What a node does is the same either way: these change only how the JVM loads and compiles the
 * program. Without {@code -Dgeoblocks.nodeJar} (the failsafe configuration sets it) it does nothing. Unlike
 * {@code node.jar train}'s cache (for users, made from a workload, see {@link geoblocks.node.jvmcache.JvmCaches}),
 * this archive holds only what a start loads, and is the tests' own; the options naming it keep a node from
 * taking a trained cache beside the jar as well ({@link CacheKind#chosenIn}).
 */
final class QuickLaunch implements BeforeAllCallback {
    /** How long the one node that makes the archive may take to listen. */
    private static final long TRAIN_TIMEOUT_S = 120;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String jar = System.getProperty("geoblocks.nodeJar");
        if (jar == null || System.getProperty(LocalCluster.LAUNCH_OPTIONS) != null) {
            return;
        }
        List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
        Path archive = archive(Path.of(jar));
        if (archive != null) {
            // a stale or unusable archive is ignored; the JVM would say so on stdout, where tests read what commands print
            options.addAll(CacheKind.CDS.useOptions(archive));
            options.addAll(List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        }
        System.setProperty(LocalCluster.LAUNCH_OPTIONS, String.join(" ", options));
    }

    /**
     * node.jar's archive, made when missing or older than the jar; null when it cannot be made. Test
     * JVMs that start together (failsafe runs two IT classes at once) take a file lock first: one
     * makes the archive, the other then finds it made.
     */
    private static synchronized Path archive(Path jar) throws IOException, InterruptedException {
        Path archive = jar.resolveSibling("node.jsa");
        if (archive.toString().matches(".*\\s.*")) {
            return null; // LAUNCH_OPTIONS is split at whitespace
        }
        try (FileChannel lock = FileChannel.open(jar.resolveSibling("node.jsa.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock held = lock.lock()) {
            return archiveLocked(jar, archive);
        }
    }

    private static Path archiveLocked(Path jar, Path archive) throws IOException, InterruptedException {
        if (Files.isRegularFile(archive)
                && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
            return archive;
        }
        Path dir = Files.createTempDirectory(jar.getParent(), "node-jsa-");
        Path dump = dir.resolve("node.jsa");
        Path conf = dir.resolve("cluster.conf");
        InetAddress lo = InetAddress.getLoopbackAddress();
        Files.writeString(conf, "geoblocks.cluster.regions = [\n"
                + "  { id = seoul, address = \"127.0.0.1:" + Ports.freePort(lo) + "\", http-port = " + Ports.freePort(lo) + " }\n"
                + "  { id = dublin, address = \"127.0.0.1:" + Ports.freePort(lo) + "\", http-port = " + Ports.freePort(lo) + " }\n"
                + "]\n");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", CacheKind.CDS.recordOptions(dump).get(0), "-jar", jar.toString(), "server", "--id", "seoul",
                "--config", conf.toString(), "--data", dir.resolve("data").toString()));
        Path log = dir.resolve("seoul.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TRAIN_TIMEOUT_S);
            while (!Files.readString(log).contains("listening on")) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    System.err.println("QuickLaunch: no class-data archive, the node did not start:\n" + Files.readString(log));
                    return null;
                }
                Thread.sleep(100);
            }
            p.destroy(); // SIGTERM: the JVM writes the archive as it exits
            if (!p.waitFor(60, TimeUnit.SECONDS) || !Files.isRegularFile(dump)) {
                System.err.println("QuickLaunch: no class-data archive was written:\n" + Files.readString(log));
                return null;
            }
        } finally {
            p.destroyForcibly();
        }
        Files.move(dump, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        return archive;
    }
}
