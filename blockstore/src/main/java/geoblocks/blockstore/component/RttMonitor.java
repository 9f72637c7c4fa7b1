package geoblocks.blockstore.component;

import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RoundTrip;
import geoblocks.blockstore.core.RttEstimator;
import geoblocks.blockstore.core.RttMatrixView;
import geoblocks.blockstore.core.RttRow;
import geoblocks.blockstore.core.RttSpikeFilter;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.placement.LoadMeter;
import geoblocks.blockstore.core.liveness.ProbePlan;
import geoblocks.blockstore.core.liveness.DetectorSettings;
import geoblocks.blockstore.core.liveness.PhiAccrualDetector;
import geoblocks.blockstore.core.placement.NodeLoad;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.port.RttPort.Heard;
import geoblocks.blockstore.port.RttPort.RttUpdate;
import geoblocks.blockstore.wire.RttProbe;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerVersions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The RTT monitor: pings the other nodes over UDP each probe interval (not those that sent it
 * something on their own since the last round, see {@link ProbePlan}), answers their pings, keeps
 * a median-filtered estimate per peer without spikes ({@link RttEstimator}, {@link RttSpikeFilter}),
 * measured from the times the network stamps as it writes and reads the probes, less the time the peer
 * held the ping ({@link RttProbe#roundTripNanos}), and publishes an {@link RttTable}
 * after every round. Whether a peer is up is the failure detector's call ({@link PhiAccrualDetector}):
 * a peer is up once three of its answers measured its RTT and while it is not silent, where every
 * message from it counts (its pings, its pongs, and what the file service reports as {@link Heard}:
 * file-protocol messages, LEDBAT data and acknowledgements). It counts each peer's transitions from
 * up to down and passes the totals on with every update. With a {@link LoadMeter} its
 * pings and pongs also carry this node's load (disk space, recent block I/O), and every update
 * passes on the loads heard since the previous one. With a load, its probes also carry this node's
 * {@link RttRow}; the rows peers send make the cluster's RTT matrix ({@link RttMatrixView}) that
 * every update carries. A peer's row is stale after {@link #STALE_ROUNDS} probe intervals.
 */
public final class RttMonitor extends ComponentDefinition {
    /** Probe intervals after which a peer's row in the matrix is stale. */
    static final int STALE_ROUNDS = 3;
    private final Negative<RttPort> rttPort = provides(RttPort.class);
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final NetAddress self;
    private final String region;
    private final Map<String, NetAddress> peers;
    private final Map<NetAddress, String> regionByAddress = new HashMap<>();
    private final Map<String, RttEstimator> estimators = new LinkedHashMap<>();
    private final Map<String, PhiAccrualDetector> detectors = new HashMap<>();
    /** Peers up at the last table, and each peer's transitions from up to down since start. */
    private final Set<String> wasUp = new TreeSet<>();
    private final Map<String, Long> downTransitions = new TreeMap<>();
    private final long intervalMs;
    /** Which peers to ping at a round: not those that sent us something on their own since the last. */
    private final ProbePlan plan;
    /** This node's load gauge, or null (probes then carry no load). */
    private final LoadMeter meter;
    /** Loads reported since the last RttUpdate, this node's own included. */
    private final Map<String, NodeLoad> freshLoads = new HashMap<>();
    private RttMatrixView matrix;
    private final NodeSettings settings;
    /** Whether the network's send stamps count: not through an emulated WAN, which delays probes before the network. */
    private final boolean networkStamps;

    /** {@code probe} as it goes: without the network's send stamp behind an emulated WAN (its delay is the path's). */
    private RttProbe stamped(RttProbe probe) {
        return networkStamps ? probe : probe.unstamped();
    }

    /** The RTT probe version agreed with each peer (its TCP handshake's). */
    private final PeerVersions versions;
    private final DetectorSettings detector;
    private NodeLoad mine;
    /** This node's RTT row as of the last round, sent with its load; null without a meter. */
    private RttRow myRow;
    private long seq;

    public RttMonitor(RttMonitorInit init) {
        this.self = init.self;
        this.region = init.region;
        this.peers = new LinkedHashMap<>();
        this.intervalMs = init.settings.probeIntervalMs();
        this.plan = new ProbePlan(region, intervalMs * 1_000_000L);
        this.meter = init.meter;
        this.settings = init.settings;
        this.versions = init.versions;
        this.networkStamps = init.networkStamps;
        this.detector = init.detector;
        members(init.peers);
        onStart(s -> {
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(0, intervalMs);
            spt.setTimeoutEvent(new Round(spt));
            trigger(spt, timer);
        });
        handle(timer, Round.class, r -> probeAll());
        handle(net, RttProbe.class, this::onProbe);
        handle(rttPort, RttPort.Members.class, m -> members(m.peers()));
        handle(rttPort, Heard.class, h -> {
            PhiAccrualDetector d = detectors.get(h.region());
            if (d != null) {
                plan.heard(h.region());
                heard(h.region(), d, h.atNanos());
            }
        });
    }

    /**
     * Probes {@code members} from now on (the cluster layout changed): a new peer starts with no
     * samples (down until it answers), a peer that left is forgotten, a peer at a new address is
     * probed there.
     */
    private void members(Map<String, NetAddress> members) {
        if (matrix != null && members.equals(peers)) {
            return; // unchanged (a node alone starts with no peers and still needs its matrix)
        }
        estimators.keySet().retainAll(members.keySet());
        detectors.keySet().retainAll(members.keySet());
        wasUp.retainAll(members.keySet());
        peers.clear();
        peers.putAll(members);
        regionByAddress.clear();
        peers.forEach((r, a) -> {
            regionByAddress.put(a, r);
            estimators.computeIfAbsent(r, x -> new RttEstimator(settings.rttWindow(), settings.downAfterMs() * 1_000_000L,
                    RttSpikeFilter.defaults()));
            detectors.computeIfAbsent(r, x -> new PhiAccrualDetector(detector, intervalMs * 1_000_000L,
                    settings.downAfterMs() * 1_000_000L));
            downTransitions.putIfAbsent(r, 0L);
        });
        List<String> regions = new ArrayList<>(peers.keySet());
        regions.add(region);
        regions.sort(null);
        this.matrix = new RttMatrixView(region, regions, STALE_ROUNDS * intervalMs * 1_000_000L);
    }

    /** Proof of life from {@code peer}; a peer that was down and is now up is published at once. */
    private void heard(String peer, PhiAccrualDetector d, long at) {
        d.heard(at);
        long now = System.nanoTime();
        if (!wasUp.contains(peer) && isUp(peer, now)) {
            publish(table(now), now);
        }
    }

    private void probeAll() {
        long now = System.nanoTime();
        seq++;
        RttTable table = table(now);
        if (meter != null) {
            mine = meter.sample(now);
            myRow = RttRow.of(table);
            freshLoads.put(region, mine);
        }
        for (Map.Entry<String, NetAddress> peer : peers.entrySet()) {
            if (plan.shouldPing(peer.getKey(), table.isUp(peer.getKey()), now)) {
                trigger(stamped(new RttProbe(new NetHeader(self, peer.getValue(), Transport.UDP), false, seq, now, mine, myRow)
                        .at(versions.versionFor(peer.getValue(), RttProbe.CODEC_ID, RttProbe.VERSIONS)).fitted()), net);
            }
        }
        publish(table, now);
    }

    private void publish(RttTable table, long now) {
        for (String peer : peers.keySet()) {
            boolean up = table.isUp(peer);
            if (!up && wasUp.remove(peer)) {
                downTransitions.merge(peer, 1L, Long::sum);
            } else if (up) {
                wasUp.add(peer);
            }
        }
        trigger(new RttUpdate(table, freshLoads, matrix.matrix(table, now), downTransitions), rttPort);
        freshLoads.clear();
    }

    private void onProbe(RttProbe p) {
        String peer = regionByAddress.get(p.getHeader().source());
        long now = System.nanoTime();
        if (peer != null && p.load() != null) {
            freshLoads.put(peer, p.load());
        }
        if (peer != null && p.row() != null) {
            matrix.onRow(peer, p.row(), now);
        }
        if (!p.isPong()) {
            // this node's load and row only to cluster members
            trigger(stamped(peer != null ? p.echo(mine, myRow).fitted() : p.echo()), net);
            if (peer != null) {
                plan.pinged(peer); // it heard from us (this answer), we from it: no ping of ours needed
                heard(peer, detectors.get(peer), now); // a ping is proof of life too
            }
            return;
        }
        if (peer == null) {
            return; // not a cluster member
        }
        long rttNanos = p.roundTripNanos(now); // the network's stamps, less the peer's hold (RttProbe, RoundTrip)
        if (rttNanos != RoundTrip.NONE) {
            estimators.get(peer).onSample(rttNanos / 1e6, now);
        }
        // proof of life whatever it measured (an echo of a stale ping too); a peer that came up is told to placement at once
        heard(peer, detectors.get(peer), now);
    }

    /** Up: its RTT measured (three answers) and the failure detector does not call it down. */
    private boolean isUp(String peer, long now) {
        RttEstimator e = estimators.get(peer);
        return e.sampleCount() >= e.minSamples() && detectors.get(peer).isUp(now);
    }

    private RttTable table(long now) {
        Map<String, Double> up = new HashMap<>();
        Set<String> down = new TreeSet<>();
        estimators.forEach((r, e) -> {
            if (isUp(r, now)) {
                up.put(r, e.estimateMs());
            } else {
                down.add(r);
            }
        });
        return new RttTable(region, up, down);
    }

    static final class Round extends Timeout {
        Round(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    public static final class RttMonitorInit extends Init<RttMonitor> {
        final NetAddress self;
        final String region;
        final Map<String, NetAddress> peers;
        final NodeSettings settings;
        final LoadMeter meter;
        final DetectorSettings detector;
        /** The version of the RTT probe each peer's handshake agreed (nothing fills it unless set: version 1 for all). */
        PeerVersions versions = new PeerVersions();

        /** Whether the network's send stamps count (false behind an emulated WAN, see RttMonitor#stamped). */
        boolean networkStamps = true;

        /** Takes the network's send stamps as the probes' send times, or not ({@code false}: behind an emulated WAN). */
        public RttMonitorInit withNetworkStamps(boolean use) {
            this.networkStamps = use;
            return this;
        }

        /** Probes each peer at the RTT probe version {@code versions} holds for it (see PeerVersions). */
        public RttMonitorInit withVersions(PeerVersions versions) {
            this.versions = versions;
            return this;
        }

        /** {@code peers}: every other node by region (self excluded); probes carry no load. */
        public RttMonitorInit(NetAddress self, String region, Map<String, NetAddress> peers, NodeSettings settings) {
            this(self, region, peers, settings, null);
        }

        /** As above, with this node's load from {@code meter} in every probe. */
        public RttMonitorInit(NetAddress self, String region, Map<String, NetAddress> peers, NodeSettings settings,
                LoadMeter meter) {
            this(self, region, peers, settings, meter, DetectorSettings.DEFAULTS);
        }

        /** As above, with the failure detector's settings. */
        public RttMonitorInit(NetAddress self, String region, Map<String, NetAddress> peers, NodeSettings settings,
                LoadMeter meter, DetectorSettings detector) {
            this.detector = detector;
            this.self = self;
            this.region = region;
            this.peers = Map.copyOf(peers);
            this.settings = settings;
            this.meter = meter;
        }
    }
}
