package geoblocks.blockstore.component;

import geoblocks.blockstore.core.AdmissionQueue;
import geoblocks.blockstore.core.AdmissionSettings;
import geoblocks.blockstore.core.BlockCollector;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.InFlightFiles;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBudget;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.port.BlockStorePort.DeleteBlocks;
import geoblocks.blockstore.core.MeasuredRttMatrix;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.TransferCounters;
import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.core.placement.PolicyCatalog;
import geoblocks.blockstore.core.read.ServiceLatency;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.BlockStorePort.BlockStored;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.net.Bytes;
import geoblocks.net.ClusterConfig;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerVersions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;

/**
 * The {@link Node} the file service's parts share: who and where this node is, its latest RTT
 * table, its outstanding requests to peers ({@link Pending}), the node's memory budget, its placement
 * policies' catalog, and the three outlets (network messages, block-store requests, placement
 * requests) it triggers through. Counts the block bytes every TCP message carries in the node's
 * counters (the budget and the counters are the node's, {@link NodeWide}). Not thread-safe: the file
 * service's handlers own it.
 */
final class NodeContext implements Node {
    private final NetAddress self;
    private final String region;
    /** The cluster layout this node acts on (see {@link #layout(Layout)}), with its members' resolved addresses. */
    private Layout layout;
    private LayoutAddresses book;
    /** Says whether this node may decide the conditional writes of a name under the layout (see FileService). */
    private Function<String, String> handover = name -> null;
    private Supplier<Map<String, Long>> layoutReports = Map::of;
    private Supplier<Rebalancer.Figures> rebalance = () -> Rebalancer.Figures.NONE;
    private final NodeSettings settings;
    private final ManifestStore manifests;
    private final Versions versions;
    private final Random random;
    private final MemoryBudget budget;
    private AdmissionQueue admission;
    private final TransferCounters counters;
    private final Consumer<KompicsEvent> network;
    private final Consumer<KompicsEvent> blockStore;
    private final Placements placements;
    private final PolicyCatalog policies;
    private final Pending pending = new Pending();
    private final Publications publications = new Publications(this);
    private final LocalBlocks blocks;
    private Function<NetAddress, Bytes.Allocator> sendBuffers = client -> Bytes.Allocator.HEAP;
    private final Map<Long, Runnable> wakeups = new HashMap<>();
    private final ServiceLatency serviceLatency = ServiceLatency.defaults();
    private Consumer<KompicsEvent> timer = e -> {
        throw new IllegalStateException("no timer connected");
    };
    private final long startNanos = System.nanoTime();
    private InFlightFiles inFlight = new InFlightFiles(GcSettings.DEFAULTS.graceMs() * 1_000_000L);
    private RttTable rtt;
    private MeasuredRttMatrix rttMatrix;
    /** Where every request id of this context comes from (see {@link #requestIds}). */
    private RequestIds ids = RequestIds.alone();
    private PeerVersions wireVersions = new PeerVersions();
    private Supplier<String> createsReady = () -> null;

    NodeContext(NetAddress self, String region, ClusterConfig cluster, NodeSettings settings, ManifestStore manifests,
            long seed, NodeWide shared, Consumer<KompicsEvent> network, Consumer<KompicsEvent> blockStore,
            Consumer<KompicsEvent> placement, PolicyCatalog policies) {
        this.placements = new Placements(placement, this::newReq);
        this.policies = policies;
        this.self = self;
        this.region = region;
        Map<String, String> fromConfig = new TreeMap<>();
        cluster.regions().forEach((r, a) -> fromConfig.put(r, LayoutAddresses.hostPort(a)));
        layout(Layout.fromConfig(fromConfig));
        this.settings = settings;
        this.manifests = manifests;
        this.random = new Random(seed);
        this.budget = shared.budget();
        admission(AdmissionSettings.DEFAULTS);
        this.counters = shared.counters();
        this.network = network;
        this.blockStore = blockStore;
        this.blocks = new LocalBlocks(blockStore, this::newReq);
        this.rtt = new RttTable(region, Map.of(), Set.copyOf(book.peers()));
        this.rttMatrix = new MeasuredRttMatrix(book.regions(), List.of());
        this.versions = new Versions(manifests, region, this::wallMillis, settings.versionRetentionMs(),
                TombstoneCollector.of(book.regions(), settings), ids -> blockStore.accept(new DeleteBlocks(ids)));
    }

    /**
     * Acts on {@code l} from now on: its members are the peers, their addresses are where messages
     * go (and whom messages are accepted from), its active regions own the names. A member whose
     * address does not resolve is logged and left out until a layout with a good one arrives.
     */
    void layout(Layout l) {
        LayoutAddresses b = LayoutAddresses.of(l, region, self);
        b.unreachable().forEach(why -> Logs.warn(region + ": " + why));
        this.layout = l;
        this.book = b;
        if (versions != null && !b.regions().isEmpty()) {
            versions.tombstones(TombstoneCollector.of(b.regions(), settings)); // every member acknowledges a tombstone
        }
    }

