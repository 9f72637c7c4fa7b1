package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's view of a real 4-node local cluster (emulated WAN on): after a put and a get,
 * seoul's {@code /metrics} parses with Python's prometheus_client parser and holds the families
 * issue 12 lists with sane values; the dashboard, opened in headless Chromium (Debian's, driven
 * through ChromeDriver), shows the four regions up, the file and its replica map, and shows dublin
 * down within 10 s of its SIGKILL. Screenshots go to {@code target/dashboard*.png}. The browser,
 * driver and parser are installed by {@code scripts/install-test-tools.sh} when missing.
 */
class DashboardIT {
    private static final String USER = "geoblocks-demo";
    private static final String SECRET = "geoblocks-local-demo-secret";
    private static final String FILE = "photos/dashboard-demo.jpg";
    private static final int BLOCK = 65536;
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static LocalCluster cluster;
    static GeoClient client;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        installTools();
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), true, "", 20_000, 30);
        cluster = nodes.cluster();
        client = nodes.client();
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    private static void installTools() throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("user.dir")).getParent().resolve("scripts/install-test-tools.sh");
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "scripts/install-test-tools.sh failed:\n" + out);
    }

    @Test
    void metricsParseAndTheDashboardShowsRegionsFilesReplicasAndADownNode() throws Exception {
        Path in = ItSupport.randomFile(work, "in.bin", 5 * BLOCK + 100, 12);
        client.put("seoul", in, FILE, "tworandom", BLOCK, null);
        Manifest m = client.stat("seoul", FILE);
        client.get("seoul", FILE, work.resolve("out.bin"), null);
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(in), Files.readAllBytes(work.resolve("out.bin"))));
        // a background copy: seoul keeps the first copy and sends the second to the farthest region over LEDBAT
        Path bulk = ItSupport.randomFile(work, "bulk.bin", 8 * BLOCK, 13);
        client.put("seoul", bulk, "backups/bulk.bin", "localfarthest", BLOCK, "local", null);

        checkMetrics(m);
        checkAuthAndBadInput();
        checkDashboard(m);
    }

    private void checkMetrics(Manifest m) throws Exception {
        String base = "http://127.0.0.1:" + cluster.httpPort("seoul");
        Map<String, Double> samples = new TreeMap<>();
        // the snapshot is published once a second: wait until it has seen the get and the second put
        ItSupport.await(10, "the get and both puts in seoul's metrics", () -> {
            try {
                samples.clear();
                samples.putAll(parse(get(base + "/metrics", null).body()));
                return samples.getOrDefault("geoblocks_requests_total{op=\"get\",result=\"ok\"}", 0.0) >= 1
                        && samples.getOrDefault("geoblocks_requests_total{op=\"put\",result=\"ok\"}", 0.0) >= 2;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
        assertEquals(2.0, samples.get("geoblocks_requests_total{op=\"put\",result=\"ok\"}"));
        assertEquals(1.0, samples.get("geoblocks_request_duration_seconds_count{op=\"get\"}"));
        assertEquals(2.0, samples.get("geoblocks_request_duration_seconds_bucket{le=\"+Inf\",op=\"put\"}"));
        assertTrue(samples.get("geoblocks_request_duration_seconds_sum{op=\"put\"}") > 0);
        for (String peer : List.of("dublin", "saopaulo", "mumbai")) {
            assertEquals(1.0, samples.get("geoblocks_peer_up{peer=\"" + peer + "\"}"), peer);
            double rtt = samples.get("geoblocks_peer_rtt_seconds{peer=\"" + peer + "\"}");
            assertTrue(rtt > 0.1 && rtt < 5.0, peer + " RTT " + rtt + " s (emulated WAN: 160-298 ms from seoul, plus load)");
        }
        long replicas = m.blocks().stream().mapToLong(b -> b.replicas().size()).sum()
                + client.stat("seoul", "backups/bulk.bin").blocks().stream().mapToLong(b -> b.replicas().size()).sum();
        double placed = 0;
        for (String r : LocalCluster.REGIONS) {
            placed += samples.get("geoblocks_placed_blocks{region=\"" + r + "\"}");
        }
        assertEquals(replicas, placed, 0.0);
        assertEquals(2.0, samples.get("geoblocks_files{}"));
        // the LEDBAT flow to the region that got the background copy (the farthest by measured RTT)
        String far = client.stat("seoul", "backups/bulk.bin").blocks().get(0).replicas().stream()
                .filter(r -> !r.equals("seoul")).findFirst().orElseThrow();
        // the copy itself may take a while (LEDBAT yields, 250 ms RTT): bytes moving and the flow's gauges suffice
        long deadline = System.currentTimeMillis() + 30_000;
        while (samples.getOrDefault("geoblocks_transfer_sent_bytes_total{class=\"background\",transport=\"ledbat\"}", 0.0)
                < BLOCK || !samples.containsKey("geoblocks_ledbat_cwnd_bytes{peer=\"" + far + "\"}")) {
            assertTrue(System.currentTimeMillis() < deadline, "no LEDBAT flow to " + far + " in seoul's metrics: "
                    + samples.entrySet().stream().filter(e -> e.getKey().contains("ledbat") || e.getKey().contains("background")).toList());
            Thread.sleep(500);
            samples.clear();
            samples.putAll(parse(get(base + "/metrics", null).body()));
        }
        assertTrue(samples.get("geoblocks_ledbat_cwnd_bytes{peer=\"" + far + "\"}") >= 0); // 0 once the flow ended
        assertTrue(samples.containsKey("geoblocks_ledbat_retransmissions_total{peer=\"" + far + "\"}"));
        assertTrue(samples.get("geoblocks_transfer_sent_bytes_total{class=\"foreground\",transport=\"tcp\"}") > 0);
        assertTrue(samples.containsKey("geoblocks_transfer_sent_bytes_total{class=\"background\",transport=\"ledbat\"}"));
        assertTrue(samples.containsKey("geoblocks_refused_input_total{cause=\"unauthenticated\"}"));
        assertTrue(samples.containsKey("geoblocks_scrub_verified_blocks_total{}"));
        assertTrue(samples.get("geoblocks_memory_budget_capacity_bytes{}") > 0);
        assertTrue(samples.get("jvm_memory_used_bytes{area=\"heap\"}") > 0);
        assertEquals(200, get(base + "/healthz", null).statusCode());
        HttpResponse<String> ready = get(base + "/readyz", null);
        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("3 of 3 peers up"), ready.body());
    }

    /** Samples as {@code name{sorted labels}} to value, from scripts/check-metrics.py (prometheus_client's parser). */
    private static Map<String, Double> parse(String text) throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("user.dir")).getParent().resolve("scripts/check-metrics.py");
        Process p = new ProcessBuilder("python3", script.toString()).redirectErrorStream(true).start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "prometheus_client could not parse /metrics: " + out);
        Map<String, Double> samples = new TreeMap<>();
        for (String line : out.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                int sp = line.lastIndexOf(' ');
                samples.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
            }
        }
        return samples;
    }

    private void checkAuthAndBadInput() throws Exception {
        String base = "http://127.0.0.1:" + cluster.httpPort("seoul");
        assertEquals(401, get(base + "/", null).statusCode());
        assertEquals(401, get(base + "/api/state", basic(USER, "wrong")).statusCode());
        HttpResponse<String> state = get(base + "/api/state", basic(USER, SECRET));
        assertEquals(200, state.statusCode());
        assertTrue(!state.body().contains(SECRET), "the dashboard's state never carries the secret");
        assertEquals(404, get(base + "/nope", null).statusCode());
        // a request line the decoder refuses: 400, and the node keeps serving
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", cluster.httpPort("seoul"))) {
            s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            s.setSoTimeout(5000);
            String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 400", status);
        }
        assertEquals(200, get(base + "/healthz", null).statusCode());
    }

    private void checkDashboard(Manifest m) throws Exception {
        Path target = Path.of(System.getProperty("user.dir")).resolve("target");
        try (WebDriverSession b = WebDriverSession.start(work.resolve("chromium-profile"), target.resolve("chromedriver.log"))) {
            b.setHeader("Authorization", basic(USER, SECRET));
            b.navigate("http://127.0.0.1:" + cluster.httpPort("seoul") + "/");
            awaitPage(b, 15, "four regions, all up",
                    "return document.querySelectorAll('#regions tr[data-region][data-up=\"true\"]').length === 4");
            assertEquals("\"seoul\"", b.script("return document.getElementById('region').textContent"));
            String fileSelector = "#files li[data-name=\"" + FILE + "\"]";
            awaitPage(b, 10, "the file in the list", "return document.querySelector('" + fileSelector.replace("'", "\\'") + "') !== null");
            b.click(fileSelector);
            awaitPage(b, 5, "the replica map", "return document.querySelectorAll('#replicaTable tr').length === "
                    + m.blocks().size());
            List<String> shown = new ArrayList<>();
            for (int i = 0; i < m.blocks().size(); i++) {
                shown.add(b.script("return document.querySelector('#replicaTable tr[data-block=\"" + i
                        + "\"] td:nth-child(2)').textContent"));
                assertEquals(WebDriverSession.json(String.join(", ", m.blocks().get(i).replicas())), shown.get(i),
                        "block " + i);
            }
            Thread.sleep(2500); // a few samples for the charts
            b.screenshot(target.resolve("dashboard.png"));

            long killed = System.nanoTime();
            cluster.kill("dublin");
            awaitPage(b, 10, "dublin shown down",
                    "return document.querySelector('#regions tr[data-region=\"dublin\"]').dataset.up === 'false'");
            long seconds = (System.nanoTime() - killed) / 1_000_000_000L;
            assertTrue(seconds <= 10, "dublin shown down after " + seconds + " s");
            b.screenshot(target.resolve("dashboard-dublin-down.png"));
        }
    }

    private static void awaitPage(WebDriverSession b, int seconds, String what, String script) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (!b.script(script).equals("true")) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out after " + seconds + " s waiting for: " + what);
            Thread.sleep(200);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> get(String url, String auth) throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (auth != null) {
            r.header("Authorization", auth);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }
}
