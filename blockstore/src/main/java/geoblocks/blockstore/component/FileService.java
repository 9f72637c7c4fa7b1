package geoblocks.blockstore.component;

import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.meta.MetaGcTotals;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.port.TransferMemoryPort;
import geoblocks.blockstore.port.BlockStorePort;
import geoblocks.blockstore.port.PlacementPort;
import geoblocks.blockstore.port.BlockStorePort.BlockFilesListed;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlocksCollected;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.port.RttPort.RttUpdate;
import geoblocks.blockstore.core.RequestStats;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.port.OpsPort;
import geoblocks.blockstore.port.AdminOpsPort;
import geoblocks.blockstore.port.BenchOpsPort;
import geoblocks.blockstore.port.ClientOpsPort;
import geoblocks.blockstore.port.Forbidden;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.port.PeerOpsPort;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.*;
import geoblocks.blockstore.wire.FileOp.*;
import geoblocks.blockstore.wire.PeerOp.*;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import se.sics.kompics.network.Transport;
import geoblocks.ledbat.port.DataReceived;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.ledbat.port.PeerStats;
import geoblocks.ledbat.port.SendProgress;
import geoblocks.ledbat.port.StreamClosed;
import geoblocks.ledbat.port.StreamFailed;
import geoblocks.ledbat.port.StreamOpened;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.timer.CancelPeriodicTimeout;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The file service of a node, as glue: it routes the file ops its doors admitted ({@link FileIngress}: the
 * client, peer, admin and bench ports) to the part that handles them, door by door ({@link RequestRoutes}:
 * uploads, downloads, client requests, the replica server, background transfers, ...; the peer requests the
 * peer service took over never reach it), runs their timers,
 * follows the layout the membership component announces ({@link LayoutFollower}), the RTT monitor's table
 * and the network's connection failures, and passes LEDBAT's indications to the background transfers. The parts share a {@link NodeContext};
 * their decisions live in pure core classes. A message that cannot be handled is answered with
 * {@link Failed} or dropped; it never stops the component.
 */
public final class FileService extends ComponentDefinition {
    private static final Logger LOG = LoggerFactory.getLogger(FileService.class);
    /** Request id of connection warm-ups; real ids start at 1. */
    static final long WARM_UP = PeerFailures.WARM_UP;
    /** Finished requests the snapshot lists; a request unanswered this long counts as abandoned. */
    private static final int RECENT_REQUESTS = 30;
    private static final long ABANDONED_NANOS = 10 * 60 * 1_000_000_000L;

    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final Positive<BlockStorePort> store = requires(BlockStorePort.class);
    private final Positive<RttPort> rttPort = requires(RttPort.class);
    /** Background block streams (scrub repair, re-replication, async replicas) when background-transport = ledbat. */
    private final Positive<LedbatPort> ledbat = requires(LedbatPort.class);
    /** Connection failures (NettyNetwork); left unconnected in the simulator. */
    private final Positive<NetworkControl> control = requires(NetworkControl.class);
    /** Where blocks go: every upload and re-replication asks the placement component. */
    private final Positive<PlacementPort> placementPort = requires(PlacementPort.class);
    private final ManifestStore manifests;
    /** Holds what follows a manifest write until a metadata sync covers it. */
    private final GroupCommit commit;
    /** A {@link NodeSnapshot} about once a second, for the operator's HTTP server; unconnected in the simulator. */
    private final Negative<OpsPort> ops = provides(OpsPort.class);
    /** The layout this node acts on, from the membership component; it asks here for figures to answer {@code cluster}. */
    private final Positive<LayoutPort> layoutIn = requires(LayoutPort.class);
    /** The file messages the ingress admitted, family by family (see {@link FileIngress}). */
    private final Positive<ClientOpsPort> clientOps = requires(ClientOpsPort.class);
    private final Positive<PeerOpsPort> peerOps = requires(PeerOpsPort.class);
    private final Positive<AdminOpsPort> adminOps = requires(AdminOpsPort.class);
    private final Positive<BenchOpsPort> benchOps = requires(BenchOpsPort.class);
    /** Transfer memory the peer service released: client requests waiting for memory are admitted. */
    private final Positive<TransferMemoryPort> memory = requires(TransferMemoryPort.class);