    /** The layout version each region last reported to this node (this node's own included). */
    Map<String, Long> layoutReports() {
        return layoutReports.get();
    }

    void layoutReports(Supplier<Map<String, Long>> reports) {
        this.layoutReports = reports;
    }

    /** What the rebalancer started and found to move (drains and fills), see {@link Rebalancer.Figures}. */
    Rebalancer.Figures rebalance() {
        return rebalance.get();
    }

    void rebalance(Supplier<Rebalancer.Figures> figures) {
        this.rebalance = figures;
    }

    /** The layout this node acts on. */
    Layout layout() {
        return layout;
    }

    /** Sets what says whether this node may decide the conditional writes of a name now (the file service knows). */
    void handover(Function<String, String> why) {
        this.handover = why;
    }

    /** Where {@link #schedule} sends its timeouts (the file service's timer port). */
    void timer(Consumer<KompicsEvent> timer) {
        this.timer = timer;
    }

    /** A timeout of {@link #schedule} fired: runs its task. */
    void wake(Wakeup w) {
        Runnable task = wakeups.remove(w.id);
        if (task != null) {
            task.run();
        }
    }

    /** The timeout {@link #schedule} sets. */
    static final class Wakeup extends Timeout {
        final long id;

        Wakeup(ScheduleTimeout st, long id) {
            super(st);
            this.id = id;
        }
    }

    /** The outstanding requests to peers, for the component's timer and failure handlers. */
    Pending pending() {
        return pending;
    }

    /** The placement component's answers go here. */
    Placements placements() {
        return placements;
    }

    void setRtt(RttTable table) {
        this.rtt = table;
    }

    /** The cluster's RTT matrix of the latest RTT update, for the operator snapshot. */
    private Map<String, Long> downTransitions = Map.of();

    MeasuredRttMatrix rttMatrix() {
        return rttMatrix;
    }

    /** Each peer's transitions from up to down since the node started, as the RTT monitor counted them. */
    Map<String, Long> downTransitions() {
        return downTransitions;
    }

    void setDownTransitions(Map<String, Long> counts) {
        this.downTransitions = counts;
    }

    void setRttMatrix(MeasuredRttMatrix matrix) {
        this.rttMatrix = matrix;
    }

    /** A block-store answer: runs the waiter of its request. */
    void stored(BlockStored s) {
        blocks.stored(s);
    }

    /** A block-store answer: runs the waiter of its request. */
    void read(BlockRead r) {
        blocks.read(r);
    }

    /** The region of a cluster member's address, empty for anyone else. */
    Optional<String> regionOf(NetAddress address) {
        return book.regionOf(address);
    }

    /** Bytes of block data a node-to-node TCP message carries (0 for other messages), for the transfer counters. */
    static int blockBytes(FileOp op) {
        if (op instanceof ReplicaData p) {
            return p.data().length;
        }
        return op instanceof BlockData p ? p.data().length : 0;
    }

    /** A TCP message of the background class (a background copy over TCP). */
    static boolean isBackground(FileOp op) {
        return op instanceof ReplicaData p && p.background();
    }

    @Override
    public String region() {
        return region;
    }

    @Override
    public NodeSettings settings() {
        return settings;
    }

    @Override
    public RttTable rtt() {
        return rtt;
    }

    @Override
    public NetAddress addressOf(String r) {
        return book.addressOf(r);
    }

    /** Where region {@code r} is, or null when the layout names no address for it. */
    NetAddress addressOrNull(String r) {
        return book.addressOrNull(r);
    }

    @Override
    public List<String> lookupPeers() {
        if (now() - startNanos < 2 * settings.downAfterMs() * 1_000_000L) {
            return book.peers(); // just started: the RTT table does not know who is up yet
        }
        return upPeers();
    }

    /** Peers whose first RTT probes have not settled yet (see {@link RttTable#unsettled}). */
    List<String> unsettledPeers() {
        return List.copyOf(rtt.unsettled(book.peers(), now() - startNanos, settings.downAfterMs() * 1_000_000L));
    }

    @Override
    public List<String> peerRegions() {
        return book.peers();
    }

    @Override
    public List<String> upPeers() {
        List<String> up = new ArrayList<>();
        for (String p : book.peers()) {
            if (rtt.isUp(p)) {
                up.add(p);
            }
        }
        return up;
    }

    @Override
    public ManifestStore manifests() {
        return manifests;
    }

    @Override
    public Versions versions() {
        return versions;
    }

    @Override
    public String ownerOf(String name) {
        return layout.ownerOf(name);
    }

