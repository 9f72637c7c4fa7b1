package geoblocks.app.bench;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.node.GeoClient;
import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.databridge.DataBridgeResult;
import geoblocks.sim.databridge.HomeCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The two uploads of one size in {@code bench databridge --via http}: a real S3 PutObject with curl
 * (Signature V4, {@code Expect: 100-continue}) sent to the home node's S3 gateway through a
 * {@link WanRelay} (the emulated WAN between the client's region and home):
 * <ul>
 *   <li>direct: no client region, so the home node stores the object itself (bucket policy, ack
 *       all) and answers when it is durable there: the client waits until the object is home;</li>
 *   <li>redirected: {@code X-Geoblocks-Client-Region: NEAR}, so the home node answers 307 before the
 *       body and curl ({@code -L --location-trusted}, signing again) sends the PUT to the near node
 *       on the LAN, which stores it with ack local and moves it home in the background; home when a
 *       {@code stat} at the home node (polled every {@link #POLL_MS} ms) shows every block there only.</li>
 * </ul>
 * Times run from starting curl (so they include starting the curl process).
 */
final class DataBridgeHttpUpload implements DataBridgeBenchCommand.Uploads {
    static final long POLL_MS = 100;
    static final String BUCKET = "databridge";

    private final GeoClient client;
    private final DataBridgePlan plan;
    private final int relayPort;
    private final String accessKey;
    private final String secretKey;
    private final long timeoutS;

    DataBridgeHttpUpload(GeoClient client, DataBridgePlan plan, int relayPort, String accessKey, String secretKey,
            long timeoutS) {
        this.client = client;
        this.plan = plan;
        this.relayPort = relayPort;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.timeoutS = timeoutS;
    }

    /**
     * Creates the bench's bucket with its home at the plan's home region, at the home node's own port
     * (untimed), trying again for up to a minute while the gateway answers 503 (not ready).
     */
    static void createBucket(int homeHttpPort, DataBridgePlan plan, String accessKey, String secretKey) throws IOException {
        String body = "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                + plan.home() + "</LocationConstraint></CreateBucketConfiguration>";
        List<String> cmd = curl(accessKey, secretKey);
        cmd.addAll(List.of("-X", "PUT", "--data-binary", body, "http://127.0.0.1:" + homeHttpPort + "/" + BUCKET));
        Curl r = run(cmd, 120);
        for (int i = 0; i < 60 && r.code.equals("503"); i++) { // the gateway answers 503 until the node is ready
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            r = run(cmd, 120);
        }
        if (!r.code.equals("200")) {
            throw new IOException("creating bucket " + BUCKET + " failed (HTTP " + r.code + "): " + r.output);
        }
    }

    @Override
    public DataBridgeResult direct(Path file, long size, double loss) {
        return upload(DataBridgeResult.DIRECT, file, size, loss);
    }

    @Override
    public DataBridgeResult redirected(Path file, long size, double loss) {
        return upload(DataBridgeResult.REDIRECT, file, size, loss);
    }

    private DataBridgeResult upload(String path, Path file, long size, double loss) {
        boolean redirect = DataBridgeResult.REDIRECT.equals(path);
        String key = path + "-" + size + "-" + loss;
        List<String> cmd = curl(accessKey, secretKey);
        if (redirect) {
            cmd.addAll(List.of("-L", "--location-trusted", "-H", "X-Geoblocks-Client-Region: " + plan.near()));
        }
        cmd.addAll(List.of("-T", file.toString(), "http://127.0.0.1:" + relayPort + "/" + BUCKET + "/" + key));
        long t0 = System.nanoTime();
        double waitMs = Double.NaN;
        try {
            Curl r = run(cmd, timeoutS);
            waitMs = ms(t0);
            if (!r.code.equals("200") || r.redirects != (redirect ? 1 : 0)) {
                throw new IOException("PUT answered HTTP " + r.code + " after " + r.redirects + " redirect(s): " + r.output);
            }
            String name = BUCKET + "/" + key;
            double homeMs = redirect ? awaitHome(name, t0) : waitMs;
            if (!redirect && !home(name)) {
                throw new IOException(name + " is not home at " + plan.home() + " after a direct PUT answered 200");
            }
            client.delete(plan.home(), name);
            return new DataBridgeResult(path, size, loss, waitMs, homeMs, "");
        } catch (IOException e) {
            return new DataBridgeResult(path, size, loss, waitMs, Double.NaN, e.getMessage());
        }
    }

    private double awaitHome(String name, long t0) throws IOException {
        long deadline = t0 + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline) {
            if (home(name)) {
                return ms(t0);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        throw new IOException(name + " not home at " + plan.home() + " within " + timeoutS + " s");
    }

    private boolean home(String name) {
        try {
            ClientPort.FileStat st = client.statFull(plan.home(), name);
            return HomeCheck.isHome(st, List.of(plan.home()));
        } catch (IOException e) {
            return false; // not known at home yet
        }
    }

    private static List<String> curl(String accessKey, String secretKey) {
        return new ArrayList<>(List.of("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{num_redirects}",
                "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", accessKey + ":" + secretKey,
                "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"));
    }

    /** What curl printed: the last HTTP status, how many redirects it followed, and all its output. */
    private record Curl(String code, int redirects, String output) {}

    private static Curl run(List<String> cmd, long timeoutS) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("curl did not finish within " + timeoutS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String[] f = out.substring(Math.max(0, out.lastIndexOf('\n') + 1)).split(" ");
        if (p.exitValue() != 0 || f.length != 2) {
            throw new IOException("curl exited with " + p.exitValue() + ": " + out);
        }
        return new Curl(f[0], Integer.parseInt(f[1]), out);
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }
}