    private final NodeContext node;
    /**
     * The series of this component's request ids: a reply (on the peer port) or a block-store answer of another
     * series is another component's (the peer service's).
     */
    private final RequestIds ids;
    private final PeerFailures failures;
    /** The node's counters, shared with the peer service ({@link NodeWide}). */
    private final TransferCounters counters;
    private final BackgroundTransfers background;
    private final RefusedInput refused;
    private final Replicator replicator;
    private final Uploads uploads;
    private final Downloads downloads;
    private final ReplicaServer replicas;
    private final Scrubber scrubber;
    private final AntiEntropy antiEntropy;
    /** The layout as the membership component announces it, and what this node decides with it. */
    private final LayoutFollower follower;
    private final Rereplicator rereplicator;
    private final ClientRequests requests;
    private final Migrations migrations;
    private final Rebalancer rebalancer;
    private final BlockGc gc;
    private final NetBench netBench;
    /** The part that handles each request, door by door ({@link RequestRoutes}). */
    private final OpHandlers clientRoutes;
    private final OpHandlers peerRoutes;
    private final OpHandlers adminRoutes;
    private final OpHandlers benchRoutes;
    /** What every tick runs. */
    private final Housekeeping housekeeping;
    /** The bench net pacing timer while a UDP test sends, else null. */
    private java.util.UUID pacingTimer;
    private final RequestStats requestStats = new RequestStats(RECENT_REQUESTS);
    private final RequestTiming timing = new RequestTiming(requestStats);
    /** Proof of life for the failure detector, foreground traffic for LEDBAT. */
    private final PeerSignals signals;
    /** LEDBAT bytes each peer acknowledged, to see it progress between two PeerStats. */
    private final geoblocks.blockstore.core.ProgressWatch<NetAddress> ledbatAcked = new geoblocks.blockstore.core.ProgressWatch<>();
    /** The tick, fast while this component works, slow once idle. */
    private final PacedTick ticks = new PacedTick(e -> trigger(e, timer), Tick::new);