    /** Sets what says whether this node may decide creates yet (the file service knows). */
    void createsReady(Supplier<String> why) {
        this.createsReady = why;
    }

    @Override
    public String notReadyToDecideCreates() {
        return createsReady.get();
    }

    @Override
    public long layoutVersion() {
        return layout.version();
    }

    @Override
    public String notReadyToDecide(String name) {
        String why = createsReady.get();
        return why != null ? why : handover.apply(name);
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis() + settings.clockOffsetMs();
    }

    /**
     * The machine's wall clock in milliseconds, without the configured clock offset: for comparisons
     * with what the file system stamps (block files' modification times), which no offset shifts.
     */
    long machineMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public MemoryBudget budget() {
        return budget;
    }

    @Override
    public AdmissionQueue admission() {
        return admission;
    }

    @Override
    public Random random() {
        return random;
    }

    @Override
    public long now() {
        return System.nanoTime();
    }

    /** A new request id, unique at this node (peer requests, block-store and placement requests, timers). */
    private long newReq() {
        return ids.next();
    }

    /**
     * Request ids come from {@code ids} (set before any request): its series is apart from those of the other
     * components whose requests' answers reach the same ports.
     */
    void requestIds(RequestIds ids) {
        this.ids = ids;
    }

    @Override
    public void publish(String peer, byte[] encoded, Consumer<Failure> done) {
        publications.publish(peer, encoded, done);
    }

    @Override
    public void send(NetAddress to, FileOp op) {
        counters.tcpSent(blockBytes(op), isBackground(op));
        network.accept(FileMsg.to(wireVersions, new NetHeader(self, to, Transport.TCP), op));
    }

    @Override
    public long expect(NetAddress peer, Pending.Waiter waiter) {
        return expect(peer, waiter, settings.rpcTimeoutMs() * 1_000_000L);
    }

    @Override
    public long expect(NetAddress peer, Pending.Waiter waiter, long timeoutNanos) {
        long req = newReq();
        pending.add(req, peer, waiter, timeoutNanos, now());
        return req;
    }

    @Override
    public void touch(long req) {
        pending.touch(req, now());
    }

    @Override
    public void cancel(long req) {
        pending.cancel(req);
    }

    @Override
    public void fail(long req, String why) {
        pending.fail(req, why);
    }

    @Override
    public void storeLocal(BlockId id, byte[] data, int crc, Consumer<BlockStored> done) {
        touch(id);
        blocks.store(id, data, crc, stored -> {
            touch(id);
            done.accept(stored);
        });
    }

    /** Keeps the file of block {@code id} in flight: a copy of it is landing here. */
    private void touch(BlockId id) {
        BlockCollector.FileBlock.of(id).ifPresent(f -> inFlight.touch(f.fileId(), now()));
    }

    @Override
    public InFlightFiles inFlight() {
        return inFlight;
    }

    /** Client requests wait for transfer memory as {@code settings} say (set before any request). */
    void admission(AdmissionSettings settings) {
        this.admission = new AdmissionQueue(budget, settings.waitMs() * 1_000_000L, settings.queue());
    }

    /** Files stay in flight {@code graceMs} after their last sign of life (the block collector's grace). */
    void gcGrace(long graceMs) {
        this.inFlight = new InFlightFiles(graceMs * 1_000_000L);
    }

    @Override
    public void readLocal(BlockId id, Consumer<BlockRead> done) {
        blocks.read(id, null, done);
    }

    @Override
    public void readLocal(BlockId id, Bytes.Allocator into, Consumer<BlockRead> done) {
        blocks.read(id, into, done);
    }

    @Override
    public Bytes.Allocator sendBuffers(NetAddress client) {
        return sendBuffers.apply(client);
    }

    /** Messages go to each peer at the file protocol version {@code versions} holds for it (set before any request). */
    void wireVersions(PeerVersions versions) {
        this.wireVersions = versions;
    }

    /** Blocks read to be sent to clients go into {@code buffers} (set before any request). */
    void sendBuffers(Function<NetAddress, Bytes.Allocator> buffers) {
        this.sendBuffers = buffers;
    }

    @Override
    public void placeOrFail(PlacementRequest request, Consumer<List<String>> placed,
            Consumer<Failure> refused) {
        placements.place(request, placed, refused);
    }

    @Override
    public PolicyCatalog policies() {
        return policies;
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        long id = newReq();
        wakeups.put(id, task);
        ScheduleTimeout st = new ScheduleTimeout(Math.max(1, (delayNanos + 999_999) / 1_000_000));
        st.setTimeoutEvent(new Wakeup(st, id));
        timer.accept(st);
    }

    @Override
    public ServiceLatency serviceLatency() {
        return serviceLatency;
    }
}
