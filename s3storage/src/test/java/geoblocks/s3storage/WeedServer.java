package geoblocks.s3storage;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A real S3 server for tests: SeaweedFS's {@code weed server -s3} on loopback ports in a temp
 * directory, with one identity (access key {@link #ACCESS_KEY}). The binary comes from
 * {@code scripts/install-seaweedfs.sh}, which builds it once per machine; when that fails the test
 * fails with the script's output (it never skips).
 */
public final class WeedServer implements AutoCloseable {
    public static final String ACCESS_KEY = "geoblocks-test";
    public static final String SECRET_KEY = "geoblocks-test-secret-key";
    private final Process process;
    private final Path log;
    public final URI endpoint;

    private WeedServer(Process process, Path log, URI endpoint) {
        this.process = process;
        this.log = log;
        this.endpoint = endpoint;
    }

    /** The weed binary, installed by the project's script if this machine lacks it. */
    static Path binary() throws IOException, InterruptedException {
        Path script = repoRoot().resolve("scripts/install-seaweedfs.sh");
        Path out = Files.createTempFile("install-seaweedfs", ".log");
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("scripts/install-seaweedfs.sh could not install SeaweedFS's weed, which the S3"
                    + " storage tests run against:\n" + Files.readString(out));
        }
        List<String> lines = Files.readAllLines(out);
        return Path.of(lines.get(lines.size() - 1).trim());
    }

    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/install-seaweedfs.sh"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("scripts/install-seaweedfs.sh not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** Starts weed in {@code dir} and waits until its S3 port answers a request. */
    public static WeedServer start(Path dir) throws IOException, InterruptedException {
        Path weed = binary();
        Path config = dir.resolve("s3.json");
        Files.writeString(config, "{\"identities\":[{\"name\":\"geoblocks\",\"credentials\":[{\"accessKey\":\"" + ACCESS_KEY
                + "\",\"secretKey\":\"" + SECRET_KEY + "\"}],\"actions\":[\"Admin\",\"Read\",\"Write\",\"List\",\"Tagging\"]}]}",
                StandardCharsets.UTF_8);
        int[] ports = freePorts(4);
        Path data = Files.createDirectories(dir.resolve("data"));
        Path log = dir.resolve("weed.log");
        Process p = new ProcessBuilder(weed.toString(), "server", "-dir=" + data, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                "-master.port=" + ports[0], "-volume.port=" + ports[1], "-filer.port=" + ports[2], "-s3", "-s3.port=" + ports[3],
                "-s3.config=" + config, "-master.volumeSizeLimitMB=64", "-volume.max=8")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        WeedServer w = new WeedServer(p, log, URI.create("http://127.0.0.1:" + ports[3]));
        w.awaitS3(ports[3]);
        return w;
    }

    private void awaitS3(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("weed exited with " + process.exitValue() + ":\n" + tail());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        close();
        throw new IllegalStateException("weed's S3 port " + port + " did not open within 90 s:\n" + tail());
    }

    public String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** Loopback ports free now, each with its gRPC twin (port + 10000) free too, as weed uses both. */
    static int[] freePorts(int n) throws IOException {
        int[] out = new int[n];
        Random r = new Random();
        int found = 0;
        while (found < n) {
            int p = 20000 + r.nextInt(20000);
            if (free(p) && free(p + 10000)) {
                out[found++] = p;
            }
        }
        return out;
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    S3StorageSettings settings(String bucket, String prefix) {
        return new S3StorageSettings(endpoint, bucket, prefix, "us-east-1", ACCESS_KEY, SECRET_KEY, 0);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
