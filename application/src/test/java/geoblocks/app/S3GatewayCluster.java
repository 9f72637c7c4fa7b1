package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import geoblocks.blockstore.core.Owners;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link S3GatewayIT}'s fixture: a 4-node local cluster with the emulated WAN, HTTPS {@code optional}
 * with an openssl-made self-signed certificate, SSE-S3 keys and a short lifecycle day, started once for
 * the class (with boto3 and the aws CLI checked or installed meanwhile by
 * {@code scripts/install-s3-test-tools.sh}) and ready for creates at every region; and the helpers
 * the tests call the nodes with.
 */
abstract class S3GatewayCluster {
    static final String HEAD_TIMEOUT_S = "2";
    static final String BODY_GRACE_S = "2";
    @TempDir
    static Path work;
    /** A lifecycle day of this cluster (geoblocks.s3.lifecycle.day), short so rules act within the test. */
    static final int LIFECYCLE_DAY_S = 2;
    static ItSupport.Nodes nodes;
    static Path venv;
    static Path scripts;

    @BeforeAll
    static void start() throws Exception {
        scripts = Path.of(System.getProperty("user.dir")).getParent().resolve("scripts");
        // the tools are checked (or installed) while the nodes start
        CompletableFuture<ItSupport.Run> installing = CompletableFuture.supplyAsync(() -> {
            try {
                return run(List.of("bash", scripts.resolve("install-s3-test-tools.sh").toString()), Map.of(), 600);
            } catch (IOException | InterruptedException e) {
                return new ItSupport.Run(-1, e.toString());
            }
        });
        // HTTPS beside plain HTTP on each node's port, with a self-signed certificate for 127.0.0.1 and localhost
        Files.createDirectories(work);
        ItSupport.Run cert = run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-keyout", work.resolve("key.pem").toString(), "-out", work.resolve("cert.pem").toString(), "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:keys-vhost.localhost"),
                Map.of(), 60);
        assertEquals(0, cert.code(), "openssl could not make a self-signed certificate:\n" + cert.out());
        // SSE-S3 cluster keys, outside the data directories: a new first key, an older one kept for reading
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        Base64.Encoder b64 = Base64.getEncoder();
        Files.writeString(work.resolve("sse.keys"), "# SSE-S3 keys\nit2 " + b64.encodeToString(Arrays.copyOf(k, 32))
                + "\nit1 " + b64.encodeToString(Arrays.copyOfRange(k, 32, 64)) + "\n");
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), true,
                "geoblocks.http.head-timeout = " + HEAD_TIMEOUT_S + " s\ngeoblocks.http.body-grace = " + BODY_GRACE_S + " s\n"
                        + "geoblocks.http.tls { mode = optional, cert-chain = \"" + work.resolve("cert.pem") + "\", private-key = \""
                        + work.resolve("key.pem") + "\" }\n"
                        + "geoblocks.s3.lifecycle { day = " + LIFECYCLE_DAY_S + " s, interval = 500 ms }\n"
                        + "geoblocks.s3.sse.key-file = \"" + work.resolve("sse.keys") + "\"\n",
                20_000, 30);
        ItSupport.Run install = installing.get();
        assertEquals(0, install.code(), "scripts/install-s3-test-tools.sh failed:\n" + install.out());
        String[] lines = install.out().trim().split("\n");
        venv = Path.of(lines[lines.length - 1].trim());
        // a create (CreateBucket is one) is decided by its name's owner region, which can do so once it has
        // compared manifests with every peer after its start: wait until a create of a name each region owns succeeds
        Path one = ItSupport.randomFile(work, "probe.bin", 1, 1);
        List<String> probes = new ArrayList<>();
        for (String owner : LocalCluster.REGIONS) {
            int i = 0;
            while (!Owners.ownerOf("it-ready-probe-" + i, LocalCluster.REGIONS).equals(owner)) {
                i++;
            }
            probes.add("it-ready-probe-" + i);
        }
        Set<String> done = new HashSet<>();
        ItSupport.await(90, "every region decides creates", () -> {
            for (String name : probes) {
                if (!done.contains(name)) {
                    try {
                        nodes.client().write("seoul", one, null, name, "local", 1, "all", true, null);
                        done.add(name);
                    } catch (IOException e) {
                        if (e.getMessage() != null && e.getMessage().contains("already exists")) {
                            done.add(name);
                        }
                    }
                }
            }
            return done.size() == probes.size();
        });
    }

    @AfterAll
    static void stop() throws IOException {
        if (nodes != null) {
            nodes.close();
            // every check has run (presigned URLs, refused and failed requests, new keys): no node logged a
            // presigned signature or the secret key
            Pattern signature = Pattern.compile(
                    "(?i)(X-Amz-Signature|[?&]Signature)=(?!REDACTED)[^&\\s]+");
            for (String r : LocalCluster.REGIONS) {
                String log = Files.readString(nodes.cluster().log(r));
                Matcher m = signature.matcher(log);
                if (m.find()) {
                    Assertions.fail(r + "'s log holds a presigned signature: "
                            + log.substring(Math.max(0, m.start() - 200), Math.min(log.length(), m.end() + 50)));
                }
                Assertions.assertFalse(log.contains("geoblocks-local-demo-secret"),
                        r + "'s log holds the secret key");
            }
        }
    }

    static ItSupport.Run run(List<String> cmd, Map<String, String> env, int timeoutS) throws IOException, InterruptedException {
        return ItSupport.run(cmd, work, env, timeoutS);
    }

    /** The S3 endpoint (HTTP server) of {@code region}'s node. */
    static String endpoint(String region) {
        return "http://127.0.0.1:" + nodes.cluster().httpPort(region);
    }

    static String python() {
        return venv.resolve("bin/python").toString();
    }

    /** curl with the demo key's SigV4 signature, verbose (the answer's status and headers are in the output). */
    static ItSupport.Run curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "-v", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user",
                "geoblocks-demo:geoblocks-local-demo-secret", "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"));
        cmd.addAll(List.of(args));
        return run(cmd, Map.of(), 300);
    }

    /** Block bytes {@code region}'s node has received for reads and --ack all copies (not background copies). */
    static long foregroundReceived(String region) throws IOException {
        return nodes.client().status(region).transfers().foregroundReceived();
    }

    /** Block files of {@code fileId} under {@code region}'s data directory ({@code blocks/xx/b-FILEID-i.blk}). */
    static long blockFiles(String region, String fileId) throws IOException {
        Path blocks = nodes.cluster().dataDir(region).resolve("blocks");
        try (Stream<Path> files = Files.walk(blocks)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().startsWith("b-" + fileId + "-")).count();
        }
    }
}