    public FileService(FileServiceInit init) {
        NodeSettings settings = init.settings;
        this.manifests = init.manifests;
        this.ids = init.ids;
        this.counters = init.shared.counters();
        if (manifests.engine().syncs()) {
            manifests.deferSyncs(); // group commit: see GroupCommit
        }
        this.node = new NodeContext(init.self, init.region, init.cluster, settings, init.manifests, init.seed, init.shared,
                this::gated, e -> {
                    if (e instanceof BlockStorePort.DeleteBlocks) {
                        gated(e);
                    } else {
                        trigger(e, store);
                    }
                }, e -> trigger(e, placementPort), init.policies);
        node.requestIds(ids);
        this.commit = new GroupCommit(node, manifests, this::emit, e -> trigger(e, store), RequestIds.alone());
        this.signals = new PeerSignals(init.region, node::regionOf, node::now, init.shared, e -> trigger(e, rttPort),
                e -> trigger(e, ledbat));
        this.failures = new PeerFailures(node);
        node.timer(e -> trigger(e, timer));
        node.gcGrace(init.gc.graceMs());
        node.admission(init.admission);
        node.sendBuffers(init.sendBuffers);
        node.wireVersions(init.versions);
        this.replicas = new ReplicaServer(node);
        this.background = new BackgroundTransfers(node, e -> trigger(e, ledbat), counters);
        this.refused = new RefusedInput(init.region, () -> background.refused, init.shared);
        BackgroundTransfers viaLedbat = settings.backgroundOverLedbat() ? background : null;
        BlockPull pulls = new BlockPull(node, viaLedbat);
        this.scrubber = new Scrubber(node, settings.scrubBytesPerSecond(), settings.scrubPassIntervalMs() * 1_000_000L,
                pulls);
        ReplicaCopy copies = new ReplicaCopy(node, viaLedbat);
        this.rereplicator = new Rereplicator(node, settings.replaceAfterMs() * 1_000_000L, copies);
        this.replicator = new Replicator(node, init.replicationQueue, init.resumedCopies, copies);
        this.uploads = new Uploads(node, replicator, Math.max(1000, init.gc.graceMs() / 4) * 1_000_000L);
        this.downloads = new Downloads(node);
        this.antiEntropy = new AntiEntropy(node, settings.antiEntropyIntervalMs() * 1_000_000L, init.manifests.names() == 0);
        node.createsReady(antiEntropy::notReadyToDecideCreates);
        // the stored layout, until the membership component announces another
        node.layout(java.util.Objects.requireNonNull(init.layout, "the layout to start with (FileServiceInit#withLayout)"));
        this.follower = new LayoutFollower(node, antiEntropy::syncedWithEveryPeerStartedSince);
        node.handover(follower::refusal);
        node.layoutReports(follower::reportedWithSelf);
        antiEntropy.onExchange(follower::announce);
        MemberReleases releases = new MemberReleases(init.region, init.release, init.versions);
        this.requests = new ClientRequests(node, replicator, scrubber, background, counters, refused);
        this.migrations = new Migrations(node, pulls, this::gated,
                Math.max(1000, init.gc.graceMs() / 4) * 1_000_000L);
        try {
            // the machine's clock, not node.wallMillis() (which adds the configured clock offset): the
            // cutoff is compared with block files' modification times
            this.gc = new BlockGc(node, init.gc, node::machineMillis, e -> {
                if (e instanceof BlockStorePort.CollectBlocks) {
                    gated(e); // judged on the manifests written so far: only once they are durable
                } else {
                    trigger(e, store);
                }
            },
                    new MetaGcTotals(init.manifests.engine()), replicator::owes, antiEntropy::syncedWithEveryPeerSince);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("reading the block collection totals failed", e);
        }
        requests.gcStatus(() -> gc.status(migrations.moves()));
        requests.versionsStatus(() -> new geoblocks.blockstore.wire.ClientOp.Versions(init.build,
                node.layout().clusterVersion().toString(), releases.finalizeNote(node.layout(), node::addressOrNull),
                releases.builds(node.layout(), init.build, node::addressOrNull)));
        this.rebalancer = new Rebalancer(node, migrations);
        node.rebalance(rebalancer::figures);
        this.netBench = new NetBench(node, (to, op) -> gated(FileMsg.to(init.versions, new NetHeader(init.self, to, Transport.UDP), op)),
                e -> trigger(e, ledbat), this::pacing);
        NodeParts parts = new NodeParts(uploads, downloads, replicas, background, scrubber, rereplicator,
                replicator, migrations, gc, antiEntropy, requests, netBench);
        this.clientRoutes = RequestRoutes.client(node, parts);
        this.peerRoutes = RequestRoutes.peer(parts);
        this.adminRoutes = RequestRoutes.admin(parts);
        this.benchRoutes = RequestRoutes.bench(parts);
        this.housekeeping = new Housekeeping(node, parts, refused, () -> trigger(new BlockStorePort.CheckDisks(), store),
                now -> {
                    rebalancer.tick();
                    publishSnapshot(now);
                });
        on(timer, BenchTick.class, t -> netBench.pace());
        onStart(s -> ticks.start());
        on(timer, Tick.class, t -> tick());
        on(layoutIn, LayoutPort.LayoutChanged.class, c -> layoutChanged(c.layout()));
        on(layoutIn, LayoutPort.LayoutReports.class, r -> follower.reports(r.reported()));
        on(layoutIn, LayoutPort.FiguresWanted.class, w -> trigger(clusterFigures(w.id()), layoutIn));
        on(store, BlockStorePort.MetaSynced.class, commit::onSynced);
        on(timer, NodeContext.Wakeup.class, node::wake);
        on(rttPort, RttUpdate.class, u -> {
            node.setRttMatrix(u.matrix());
            node.setDownTransitions(u.downTransitions());
            onRtt(u.table());
        });
        on(control, ConnectionStatus.Dropped.class, failures::dropped);
        on(control, NetworkException.class, e -> {
            refused.linkFailed(); // our own link: not input anyone sent
            failures.unreachable(e);
        });
        on(placementPort, PlacementPort.Placed.class, node.placements()::onPlaced);
        on(placementPort, PlacementPort.PlacementRefused.class, node.placements()::onRefused);
        on(store, BlockStored.class, node::stored);
        on(store, BlockRead.class, node::read);
        on(store, BlockFilesListed.class, l -> gc.onListed(l));
        on(store, BlocksCollected.class, c -> gc.onCollected(c));
        on(store, BlockStorePort.DisksLost.class, this::onDisksLost);
        on(memory, TransferMemoryPort.Released.class, r -> { }); // what it released admits waiting clients: see on()
        on(clientOps, ClientOpsPort.Arrived.class, a -> {
            Failed refused = SyncFaultRefusal.of(a.op(), commit.fault(node.now()));
            if (refused != null) {
                node.send(a.from(), refused);
            } else {
                onMsg(a.from(), a.op(), clientRoutes);
            }
        });
        on(peerOps, PeerOpsPort.Arrived.class, a -> onMsg(a.from(), a.op(), peerRoutes));
        on(adminOps, AdminOpsPort.Arrived.class, a -> onMsg(a.from(), a.op(), adminRoutes));
        on(benchOps, BenchOpsPort.Arrived.class, a -> onMsg(a.from(), a.op(), benchRoutes));
        on(adminOps, Forbidden.class, this::onForbidden);
        on(ledbat, StreamOpened.class, o -> {
            ticks.activity(node.now());
            if (!netBench.onOpened(o)) {
                background.onOpened(o);
            }
        });
        on(ledbat, SendProgress.class, p -> {
            ticks.activity(node.now());
            if (!netBench.onProgress(p)) {
                background.onProgress(p);
            }
        });
        on(ledbat, DataReceived.class, d -> {
            ticks.activity(node.now());
            signals.heard(d.peer());
            if (!netBench.claims(d)) {
                background.onData(d);
            }
        });
        on(ledbat, StreamClosed.class, c -> {
            if (!netBench.onClosed(c)) {
                background.onClosed(c);
            }
        });
        on(ledbat, StreamFailed.class, f -> {
            if (!netBench.onFailed(f)) {
                background.onFailed(f);
            }
        });
        on(ledbat, PeerStats.class, s -> {
            for (PeerStats.Peer p : s.peers()) {
                if (ledbatAcked.advanced(p.peer(), p.ackedBytes())) {
                    signals.heard(p.peer()); // the peer acknowledged LEDBAT data since the last stats
                }
            }
            background.onPeerStats(s);
        });
    }

