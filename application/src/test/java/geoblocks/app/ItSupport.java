package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Helpers the end-to-end tests against a LocalCluster share. */
final class ItSupport {
    private ItSupport() {}

    /**
     * The end-to-end tests' fixture: four node processes on loopback (a {@link LocalCluster}, 256 MiB
     * heap each) and one {@link GeoClient} on them. Started in {@code @BeforeAll}, closed in
     * {@code @AfterAll}; a start that fails part way closes what it started.
     */
    record Nodes(LocalCluster cluster, AppConfig config, GeoClient client) implements AutoCloseable {
        /**
         * Starts the nodes in {@code dir} (emulated WAN when {@code wan}, {@code extraConfig} appended to
         * their config) and a client whose requests time out after {@code timeoutMs}.
         */
        static Nodes start(Path dir, boolean wan, String extraConfig, long timeoutMs) throws IOException {
            LocalCluster cluster = LocalCluster.start(dir, wan, List.of("-Xmx256m"), extraConfig);
            try {
                AppConfig config = AppConfig.load(cluster.configFile());
                return new Nodes(cluster, config, GeoClient.start(config, timeoutMs));
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }

        /**
         * As {@link #start}, then waits up to {@code upSeconds} until every node measures every peer, and
         * as long again until every node's {@code /readyz} says ready.
         */
        static Nodes startAllUp(Path dir, boolean wan, String extraConfig, long timeoutMs, int upSeconds)
                throws IOException, InterruptedException {
            Nodes n = start(dir, wan, extraConfig, timeoutMs);
            try {
                awaitAllUp(n.client, upSeconds);
                awaitReady(n.cluster, upSeconds);
            } catch (InterruptedException | RuntimeException | Error e) {
                n.close();
                throw e;
            }
            return n;
        }

        /** Closes the client, then stops the nodes. */
        @Override
        public void close() {
            try {
                client.close();
            } finally {
                cluster.close();
            }
        }
    }

    /** One sample of a region's /metrics, by its name and labels as printed; NaN when the node does not show it. */
    static double metric(LocalCluster cluster, String region, String sample) throws IOException, InterruptedException {
        HttpResponse<String> res = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.httpPort(region)
                        + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        return res.body().lines().filter(l -> l.startsWith(sample + " ")).mapToDouble(l -> Double.parseDouble(
                l.substring(sample.length() + 1).trim())).findFirst().orElse(Double.NaN);
    }

    /** Polls {@code done} until it holds; fails the test after {@code seconds}. */
    static void await(int seconds, String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting for: " + what);
            Thread.sleep(200);
        }
    }

    /** Waits until every region's node measures an RTT to every peer. */
    static void awaitAllUp(GeoClient client, int seconds) throws InterruptedException {
        await(seconds, "all peers up", () -> LocalCluster.REGIONS.stream().allMatch(r -> {
            try {
                return client.status(r).peers().stream().allMatch(p -> p.rttMs() >= 0);
            } catch (IOException e) {
                return false;
            }
        }));
    }

    /**
     * Waits until every region's {@code /readyz} answers 200: peers settled and creates decidable (a
     * node that started with no manifests decides creates only after comparing with every region up).
     */
    static void awaitReady(LocalCluster cluster, int seconds) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        await(seconds, "every region ready (/readyz)", () -> LocalCluster.REGIONS.stream().allMatch(r -> {
            try {
                return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + cluster.httpPort(r) + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }));
    }

    /** What a command printed (stdout and stderr together) and its exit code; -1 when it timed out. */
    record Run(int code, String out) {}

    /** Runs {@code cmd} in {@code dir} with {@code env} added, killed after {@code timeoutS} s. */
    static Run run(List<String> cmd, Path dir, Map<String, String> env, int timeoutS) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.append("(output lost: ").append(e).append(')');
            }
        });
        reader.start();
        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            reader.join(5000);
            return new Run(-1, out + "\n(timed out after " + timeoutS + " s)");
        }
        reader.join(5000);
        return new Run(p.exitValue(), out.toString());
    }

    /** A file of {@code size} seeded random bytes in {@code dir}. */
    static Path randomFile(Path dir, String name, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Path p = dir.resolve(name);
        Files.write(p, data);
        return p;
    }
}
