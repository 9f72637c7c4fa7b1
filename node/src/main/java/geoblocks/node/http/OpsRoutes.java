package geoblocks.node.http;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.StoredBlocks;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.net.PeerVersions;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The operator's routes: {@code GET /metrics} (Prometheus text format from the client library's
 * registry: the node's metrics and the JVM's), {@code /healthz} (the node publishes snapshots),
 * {@code /readyz} (and its data directory is writable, its metadata engine's syncs work, its block disk has room
 * beyond min-free-disk, and every peer's
 * first RTT probes have settled: measured up, or down-after passed since the node started), {@code /} (the dashboard
 * page from the jar) and {@code /api/state} (the dashboard's JSON, with the chart history). The
 * page and its JSON always need the credentials; the three probes only when {@code probesNeedAuth}.
 */
public final class OpsRoutes {
    /** A snapshot older than this means the node's file service stopped publishing. */
    static final long STALE_MS = 5_000;
    private final Supplier<NodeSnapshot> latest;
    private final Path dataDir;
    private final LongSupplier clock;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter text = PrometheusTextFormatWriter.create();
    private final Supplier<StoredBlocks> stored;
    private final HttpRefusals refusals;
    private final TransferHistory history;
    private final byte[] page;
    private final PeerVersions versions;
    /** The space on the disk the node's blocks go to (unknown where the storage cannot tell). */
    private final Supplier<DiskSpace> disk;

    /**
     * Routes over the node's {@code latest} snapshot, its data directory, the blocks its storage holds
     * ({@code stored}), what its HTTP server refused ({@code refusals}, the one passed to {@link HttpServer})
     * and the chart history its snapshots feed.
     */
    public OpsRoutes(Supplier<NodeSnapshot> latest, Path dataDir, LongSupplier clockMillis, Supplier<StoredBlocks> stored,
            HttpRefusals refusals, TransferHistory history) {
        this(latest, dataDir, clockMillis, stored, refusals, history, new PeerVersions(), () -> DiskSpace.UNKNOWN);
    }

    /**
     * As above, with the file protocol versions the node's network agreed with each peer (see NodeMetrics) and
     * the space on the disk its blocks go to ({@code disk}: a full one makes the node not ready).
     */
    public OpsRoutes(Supplier<NodeSnapshot> latest, Path dataDir, LongSupplier clockMillis, Supplier<StoredBlocks> stored,
            HttpRefusals refusals, TransferHistory history, PeerVersions versions, Supplier<DiskSpace> disk) {
        this.disk = disk;
        this.latest = latest;
        this.dataDir = dataDir;
        this.clock = clockMillis;
        this.stored = stored;
        this.refusals = refusals;
        this.history = history;
        this.versions = versions;
        registry.register(new NodeMetrics(latest, clockMillis, stored, refusals, versions, disk));
        JvmMetrics.builder().register(registry);
        this.page = Resources.read("/geoblocks/dashboard/index.html");
    }

    /** Adds the routes to {@code router}. */
    public Router mount(Router router, boolean probesNeedAuth) {
        return router.add("GET", "/metrics", probesNeedAuth, this::metrics)
                .add("GET", "/healthz", probesNeedAuth, this::healthz)
                .add("GET", "/readyz", probesNeedAuth, this::readyz)
                .add("GET", "/", true, ex -> ex.respond(200, "text/html; charset=utf-8", page))
                .add("GET", "/api/state", true, ex -> ex.respond(200, "application/json",
                        DashboardState.render(latest.get(), clock.getAsLong(), stored.get(),
                                refusals.counts(), history, versions, disk.get()).getBytes(StandardCharsets.UTF_8)));
    }

    private void metrics(Exchange ex) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16384);
        text.write(out, registry.scrape());
        ex.respond(200, PrometheusTextFormatWriter.CONTENT_TYPE, out.toByteArray());
    }

    private void healthz(Exchange ex) {
        String why = staleness();
        ex.respondText(why == null ? 200 : 503, why == null ? "ok\n" : why + "\n");
    }

    private void readyz(Exchange ex) {
        String why = staleness();
        if (why == null) {
            why = writable(dataDir);
        }
        if (why != null) {
            ex.respondText(503, why + "\n");
            return;
        }
        NodeSnapshot s = latest.get();
        if (s.storageFault() != null) {
            ex.respondText(503, "storage fault: " + s.storageFault() + "\n");
            return;
        }
        DiskSpace space = disk.get();
        if (space.full()) {
            ex.respondText(503, "block disk full: " + space.describe() + "; block writes are refused until space"
                    + " returns, reads go on\n");
            return;
        }
        if (!s.unsettledPeers().isEmpty()) {
            ex.respondText(503, "probing peers: " + String.join(", ", s.unsettledPeers())
                    + " neither measured up yet nor past down-after since the node started\n");
            return;
        }
        if (s.createsNotReady() != null) {
            ex.respondText(503, "cannot decide creates yet: " + s.createsNotReady() + "\n");
            return;
        }
        long up = s.status().peers().stream().filter(p -> p.rttMs() >= 0).count();
        ex.respondText(200, "ready: " + s.region() + ", " + up + " of " + s.status().peers().size() + " peers up\n");
    }

    /** Null when the latest snapshot is fresh, else why not. */
    String staleness() {
        NodeSnapshot s = latest.get();
        if (s == null) {
            return "starting: no node snapshot yet";
        }
        long age = clock.getAsLong() - s.timeMillis();
        return age > STALE_MS ? "node snapshot is " + age + " ms old: the file service stopped publishing" : null;
    }

    /** Null when a file can be created and deleted in {@code dir}, else why not. */
    static String writable(Path dir) {
        try {
            Path probe = Files.createTempFile(dir, ".readyz", ".tmp");
            Files.delete(probe);
            return null;
        } catch (IOException | RuntimeException e) {
            return "data directory " + dir + " is not writable: " + e;
        }
    }

}