    /**
     * Subscribes {@code handler}; after each event, client requests waiting for transfer memory are
     * admitted, in order, if the event (or the peer service, {@link TransferMemoryPort}) freed enough of it.
     */
    private <E extends KompicsEvent, P extends se.sics.kompics.PortType> void on(se.sics.kompics.Port<P> port,
            Class<E> type, java.util.function.Consumer<E> handler) {
        handle(port, type, e -> {
            handler.accept(e);
            if (node.admission().anyWaiting()) {
                node.admission().pump(node.now());
            }
        });
    }

    private void tick() {
        long now = node.now();
        housekeeping.tick(now);
        ticks.ticked(now, busy());
    }

    /** Work under way that needs the fast tick: memory reserved, requests waiting for it, copies owed, a bench pacing. */
    private boolean busy() {
        return node.admission().anyWaiting() || node.budget().used() > 0 || replicator.size() > 0 || pacingTimer != null;
    }

    /**
     * The node acts on layout {@code l}: its network checks the node keys it names, the RTT monitor probes its
     * members, placement skips what is not active.
     */
    private void layoutChanged(geoblocks.blockstore.core.layout.Layout l) {
        if (l != node.layout()) {
            node.layout(l);
        }
        java.util.Map<String, NetAddress> peers = new java.util.LinkedHashMap<>();
        for (String p : node.peerRegions()) {
            peers.put(p, node.addressOf(p));
        }
        trigger(new RttPort.Members(peers), rttPort);
        trigger(new PlacementPort.NotPlaceable(l.notPlaceable()), placementPort);
        java.util.Map<String, String> zones = new java.util.TreeMap<>();
        l.regions().values().forEach(r -> zones.put(r.id(), r.zone()));
        trigger(new PlacementPort.LayoutZones(zones), placementPort);
        antiEntropy.wake();
    }

