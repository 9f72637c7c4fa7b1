package geoblocks.node.http;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.core.StoredBlocks;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.LedbatPeer;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.StatusReply;
import geoblocks.blockstore.wire.ClientOp.Transfers;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.net.PeerVersions;
import geoblocks.network.frame.Control;
import geoblocks.node.BuildVersion;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The node's Prometheus metrics, read from the latest {@link NodeSnapshot} at each scrape (the
 * snapshot is immutable, so scraping never touches the node's components). Counters are the
 * node's own totals since it started; gauges are the values at the snapshot's time. Two sources are
 * read directly instead, as they are cheap counters outside the node's components: the blocks and
 * bytes on this node's disk ({@link StoredBlocks}, kept by the block storage on each write and
 * delete) and what the HTTP port refused ({@link HttpRefusals}). Without a snapshot yet, only
 * those two are exposed.
 */
public final class NodeMetrics implements MultiCollector {
    private final Supplier<NodeSnapshot> latest;
    private final LongSupplier clockMillis;
    private final Supplier<StoredBlocks> stored;
    private final HttpRefusals httpRefusals;
    private final PeerVersions versions;
    private final Supplier<DiskSpace> disk;

    public NodeMetrics(Supplier<NodeSnapshot> latest, LongSupplier clockMillis, Supplier<StoredBlocks> stored,
            HttpRefusals httpRefusals) {
        this(latest, clockMillis, stored, httpRefusals, new PeerVersions(), () -> DiskSpace.UNKNOWN);
    }

    /**
     * With the file protocol version each peer's handshake agreed ({@code versions}, the node network's) and the
     * space on the disk the node's blocks go to ({@code disk}).
     */
    public NodeMetrics(Supplier<NodeSnapshot> latest, LongSupplier clockMillis, Supplier<StoredBlocks> stored,
            HttpRefusals httpRefusals, PeerVersions versions, Supplier<DiskSpace> disk) {
        this.disk = disk;
        this.versions = versions;
        this.latest = latest;
        this.clockMillis = clockMillis;
        this.stored = stored;
        this.httpRefusals = httpRefusals;
    }

