package geoblocks.node.http;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.DiskSpace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.MeasuredRttMatrix;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.core.StoredBlocks;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.Background;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.net.PeerVersions;
import geoblocks.node.BuildVersion;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP server with the operator's routes over a fixed snapshot and a fake clock, on a real socket. */
class HttpServerTest {
    private static final String AUTH = "Basic " + Base64.getEncoder().encodeToString("k:secret".getBytes(StandardCharsets.UTF_8));
    @TempDir
    Path data;
    private final AtomicReference<NodeSnapshot> latest = new AtomicReference<>();
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final AtomicLong streamed = new AtomicLong();
    private HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final HttpRefusals refusals = new HttpRefusals();
    private final AtomicReference<StoredBlocks> stored = new AtomicReference<>(new StoredBlocks(3, 3 * 1024 + 17));
    private final TransferHistory history = new TransferHistory(4);
    private final AtomicReference<DiskSpace> disk = new AtomicReference<>(DiskSpace.UNKNOWN);

    @BeforeEach
    void start() throws Exception {
        server = start(false);
    }

    /** The operator's routes and two test routes; the probes need the credentials when {@code probesNeedAuth}. */
    private HttpServer start(boolean probesNeedAuth) throws InterruptedException {
        Router router = new OpsRoutes(latest::get, data, clock::get, stored::get, refusals, history,
                new PeerVersions(), disk::get).mount(new Router(), probesNeedAuth)
                .add("GET", "/boom", false, ex -> {
                    throw new IllegalStateException("route failed");
                })
                .add("PUT", "/upload/*", true, ex -> ex.onBody(new Exchange.BodySink() {
                    @Override
                    public void onChunk(ByteBuf chunk) {
                        streamed.addAndGet(chunk.readableBytes());
                    }

                    @Override
                    public void onEnd() {
                        ex.respondText(200, "got " + streamed.get() + "\n");
                    }
                }));
        return HttpServer.start(new InetSocketAddress("127.0.0.1", 0), router, new BasicAuth("k", "secret"),
                HttpServer.Limits.DEFAULT, refusals);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static NodeSnapshot snapshot(long timeMillis) {
        return snapshot(timeMillis, List.of());
    }

    /** The test snapshot at {@code timeMillis}, with the peers whose first probes have not settled. */
    static NodeSnapshot snapshot(long timeMillis, List<String> unsettledPeers) {
        return snapshot(timeMillis, unsettledPeers, null);
    }

    /** The test snapshot, with why the node cannot decide creates yet (null: it can). */
    static NodeSnapshot snapshot(long timeMillis, List<String> unsettledPeers, String createsNotReady) {
        RequestStats stats = new RequestStats(5);
        stats.record("get", "ok", 3_000_000, timeMillis, "f", "");
        stats.record("put", "error", 700_000_000, timeMillis, "g", "upload failed");
        StatusReply status = new StatusReply(0, "seoul", List.of(new PeerRtt("dublin", 252.5), new PeerRtt("mumbai", -1)),
                4, 2, 100, 3, 1, new Transfers(5000, 6000, 700, 800, 90, 100),
                new Background(1234, 2, List.of(new LedbatPeer("dublin", true, 1, 65536, 10, 4096, 12.5, Double.NaN, 260, 7,
                        1392))),
                new ClientOp.Gc(9, 4096, 2, false, 30, 9, 3, timeMillis - 1000, -1, 1));
        return new NodeSnapshot("seoul", timeMillis, status, stats.snapshot(), 1,
                Map.of("seoul", new NodeSnapshot.Placed(2, 2048), "dublin", new NodeSnapshot.Placed(1, 1024)),
                List.of(new NodeSnapshot.FileView("f", 3072, 1024, "local", "seoul", 5, 3,
                        List.of(List.of("seoul"), List.of("seoul", "dublin"), List.of("dublin")))),
                100, 1 << 20, 0, new NodeSnapshot.Tombstones(4, 7, 1),
                new MeasuredRttMatrix(List.of("dublin", "mumbai", "seoul"), List.of(
                        new MeasuredRttMatrix.Link("seoul", "dublin", 252.5, false, true, 0),
                        new MeasuredRttMatrix.Link("seoul", "mumbai", Double.NaN, true, true, 0),
                        new MeasuredRttMatrix.Link("dublin", "mumbai", 122.25, false, false, 4000))),
                new NodeSnapshot.Scrub(2, true, 41, timeMillis - 3_000, timeMillis - 600_000), unsettledPeers,
                Map.of("dublin", 0L, "mumbai", 2L), createsNotReady,
                new AdmissionQueue.Stats(50, 7, 3_500_000_000L, 900_000_000L, 2, 1, 0, 4, 5 << 20));
    }

    private HttpResponse<String> send(String method, String path, String auth, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metrics_exposeTheSnapshotInPrometheusTextFormat() throws Exception {
        latest.set(snapshot(clock.get() - 500));
        HttpResponse<String> r = send("GET", "/metrics", null, null);
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
        String t = r.body();
        for (String line : List.of(
                "geoblocks_requests_total{op=\"get\",result=\"ok\"} 1",
                "geoblocks_requests_total{op=\"put\",result=\"error\"} 1",
                "geoblocks_request_duration_seconds_bucket{op=\"get\",le=\"0.005\"} 1",
                "geoblocks_request_duration_seconds_bucket{op=\"put\",le=\"0.5\"} 0",
                "geoblocks_request_duration_seconds_bucket{op=\"put\",le=\"1.0\"} 1",
                "geoblocks_request_duration_seconds_count{op=\"put\"} 1",
                "geoblocks_peer_up{peer=\"dublin\"} 1",
                "geoblocks_peer_up{peer=\"mumbai\"} 0",
                "geoblocks_peer_rtt_seconds{peer=\"dublin\"} 0.2525",
                "geoblocks_transfer_sent_bytes_total{class=\"foreground\",transport=\"tcp\"} 4910",
                "geoblocks_transfer_sent_bytes_total{class=\"background\",transport=\"tcp\"} 90",
                "geoblocks_transfer_sent_bytes_total{class=\"background\",transport=\"ledbat\"} 700",
                "geoblocks_ledbat_cwnd_bytes{peer=\"dublin\"} 65536",
                "geoblocks_ledbat_queuing_delay_seconds{peer=\"dublin\"} 0.0125",
                "geoblocks_ledbat_retransmissions_total{peer=\"dublin\"} 7",
                "geoblocks_ledbat_path_mtu_bytes{peer=\"dublin\"} 1392",
                "geoblocks_placed_blocks{region=\"seoul\"} 2",
                "geoblocks_placed_bytes{region=\"dublin\"} 1024",
                "geoblocks_files 1",
                "geoblocks_tombstones 4",
                "geoblocks_tombstones_collected_total{reason=\"acknowledged\"} 7",
                "geoblocks_tombstones_collected_total{reason=\"expired\"} 1",
                "geoblocks_scrub_repaired_blocks_total 3",
                "geoblocks_scrub_passes_total 2",
                "geoblocks_gc_collected_blocks_total 9",
                "geoblocks_gc_collected_bytes_total 4096",
                "geoblocks_gc_passes_total 2",
                "geoblocks_gc_pass_in_flight_blocks 3",
                "geoblocks_gc_paused 1",
                "geoblocks_moves_in_flight 1",
                "geoblocks_scrub_pass_running 1",
                "geoblocks_scrub_pass_blocks 41",
                "geoblocks_scrub_pass_start_timestamp_seconds 996.5",
                "geoblocks_scrub_last_pass_end_timestamp_seconds 399.5",
                "geoblocks_refused_input_total{cause=\"unauthenticated\"} 2",
                "geoblocks_memory_budget_used_bytes 100",
                "geoblocks_admission_admitted_total{wait=\"none\"} 50",
                "geoblocks_admission_admitted_total{wait=\"queued\"} 7",
                "geoblocks_admission_wait_seconds_total 3.5",
                "geoblocks_admission_max_wait_seconds 0.9",
                "geoblocks_admission_refused_total{reason=\"deadline\"} 2",
                "geoblocks_admission_refused_total{reason=\"queue_full\"} 1",
                "geoblocks_admission_refused_total{reason=\"too_large\"} 0",
                "geoblocks_admission_waiting 4",
                "geoblocks_admission_waiting_bytes 5242880",
                "geoblocks_stored_blocks 3",
                "geoblocks_stored_bytes 3089",
                "geoblocks_refused_input_total{cause=\"http_malformed\"} 0",
                "geoblocks_snapshot_age_seconds 0.5",
                "geoblocks_node_info{region=\"seoul\"} 1")) {
            assertTrue(t.lines().anyMatch(l -> l.equals(line) || l.equals(line + ".0")), "missing: " + line + "\n" + t);
        }
        assertFalse(t.contains("geoblocks_ledbat_base_delay_seconds{"), "NaN (not measured) delays are left out");
        assertTrue(t.contains("# TYPE jvm_memory_used_bytes gauge"));
        assertTrue(t.contains("# TYPE geoblocks_request_duration_seconds histogram"));
    }

    @Test
    void healthAndReadiness_followTheSnapshotsAge() throws Exception {
        assertEquals(503, send("GET", "/healthz", null, null).statusCode(), "no snapshot yet");
        latest.set(snapshot(clock.get()));
        assertEquals(200, send("GET", "/healthz", null, null).statusCode());
        HttpResponse<String> ready = send("GET", "/readyz", null, null);
        assertEquals(200, ready.statusCode());
        assertEquals("ready: seoul, 1 of 2 peers up\n", ready.body());
        clock.addAndGet(OpsRoutes.STALE_MS + 1);
        assertEquals(503, send("GET", "/healthz", null, null).statusCode());
        assertEquals(503, send("GET", "/readyz", null, null).statusCode());
    }

    @Test
    void readiness_waitsForEveryPeersFirstProbesToSettle() throws Exception {
        latest.set(snapshot(clock.get(), List.of("mumbai")));
        assertEquals(200, send("GET", "/healthz", null, null).statusCode(), "alive while probing");
        HttpResponse<String> probing = send("GET", "/readyz", null, null);
        assertEquals(503, probing.statusCode());
        assertEquals("probing peers: mumbai neither measured up yet nor past down-after since the node started\n",
                probing.body());
        // settled with mumbai down (the node keeps reporting it down): ready
        latest.set(snapshot(clock.get(), List.of()));
        HttpResponse<String> ready = send("GET", "/readyz", null, null);
        assertEquals(200, ready.statusCode());
        assertEquals("ready: seoul, 1 of 2 peers up\n", ready.body());
    }

    @Test
    void readiness_waitsUntilTheNodeCanDecideCreates() throws Exception {
        latest.set(snapshot(clock.get(), List.of(), "seoul started with no manifests and has not yet compared them"));
        HttpResponse<String> syncing = send("GET", "/readyz", null, null);
        assertEquals(503, syncing.statusCode());
        assertEquals("cannot decide creates yet: seoul started with no manifests and has not yet compared them\n",
                syncing.body());
        latest.set(snapshot(clock.get(), List.of(), null));
        assertEquals(200, send("GET", "/readyz", null, null).statusCode());
    }

    @Test
    void readiness_isRefusedWhileTheMetadataSyncsFail() throws Exception {
        NodeSnapshot s = snapshot(clock.get());
        String fault = "syncing the metadata engine has failed 3 time(s) over 2 s, answers after metadata writes are held:"
                + " No space left on device";
        latest.set(new NodeSnapshot(s.region(), s.timeMillis(), s.status(), s.requests(), s.files(), s.placed(),
                s.recentFiles(), s.memoryUsedBytes(), s.memoryCapacityBytes(), s.openRequests(), s.tombstones(),
                s.rttMatrix(), s.scrub(), s.unsettledPeers(), s.peerDownTransitions(), s.createsNotReady(), s.admission(),
                s.layout(), fault));
        HttpResponse<String> faulty = send("GET", "/readyz", null, null);
        assertEquals(503, faulty.statusCode());
        assertEquals("storage fault: " + fault + "\n", faulty.body());
        assertEquals(200, send("GET", "/healthz", null, null).statusCode(), "alive: it publishes snapshots");
        assertTrue(send("GET", "/metrics", null, null).body().contains("geoblocks_storage_fault 1.0"));
        assertTrue(send("GET", "/api/state", AUTH, null).body().contains("\"fault\":\"" + fault + "\""));
        latest.set(s);
        assertEquals(200, send("GET", "/readyz", null, null).statusCode());
        assertTrue(send("GET", "/metrics", null, null).body().contains("geoblocks_storage_fault 0.0"));
    }

    @Test
    void aFullBlockDisk_makesTheNodeNotReady_andSaysSoInMetrics_untilSpaceReturns() throws Exception {
        latest.set(snapshot(clock.get()));
        long mib = 1 << 20;
        disk.set(new DiskSpace(64 * mib, 8 * mib, 8 * mib));
        HttpResponse<String> full = send("GET", "/readyz", null, null);
        assertEquals(503, full.statusCode());
        assertEquals("block disk full: 8 MiB free of 64 MiB, 8 MiB kept free (min-free-disk); block writes are refused"
                + " until space returns, reads go on\n", full.body());
        assertEquals(200, send("GET", "/healthz", null, null).statusCode(), "alive: it publishes snapshots");
        String metrics = send("GET", "/metrics", null, null).body();
        assertTrue(metrics.contains("geoblocks_block_disk_full 1.0"), metrics);
        assertTrue(metrics.contains("geoblocks_block_disk_free_bytes " + (double) (8 * mib)), metrics);
        String state = send("GET", "/api/state", AUTH, null).body();
        assertTrue(state.contains("\"storage\":{\"blockDiskFull\":true,\"blockDisk\":\"8 MiB free of 64 MiB, 8 MiB kept"
                + " free (min-free-disk)\"}"), "the dashboard's state says so: " + state);

        disk.set(new DiskSpace(64 * mib, 9 * mib, 8 * mib)); // space returned: ready again, nothing else to do
        assertEquals(200, send("GET", "/readyz", null, null).statusCode());
        assertTrue(send("GET", "/metrics", null, null).body().contains("geoblocks_block_disk_full 0.0"));
        assertTrue(send("GET", "/api/state", AUTH, null).body().contains("\"storage\":{\"blockDiskFull\":false,"));
    }

    @Test
    void metrics_countEachPeersDownTransitions() throws Exception {
        latest.set(snapshot(clock.get()));
        String t = send("GET", "/metrics", null, null).body();
        assertTrue(t.lines().anyMatch("geoblocks_peer_down_transitions_total{peer=\"dublin\"} 0.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_peer_down_transitions_total{peer=\"mumbai\"} 2.0"::equals), t);
    }

    @Test
    void metricsAndState_showTheClusterLayoutVersion() throws Exception {
        NodeSnapshot s = snapshot(clock.get());
        latest.set(new NodeSnapshot(s.region(), s.timeMillis(), s.status(), s.requests(), s.files(), s.placed(),
                s.recentFiles(), s.memoryUsedBytes(), s.memoryCapacityBytes(), s.openRequests(), s.tombstones(),
                s.rttMatrix(), s.scrub(), s.unsettledPeers(), s.peerDownTransitions(), s.createsNotReady(), s.admission(),
                new NodeSnapshot.Layout(3, Map.of("seoul", "active", "dublin", "draining"),
                        Map.of("seoul", 3L, "dublin", 2L), 5, 17, Map.of("dublin", 17L), 4, 9000,
                        Map.of("mumbai", 9000L), 8, 65536, 2)));
        String t = send("GET", "/metrics", null, null).body();
        assertTrue(t.lines().anyMatch("geoblocks_layout_version 3.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_drain_moves_started 5.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_drain_pending_versions 17.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_rebalance_moves_started_total{kind=\"drain\"} 5.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_rebalance_moves_started_total{kind=\"zone\"} 2.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_rebalance_moves_started_total{kind=\"fill\"} 4.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_rebalance_pending_versions{region=\"dublin\"} 17.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_rebalance_pending_bytes 9000.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_rebalance_short_bytes{region=\"mumbai\"} 9000.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_moves_committed_total 8.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_moved_bytes_total 65536.0"::equals), t);
        String state = send("GET", "/api/state", AUTH, null).body();
        assertTrue(state.contains("\"fillMovesStarted\":4,\"zoneMovesStarted\":2,\"fillPendingBytes\":9000,\"movesCommitted\":8,"
                + "\"movedBytes\":65536,\"rebalance\":{\"drainPendingVersions\":{\"dublin\":17},"
                + "\"shortBytes\":{\"mumbai\":9000}}"), state);
        latest.set(snapshot(clock.get()));
        t = send("GET", "/metrics", null, null).body();
        assertTrue(t.lines().anyMatch("geoblocks_layout_version 0.0"::equals), t);
    }

    @Test
    void metrics_leaveOutScrubTimestampsOfPassesThatNeverHappened() throws Exception {
        NodeSnapshot s = snapshot(clock.get());
        latest.set(new NodeSnapshot(s.region(), s.timeMillis(), s.status(), s.requests(), s.files(), s.placed(),
                s.recentFiles(), s.memoryUsedBytes(), s.memoryCapacityBytes(), s.openRequests(), s.tombstones(),
                s.rttMatrix(), new NodeSnapshot.Scrub(0, true, 5, clock.get() - 1000, -1), s.unsettledPeers(),
                s.peerDownTransitions(), s.createsNotReady(), s.admission()));
        String t = send("GET", "/metrics", null, null).body();
        assertTrue(t.lines().anyMatch("geoblocks_scrub_passes_total 0.0"::equals), t);
        assertTrue(t.lines().anyMatch("geoblocks_scrub_pass_blocks 5.0"::equals), t);
        assertFalse(t.contains("geoblocks_scrub_last_pass_end_timestamp_seconds "), "no pass has ended");
    }

    @Test
    void readiness_needsAWritableDataDirectory() {
        assertEquals(null, OpsRoutes.writable(data));
        assertTrue(OpsRoutes.writable(data.resolve("missing")).startsWith("data directory "));
    }

    @Test
    void dashboardAndState_needTheCredentials_andNeverCarryTheSecret() throws Exception {
        latest.set(snapshot(clock.get()));
        HttpResponse<String> denied = send("GET", "/", null, null);
        assertEquals(401, denied.statusCode());
        assertTrue(denied.headers().firstValue("www-authenticate").orElse("").startsWith("Basic realm="));
        assertEquals(401, send("GET", "/api/state", "Basic " + Base64.getEncoder().encodeToString("k:nope".getBytes()), null)
                .statusCode());
        HttpResponse<String> page = send("GET", "/", AUTH, null);
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<title>geoblocks node</title>"));
        assertFalse(page.body().contains("http://") || page.body().contains("https://"), "no CDN or external link");
        String state = send("GET", "/api/state", AUTH, null).body();
        assertTrue(state.contains("\"region\":\"seoul\""), state);
        assertTrue(state.contains("\"replicas\":[[\"seoul\"],[\"seoul\",\"dublin\"],[\"dublin\"]]"), state);
        assertTrue(state.contains("{\"region\":\"mumbai\",\"self\":false,\"up\":false,\"rttMs\":null}"), state);
        assertTrue(state.contains("\"matrix\":{\"regions\":[\"dublin\",\"mumbai\",\"seoul\"],\"links\":["), state);
        assertTrue(state.contains("{\"from\":\"seoul\",\"to\":\"mumbai\",\"rttMs\":null,\"down\":true,\"fresh\":true,\"ageMs\":0}"), state);
        assertTrue(state.contains("{\"from\":\"dublin\",\"to\":\"mumbai\",\"rttMs\":122.25,\"down\":false,\"fresh\":false,\"ageMs\":4000}"), state);
        assertTrue(state.contains("\"scrub\":{\"verified\":100,\"repaired\":3,\"unrepairable\":1,\"passes\":2,"
                + "\"running\":true,\"passBlocks\":41,\"passStartMillis\":997000,\"lastPassEndMillis\":400000}"), state);
        assertTrue(state.contains("\"gc\":{\"collectedBlocks\":9,\"collectedBytes\":4096,\"passes\":2,\"running\":false,"
                + "\"passChecked\":30,\"passCollected\":9,\"passInFlight\":3,"), state);
        assertTrue(state.contains("\"history\":{\"capacity\":4,\"timeMillis\":[],"), "nothing fed yet: " + state);
        assertTrue(state.contains("\"build\":{\"version\":\"" + BuildVersion.version() + "\",\"commit\":\""
                + BuildVersion.commit() + "\",\"fileProtocol\":\"" + FileCodec.RANGE
                + "\",\"peerFileProtocol\":{}}"), "the dashboard names the build: " + state);
        history.add(clock.get() - 1000, new Transfers(0, 0, 0, 0, 0, 0), List.of());
        history.add(clock.get(), new Transfers(2000, 0, 500, 0, 0, 0),
                List.of(new LedbatPeer("dublin", true, 1, 65536, 10, 4096, 12.5, Double.NaN, 260, 7)));
        state = send("GET", "/api/state", AUTH, null).body();
        assertTrue(state.contains("\"history\":{\"capacity\":4,\"timeMillis\":[999000,1000000],"
                + "\"foregroundSentBps\":[null,2000],\"foregroundReceivedBps\":[null,0],\"backgroundSentBps\":[null,500],"
                + "\"backgroundReceivedBps\":[null,0],\"ledbat\":{\"dublin\":{\"cwndBytes\":[null,65536],"
                + "\"queuingDelayMs\":[null,12.5]}}}"), state);
        assertFalse(state.contains("secret"));
    }

    @Test
    void badInput_getsAClearStatus_andTheServerKeepsServing() throws Exception {
        assertEquals(404, send("GET", "/nope", null, null).statusCode());
        HttpResponse<String> m = send("DELETE", "/metrics", null, null);
        assertEquals(405, m.statusCode());
        assertEquals("GET", m.headers().firstValue("allow").orElse(""));
        HttpResponse<String> boom = send("GET", "/boom", null, null);
        assertEquals(500, boom.statusCode());
        assertTrue(boom.body().contains("route failed"));
        assertEquals("HTTP/1.1 400", raw("GET /metrics HTTP/1.1\r\nContent-Length: x\r\n\r\n"));
        assertEquals("HTTP/1.1 431", raw("GET /" + "a".repeat(HttpServer.MAX_INITIAL_LINE + 10) + " HTTP/1.1\r\n\r\n"));
        assertEquals("HTTP/1.1 431", raw("GET / HTTP/1.1\r\nX: " + "b".repeat(HttpServer.MAX_HEADER_BYTES + 10) + "\r\n\r\n"));
        assertEquals(401, send("GET", "/", null, null).statusCode());
        latest.set(snapshot(clock.get()));
        assertEquals(200, send("GET", "/healthz", null, null).statusCode());
        // each refusal counted once under its cause; 404, 405 and 500 are not refusals of the input
        String t = send("GET", "/metrics", null, null).body();
        for (String line : List.of(
                "geoblocks_refused_input_total{cause=\"http_malformed\"} 1.0",
                "geoblocks_refused_input_total{cause=\"http_headers_too_large\"} 2.0",
                "geoblocks_refused_input_total{cause=\"http_unauthenticated\"} 1.0",
                "geoblocks_refused_input_total{cause=\"http_forbidden\"} 0.0",
                "geoblocks_refused_input_total{cause=\"malformed\"} 4.0")) {
            assertTrue(t.lines().anyMatch(line::equals), "missing: " + line + "\n" + t);
        }
    }

    @Test
    void probesNeedAuth_refusesMetricsWithoutTheCredentials() throws Exception {
        server.close();
        server = start(true);
        latest.set(snapshot(clock.get()));
        HttpResponse<String> denied = send("GET", "/metrics", null, null);
        assertEquals(401, denied.statusCode());
        assertFalse(denied.body().contains("geoblocks_"), denied.body());
        assertEquals(401, send("GET", "/healthz", null, null).statusCode());
        HttpResponse<String> ok = send("GET", "/metrics", AUTH, null);
        assertEquals(200, ok.statusCode());
        assertTrue(ok.body().contains("geoblocks_files 1"), ok.body());
        assertEquals(200, send("GET", "/healthz", AUTH, null).statusCode());
    }

    @Test
    void metrics_beforeTheFirstSnapshot_holdOnlyWhatIsCountedOutsideIt() throws Exception {
        String t = send("GET", "/metrics", null, null).body();
        assertTrue(t.lines().anyMatch("geoblocks_stored_blocks 3.0"::equals), t);
        assertTrue(t.contains("geoblocks_refused_input_total{cause=\"http_head_timeout\"} 0.0"), t);
        assertFalse(t.contains("geoblocks_files"), t);
        assertFalse(t.contains("cause=\"malformed\""), "the node port's causes come with the snapshot");
    }

    @Test
    void bodies_streamToTheRoutesSink() throws Exception {
        String body = "x".repeat(300_000);
        HttpResponse<String> r = send("PUT", "/upload/a/b", AUTH, body);
        assertEquals(200, r.statusCode());
        assertEquals("got 300000\n", r.body());
        assertEquals(401, send("PUT", "/upload/a", null, "y").statusCode());
    }

    private String raw(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
        }
    }
}