    /**
     * Disks failed: their blocks are missing here now. The scrubber starts a pass at once, which
     * finds each block this node should hold and lacks and pulls it from a peer onto the disks that
     * work, as it restores a node that lost its only disk.
     */
    private void onDisksLost(BlockStorePort.DisksLost lost) {
        for (String d : lost.disks()) {
            Logs.warn(node.region() + ": lost data directory " + d + "; repairing its blocks from peers");
        }
        scrubber.startPassNow(node.now());
    }

    /** Starts or stops the 1 ms timer that paces a bench net UDP test. */
    private void pacing(boolean on) {
        if (on && pacingTimer == null) {
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(1, 1);
            spt.setTimeoutEvent(new BenchTick(spt));
            pacingTimer = spt.getTimeoutEvent().getTimeoutId();
            trigger(spt, timer);
        } else if (!on && pacingTimer != null) {
            trigger(new CancelPeriodicTimeout(pacingTimer), timer);
            pacingTimer = null;
        }
    }

    /**
     * Every message out passes here, through the group commit ({@link GroupCommit}: what follows a manifest
     * write waits until a metadata sync covers it), so the request timing sees each request's last answer.
     */
    private void gated(KompicsEvent e) {
        commit.gated(e);
    }

    private void emit(KompicsEvent e) {
        if (e instanceof BlockStorePort.DeleteBlocks || e instanceof BlockStorePort.CollectBlocks) {
            trigger(e, store);
            return;
        }
        if (e instanceof FileMsg m) {
            timing.sent(m.getHeader().destination(), m.op(), node.now(), node.wallMillis());
            if (!(m.op() instanceof Control)) {
                ticks.activity(node.now());
            }
            signals.foreground(m.getHeader().destination(), m.op());
        }
        trigger(e, net);
    }

    private void publishSnapshot(long now) {
        long millis = node.wallMillis();
        timing.expire(now, millis, ABANDONED_NANOS);
        trigger(Snapshots.build(node, requests.status(0), requestStats, timing.openCount(), commit.fault(node.now()),
                scrubber.progress(now, millis), millis), ops);
    }

    /** The figures the membership component answers cluster request {@code id} with. */
    private LayoutPort.ClusterFigures clusterFigures(long id) {
        Rebalancer.Figures f = rebalancer.figures();
        return new LayoutPort.ClusterFigures(id, manifests.placed(), f.drained(), f.drainPendingByRegion(), f.shortBy());
    }

    /** A new RTT table: stop waiting for peers that went down, open connections to peers that came up. */
    private void onRtt(RttTable table) {
        failures.rtt(table);
        rereplicator.onRtt(table, node.now());
    }

    /** A request a door refused (FORBIDDEN, answered there): counted as unauthenticated input. */
    private void onForbidden(Forbidden f) {
        if (refused.forbidden()) {
            LOG.warn("{}: refused {} from {}: admin operations come only through the admin API", node.region(), f.op(),
                    f.from());
        }
    }

    /** A file message a door admitted (see {@link FileIngress}), for that door's {@code routes}. */
    private void onMsg(NetAddress from, FileOp op, OpHandlers routes) {
        if (op instanceof GetData d) {
            d.data().release(); // a node takes no download data: dropped below, its buffer returned now
        }
        signals.heard(from);
        if (routes.elsewhere(op)) {
            return; // the membership component's (it takes them at the same door)
        }
        if (!(op instanceof Control)) {
            ticks.activity(node.now());
        }
        signals.foreground(from, op);
        try {
            dispatch(from, op, routes);
        } catch (RuntimeException e) {
            if (refused.dropped()) {
                LOG.warn("{}: dropped {} from {} ({} dropped so far): {}", node.region(),
                        op.getClass().getSimpleName(), from, refused.droppedCount(), e.toString());
            }
        }
    }

    private void dispatch(NetAddress from, FileOp op, OpHandlers routes) {
        counters.tcpReceived(NodeContext.blockBytes(op), NodeContext.isBackground(op));
        timing.received(from, op, node.now());
        if (routes.dispatch(from, op)) {
            return;
        }
        if (op instanceof StatusReply && op.req() == WARM_UP) {
            return; // answer to a connection warm-up
        }
        if (!node.pending().reply(from, op, node.now()) && ids.mine(op.req())) {
            refused.lateReply(); // a reply to a request of this series that no longer waits
        }
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    static final class BenchTick extends Timeout {
        BenchTick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }
}