    /** The build (version, commit, protocol versions), and the file protocol version agreed with each peer. */
    private void build(MetricSnapshots.Builder out) {
        out.metricSnapshot(InfoSnapshot.builder().name("geoblocks_build")
                .help("This node's build: its version, commit, and the versions it speaks of the file protocol and transport.")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("version",
                        BuildVersion.version(), "commit", BuildVersion.commit(), "file_protocol",
                        FileCodec.RANGE.toString(), "transport",
                        Control.TRANSPORT.toString())).build())
                .build());
        List<GaugeDataPointSnapshot> peers = new ArrayList<>();
        versions.byPeer(FileCodec.CODEC_ID).forEach((peer, v) -> peers.add(
                GaugeDataPointSnapshot.builder().value(v).labels(Labels.of("peer", peer.toString())).build()));
        out.metricSnapshot(gauge("geoblocks_peer_file_protocol",
                "The file protocol version this node's last handshake with each peer agreed: below the node's own"
                        + " newest while the peer runs an older geoblocks.", null, peers));
    }

    /** The cluster's version, and what each member connected to this node runs (its handshake named it). */
    private static void members(MetricSnapshots.Builder out, ClientOp.Versions v) {
        out.metricSnapshot(InfoSnapshot.builder().name("geoblocks_cluster_version")
                .help("The cluster's version (major.minor): the lowest release its members may run, as cluster finalize"
                        + " last raised it; finalizable is the version cluster finalize at this node would raise it to"
                        + " now, empty when none.")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("version", v.clusterVersion(),
                        "finalizable", v.finalizeNote().startsWith("every member runs ")
                                ? v.finalizeNote().substring("every member runs ".length()).split(" ")[0] : "")).build())
                .build());
        InfoSnapshot.Builder b = InfoSnapshot.builder().name("geoblocks_member_build")
                .help("What each member connected to this node runs, as its handshake named it (0.2.x: a 0.2 node, which"
                        + " names no build); this node's own included.");
        for (ClientOp.MemberBuild m : v.members()) {
            b.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("region", m.region(), "build",
                    m.build())).build());
        }
        out.metricSnapshot(b.build());
    }

    @Override
    public MetricSnapshots collect() {
        NodeSnapshot s = latest.get();
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        StoredBlocks here = stored.get();
        out.metricSnapshot(gauge("geoblocks_stored_blocks", "Blocks this node holds on its own disk.", null,
                List.of(g(here.blocks()))));
        out.metricSnapshot(gauge("geoblocks_stored_bytes",
                "Data bytes of the blocks this node holds on its own disk (file headers not included).", Unit.BYTES,
                List.of(g(here.bytes()))));
        DiskSpace space = disk.get();
        if (space.known()) {
            out.metricSnapshot(gauge("geoblocks_block_disk_free_bytes", "Free bytes on the disk this node's blocks go to"
                    + " (block writes keep min-free-disk of it free).", Unit.BYTES, List.of(g(space.freeBytes()))));
            out.metricSnapshot(gauge("geoblocks_block_disk_full", "1 while the disk this node's blocks go to has no room"
                    + " beyond min-free-disk: block writes are refused and /readyz says so; 0 once space returns.", null,
                    List.of(g(space.full() ? 1 : 0))));
        }
        if (s != null) {
            out.metricSnapshot(gauge("geoblocks_storage_fault", "1 while the metadata engine's syncs fail: answers that"
                    + " follow a metadata write are held and /readyz says why; 0 once a sync works again.", null,
                    List.of(g(s.storageFault() != null ? 1 : 0))));
        }
        build(out);
        if (s != null && s.status().versions() != null) {
            members(out, s.status().versions());
        }
        List<CounterDataPointSnapshot> refused = new ArrayList<>();
        if (s != null) {
            refused.add(c(s.status().malformed(), "cause", "malformed"));
            refused.add(c(s.status().unauthenticated(), "cause", "unauthenticated"));
        }
        httpRefusals.counts().forEach((cause, n) -> refused.add(c(n, "cause", cause)));
        out.metricSnapshot(counter("geoblocks_refused_input",
                "Input this node refused, by cause: on the node-to-node port (malformed, unauthenticated) and on the"
                        + " HTTP port (http_*).", refused));
        if (s == null) {
            return out.build();
        }
        StatusReply st = s.status();
        out.metricSnapshot(InfoSnapshot.builder().name("geoblocks_node").help("This node's region.")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("region", s.region())).build())
                .build());
        out.metricSnapshot(gauge("geoblocks_snapshot_age_seconds",
                "Age of the node snapshot these metrics come from (published about once a second).", Unit.SECONDS,
                List.of(g(Math.max(0, clockMillis.getAsLong() - s.timeMillis()) / 1000.0))));
        requests(out, s.requests());
        out.metricSnapshot(gauge("geoblocks_requests_open", "Client requests started and not answered yet.", null,
                List.of(g(s.openRequests()))));
        transfers(out, st.transfers());
        peers(out, st.peers());
        List<CounterDataPointSnapshot> downs = new ArrayList<>();
        s.peerDownTransitions().forEach((peer, n) -> downs.add(c(n, "peer", peer)));
        downs.sort(Comparator.comparing(d -> d.getLabels().get("peer")));
        out.metricSnapshot(counter("geoblocks_peer_down_transitions",
                "Times the failure detector called the peer down (up to down) since this node started.", downs));
        ledbat(out, st);
        List<GaugeDataPointSnapshot> blocks = new ArrayList<>();
        List<GaugeDataPointSnapshot> bytes = new ArrayList<>();
        s.placed().forEach((region, p) -> {
            blocks.add(g(p.blocks(), "region", region));
            bytes.add(g(p.bytes(), "region", region));
        });
        out.metricSnapshot(gauge("geoblocks_placed_blocks",
                "Block replicas that the manifests known at this node place at each region.", null, blocks));
        out.metricSnapshot(gauge("geoblocks_placed_bytes",
                "Bytes of the block replicas that the manifests known at this node place at each region.", Unit.BYTES,
                bytes));
        out.metricSnapshot(gauge("geoblocks_files", "Files (manifests) known at this node.", null, List.of(g(s.files()))));
        out.metricSnapshot(gauge("geoblocks_layout_version",
                "Version of the cluster layout this node acts on (0: its static config).", null,
                List.of(g(s.layout().version()))));
        rebalance(out, s.layout());
        out.metricSnapshot(gauge("geoblocks_tombstones",
                "Deleted names whose tombstone this node keeps until every region acknowledged it.", null,
                List.of(g(s.tombstones().kept()))));
        out.metricSnapshot(counter("geoblocks_tombstones_collected",
                "Tombstones this node dropped: every region had acknowledged them, or the tombstone retention expired.",
                List.of(c(s.tombstones().collectedAcknowledged(), "reason", "acknowledged"),
                        c(s.tombstones().collectedExpired(), "reason", "expired"))));
        out.metricSnapshot(counter("geoblocks_scrub_verified_blocks", "Blocks the scrubber read and verified.",
                List.of(c(st.scrubbed()))));
        out.metricSnapshot(counter("geoblocks_scrub_repaired_blocks", "Corrupt or missing replicas the scrubber repaired.",
                List.of(c(st.repaired()))));
        out.metricSnapshot(counter("geoblocks_scrub_unrepairable_blocks",
                "Replicas the scrubber found bad and could not repair.", List.of(c(st.unrepairable()))));
        scrub(out, s.scrub());
        gc(out, st.gc());
        out.metricSnapshot(gauge("geoblocks_memory_budget_used_bytes",
                "Transfer memory in use (uploads, replicas, downloads, manifests in flight).", Unit.BYTES,
                List.of(g(s.memoryUsedBytes()))));
        out.metricSnapshot(gauge("geoblocks_memory_budget_capacity_bytes",
                "Transfer memory budget; client work may fill three quarters of it, then waits in the admission queue.",
                Unit.BYTES, List.of(g(s.memoryCapacityBytes()))));
        admission(out, s.admission());
        out.metricSnapshot(gauge("geoblocks_background_queued_bytes",
                "Background block bytes still to be acknowledged by peers.", Unit.BYTES,
                List.of(g(st.background().queuedBytes()))));
        out.metricSnapshot(gauge("geoblocks_background_queued_copies",
                "Replica copies the replication queue still owes.", null, List.of(g(st.background().queuedCopies()))));
        return out.build();
    }

    private static void admission(MetricSnapshots.Builder out, AdmissionQueue.Stats a) {
        out.metricSnapshot(counter("geoblocks_admission_admitted",
                "Client requests given transfer memory: at once (wait=none) or after waiting in the admission queue"
                        + " (wait=queued; a request may wait more than once).",
                List.of(c(a.admittedAtOnce(), "wait", "none"), c(a.admittedAfterWait(), "wait", "queued"))));
        out.metricSnapshot(counter("geoblocks_admission_wait_seconds",
                "Time requests spent waiting in the admission queue, admitted or refused.", Unit.SECONDS,
                List.of(c(a.waitedNanos() / 1e9))));
        out.metricSnapshot(gauge("geoblocks_admission_max_wait_seconds",
                "Longest wait of a request admitted from the admission queue since the node started.", Unit.SECONDS,
                List.of(g(a.maxWaitedNanos() / 1e9))));
        out.metricSnapshot(counter("geoblocks_admission_refused",
                "Client requests refused for lack of transfer memory: after waiting geoblocks.node.admission.wait"
                        + " (deadline), at once with the queue full (queue_full), or needing more than the client share"
                        + " (too_large).",
                List.of(c(a.refusedTimeout(), "reason", "deadline"), c(a.refusedFull(), "reason", "queue_full"),
                        c(a.refusedTooLarge(), "reason", "too_large"))));
        out.metricSnapshot(gauge("geoblocks_admission_waiting", "Requests waiting in the admission queue now.", null,
                List.of(g(a.waiting()))));
        out.metricSnapshot(gauge("geoblocks_admission_waiting_bytes",
                "Transfer memory the requests in the admission queue wait for.", Unit.BYTES, List.of(g(a.waitingBytes()))));
    }

    private static void scrub(MetricSnapshots.Builder out, NodeSnapshot.Scrub sc) {
        out.metricSnapshot(counter("geoblocks_scrub_passes", "Scrubber passes over this node's blocks finished since it started.",
                List.of(c(sc.passes()))));
        out.metricSnapshot(gauge("geoblocks_scrub_pass_running", "1 while a scrubber pass is running, else 0.", null,
                List.of(g(sc.running() ? 1 : 0))));
        out.metricSnapshot(gauge("geoblocks_scrub_pass_blocks",
                "Blocks the scrubber checked (verified, repaired or found unrepairable) in the running pass, else in the"
                        + " last one.", null, List.of(g(sc.passBlocks()))));
        if (sc.passStartMillis() >= 0) {
            out.metricSnapshot(gauge("geoblocks_scrub_pass_start_timestamp_seconds",
                    "When the running or last scrubber pass started (Unix time).", Unit.SECONDS,
                    List.of(g(sc.passStartMillis() / 1000.0))));
        }
        if (sc.lastPassEndMillis() >= 0) {
            out.metricSnapshot(gauge("geoblocks_scrub_last_pass_end_timestamp_seconds",
                    "When the last finished scrubber pass ended (Unix time; absent until one has).", Unit.SECONDS,
                    List.of(g(sc.lastPassEndMillis() / 1000.0))));
        }
    }

    private static void gc(MetricSnapshots.Builder out, ClientOp.Gc gc) {
        out.metricSnapshot(counter("geoblocks_gc_collected_blocks",
                "Blocks the block collector deleted (no kept version placed them here, nothing in flight named them,"
                        + " older than the grace), over this node's life.", List.of(c(gc.collectedBlocks()))));
        out.metricSnapshot(counter("geoblocks_gc_collected_bytes",
                "Data bytes of the blocks the block collector deleted, over this node's life.", Unit.BYTES,
                List.of(c(gc.collectedBytes()))));
        out.metricSnapshot(counter("geoblocks_gc_passes", "Block collection sweeps finished since the node started.",
                List.of(c(gc.passes()))));
        out.metricSnapshot(gauge("geoblocks_gc_pass_in_flight_blocks",
                "Blocks older than the grace that the running (else the last) sweep kept because an upload, move or"
                        + " queued copy of their file is in flight.", null, List.of(g(gc.passInFlight()))));
        out.metricSnapshot(gauge("geoblocks_gc_paused",
                "1 while block collection is paused because a peer is down, else 0.", null,
                List.of(g(gc.settledSinceMillis() < 0 ? 1 : 0))));
        out.metricSnapshot(gauge("geoblocks_moves_in_flight",
                "Moves this node coordinates, kept in its metadata engine until they end.", null, List.of(g(gc.moves()))));
    }

    private static void requests(MetricSnapshots.Builder out, RequestStats.Snapshot r) {
        List<CounterDataPointSnapshot> counts = new ArrayList<>();
        r.counts().forEach((op, byResult) -> byResult.forEach((result, n) -> counts.add(c(n, "op", op, "result", result))));
        out.metricSnapshot(counter("geoblocks_requests", "Client requests this node finished, by operation and result.",
                counts));
        double[] bounds = new double[RequestStats.BOUNDS_SECONDS.size() + 1];
        for (int i = 0; i < RequestStats.BOUNDS_SECONDS.size(); i++) {
            bounds[i] = RequestStats.BOUNDS_SECONDS.get(i);
        }
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        HistogramSnapshot.Builder h = HistogramSnapshot.builder().name("geoblocks_request_duration_seconds")
                .help("Time from a client request's first message to the node's last answer, by operation.")
                .unit(Unit.SECONDS);
        for (Map.Entry<String, RequestStats.Histogram> e : r.latency().entrySet()) {
            long[] counts2 = e.getValue().counts().stream().mapToLong(Long::longValue).toArray();
            h.dataPoint(HistogramDataPointSnapshot.builder().classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts2))
                    .sum(e.getValue().sumSeconds()).labels(Labels.of("op", e.getKey())).build());
        }
        out.metricSnapshot(h.build());
    }

    private static void transfers(MetricSnapshots.Builder out, Transfers t) {
        out.metricSnapshot(counter("geoblocks_transfer_sent_bytes",
                "Block bytes sent to other nodes, by transport and traffic class.", Unit.BYTES, List.of(
                        c(t.foregroundSent(), "transport", "tcp", "class", "foreground"),
                        c(t.tcpBackgroundSent(), "transport", "tcp", "class", "background"),
                        c(t.ledbatSent(), "transport", "ledbat", "class", "background"))));
        out.metricSnapshot(counter("geoblocks_transfer_received_bytes",
                "Block bytes received from other nodes, by transport and traffic class.", Unit.BYTES, List.of(
                        c(t.foregroundReceived(), "transport", "tcp", "class", "foreground"),
                        c(t.tcpBackgroundReceived(), "transport", "tcp", "class", "background"),
                        c(t.ledbatReceived(), "transport", "ledbat", "class", "background"))));
    }

    private static void peers(MetricSnapshots.Builder out, List<PeerRtt> peers) {
        List<GaugeDataPointSnapshot> up = new ArrayList<>();
        List<GaugeDataPointSnapshot> rtt = new ArrayList<>();
        for (PeerRtt p : peers) {
            up.add(g(p.rttMs() >= 0 ? 1 : 0, "peer", p.region()));
            if (p.rttMs() >= 0) {
                rtt.add(g(p.rttMs() / 1000.0, "peer", p.region()));
            }
        }
        out.metricSnapshot(gauge("geoblocks_peer_up",
                "1 when the peer is up (RTT measured, not silent to the failure detector), else 0.", null, up));
        out.metricSnapshot(gauge("geoblocks_peer_rtt_seconds", "Median measured RTT to each peer that is up.",
                Unit.SECONDS, rtt));
    }

    private static void ledbat(MetricSnapshots.Builder out, StatusReply st) {
        List<GaugeDataPointSnapshot> cwnd = new ArrayList<>();
        List<GaugeDataPointSnapshot> queuing = new ArrayList<>();
        List<GaugeDataPointSnapshot> base = new ArrayList<>();
        List<GaugeDataPointSnapshot> rtt = new ArrayList<>();
        List<GaugeDataPointSnapshot> inFlight = new ArrayList<>();
        List<GaugeDataPointSnapshot> active = new ArrayList<>();
        List<CounterDataPointSnapshot> retx = new ArrayList<>();
        List<GaugeDataPointSnapshot> mtu = new ArrayList<>();
        List<GaugeDataPointSnapshot> stalled = new ArrayList<>();
        for (LedbatPeer p : st.background().peers()) {
            stalled.add(g(p.stalledForMs() / 1000.0, "peer", p.region()));
            if (p.pathMtuBytes() > 0) {
                mtu.add(g(p.pathMtuBytes(), "peer", p.region()));
            }
            cwnd.add(g(p.cwndBytes(), "peer", p.region()));
            inFlight.add(g(p.inFlightBytes(), "peer", p.region()));
            active.add(g(p.active() ? 1 : 0, "peer", p.region()));
            retx.add(c(p.retransmissions(), "peer", p.region()));
            addMs(queuing, p.queuingDelayMs(), p.region());
            addMs(base, p.baseDelayMs(), p.region());
            addMs(rtt, p.rttMs(), p.region());
        }
        out.metricSnapshot(gauge("geoblocks_ledbat_cwnd_bytes", "LEDBAT congestion window of the flow to each peer.",
                Unit.BYTES, cwnd));
        out.metricSnapshot(gauge("geoblocks_ledbat_in_flight_bytes", "LEDBAT bytes sent and not yet acknowledged, per peer.",
                Unit.BYTES, inFlight));
        out.metricSnapshot(gauge("geoblocks_ledbat_flow_active", "1 while a LEDBAT flow to the peer is running.", null,
                active));
        out.metricSnapshot(gauge("geoblocks_ledbat_queuing_delay_seconds",
                "LEDBAT queuing delay estimate per peer (RFC 6817 section 2.4.2; absent until measured).", Unit.SECONDS,
                queuing));
        out.metricSnapshot(gauge("geoblocks_ledbat_base_delay_seconds",
                "LEDBAT base one-way delay per peer (includes the hosts' clock offset; absent until measured).",
                Unit.SECONDS, base));
        out.metricSnapshot(gauge("geoblocks_ledbat_rtt_seconds", "LEDBAT round-trip time per peer (absent until measured).",
                Unit.SECONDS, rtt));
        out.metricSnapshot(counter("geoblocks_ledbat_retransmissions", "LEDBAT packets sent again, per peer.", retx));
        out.metricSnapshot(gauge("geoblocks_ledbat_stalled_seconds",
                "How long the LEDBAT flow to each peer has had bytes waiting with next to none acknowledged (under 128 KiB"
                        + " in 30 s); 0 while it flows. A path that drops large datagrams, or a peer that stopped reading.",
                Unit.SECONDS, stalled));
        out.metricSnapshot(gauge("geoblocks_ledbat_path_mtu_bytes",
                "Path MTU to each peer confirmed by LEDBAT's search (RFC 8899), in UDP payload bytes: its largest "
                        + "datagram to the peer (IPv4 adds 28 bytes of headers, IPv6 48).", Unit.BYTES, mtu));
    }

    private static void addMs(List<GaugeDataPointSnapshot> to, double ms, String peer) {
        if (!Double.isNaN(ms)) {
            to.add(g(ms / 1000.0, "peer", peer));
        }
    }

    /** What the node's rebalancer did and found (see NodeSnapshot.Layout and docs/operations.md). */
    private static void rebalance(MetricSnapshots.Builder out, NodeSnapshot.Layout l) {
        out.metricSnapshot(gauge("geoblocks_drain_moves_started",
                "Moves this node started since it started to empty draining regions (a count; see docs/operations.md).",
                null, List.of(g(l.drainMovesStarted()))));
        out.metricSnapshot(counter("geoblocks_rebalance_moves_started",
                "Moves this node started since it started: to empty draining regions (drain), to fill regions short of"
                        + " their share, such as a newcomer (fill), and to spread a version's copies over zones (zone).",
                List.of(c(l.drainMovesStarted(), "kind", "drain"), c(l.fillMovesStarted(), "kind", "fill"),
                        c(l.zoneMovesStarted(), "kind", "zone"))));
        out.metricSnapshot(counter("geoblocks_moves_committed",
                "Moves this node coordinated that committed since it started (drains, fills, zone moves and clients' moves).",
                List.of(c(l.movesCommitted()))));
        out.metricSnapshot(counter("geoblocks_moved_bytes",
                "Block bytes copied by the moves this node coordinated that committed since it started.", Unit.BYTES,
                List.of(c(l.movedBytes()))));
        if (l.drainPending() >= 0) {
            out.metricSnapshot(gauge("geoblocks_drain_pending_versions",
                    "Kept versions (current and earlier) with copies at a draining region this node found in its last pass"
                            + " over its manifests.", null, List.of(g(l.drainPending()))));
            List<GaugeDataPointSnapshot> by = new ArrayList<>();
            l.drainPendingByRegion().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> by.add(g(e.getValue(), "region", e.getKey())));
            out.metricSnapshot(gauge("geoblocks_rebalance_pending_versions",
                    "Per draining region: kept versions with a copy there, as this node's last pass counted them.", null,
                    by));
        }
        if (l.fillPendingBytes() >= 0) {
            List<GaugeDataPointSnapshot> by = new ArrayList<>();
            by.add(g(l.fillPendingBytes()));
            out.metricSnapshot(gauge("geoblocks_rebalance_pending_bytes",
                    "Bytes of spread copies the short regions (a newcomer) lacked of their share at this node's last pass:"
                            + " what still has to move to them.", Unit.BYTES, by));
            List<GaugeDataPointSnapshot> shortBy = new ArrayList<>();
            l.shortBytes().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> shortBy.add(g(e.getValue(), "region", e.getKey())));
            out.metricSnapshot(gauge("geoblocks_rebalance_short_bytes",
                    "Per region short of its share of spread copies: the bytes it lacks (as this node's last pass counted).",
                    Unit.BYTES, shortBy));
        }
    }

    /** A gauge family; {@code unit} may be null (none), as the builder's default is. */
    private static GaugeSnapshot gauge(String name, String help, Unit unit, List<GaugeDataPointSnapshot> points) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help).unit(unit);
        points.forEach(b::dataPoint);
        return b.build();
    }

    private static CounterSnapshot counter(String name, String help, List<CounterDataPointSnapshot> points) {
        return counter(name, help, null, points);
    }

    private static CounterSnapshot counter(String name, String help, Unit unit, List<CounterDataPointSnapshot> points) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help).unit(unit);
        points.forEach(b::dataPoint);
        return b.build();
    }

    private static GaugeDataPointSnapshot g(double v, String... labels) {
        return GaugeDataPointSnapshot.builder().value(v).labels(Labels.of(labels)).build();
    }

    private static CounterDataPointSnapshot c(double v, String... labels) {
        return CounterDataPointSnapshot.builder().value(v).labels(Labels.of(labels)).build();
    }
}
