package geoblocks.blockstore.component;

import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.AdmissionSettings;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.core.ReplicationQueueStore;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.liveness.DetectorSettings;
import geoblocks.blockstore.core.placement.LoadMeter;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.port.BlockStorePort;
import geoblocks.blockstore.port.OpsPort;
import geoblocks.blockstore.port.AdminOpsPort;
import geoblocks.blockstore.port.BenchOpsPort;
import geoblocks.blockstore.port.ClientOpsPort;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.port.PeerOpsPort;
import geoblocks.blockstore.port.PeerServicePort;
import geoblocks.blockstore.port.PlacementPort;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.port.TransferMemoryPort;
import geoblocks.ledbat.component.LedbatComponent;
import geoblocks.ledbat.component.LedbatInit;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.net.Bytes;
import geoblocks.net.ClusterConfig;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import geoblocks.net.WanEmulator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Predicate;
import se.sics.kompics.Channel;
import se.sics.kompics.Negative;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.timer.Timer;

/**
 * One geoblocks node: wires BlockStore, RTTMonitor, PlacementPolicy ({@link PlacementComponent}),
 * LEDBAT (background block streams), the file ingress (its client, peer, admin and bench doors), the
 * membership (the cluster layout), FileService and PeerService (which share the node-wide state of
 * {@link NodeWide}) over the Network and Timer it requires, with the emulated WAN in between when the
 * cluster asks for it (so LEDBAT's datagrams see the same emulated delays as the TCP messages): one emulator for the RTT
 * monitor's probes and one for the rest, on the way out only. The same parent runs
 * in production (under a host with NettyNetwork and JavaTimer) and in the simulator.
 */
public final class NodeParent extends ComponentDefinition {
    private final Positive<Network> network = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    /** Connection failures from NettyNetwork; the simulator leaves it unconnected. */
    private final Positive<NetworkControl> control = requires(NetworkControl.class);
    /** The file service's snapshots for the operator (the host's HTTP server); the simulator leaves it unconnected. */
    private final Negative<OpsPort> ops = provides(OpsPort.class);

    public NodeParent(NodeInit init) {
        Map<String, NetAddress> peers = new LinkedHashMap<>(init.cluster.regions());
        peers.remove(init.region);
        LoadMeter meter = new LoadMeter(init.blocks::space);
        Component blocks = create(BlockStoreComponent.class,
                new BlockStoreComponent.BlockStoreInit(init.blocks, init.io, meter).withMeta(init.manifests.engine()));
        Component monitor = create(RttMonitor.class,
                new RttMonitor.RttMonitorInit(init.self, init.region, peers, init.settings, meter, init.detector)
                        .withVersions(init.versions)
                        // an emulated WAN delays probes before the network: its send stamps would leave the delay out
                        .withNetworkStamps(!init.cluster.emulateWan()));
        PolicySet policies = init.policies != null ? init.policies : PolicySet.defaults();
        Component placement = create(PlacementComponent.class, new PlacementComponent.PlacementInit(init.region,
                new ArrayList<>(peers.keySet()), policies, init.seed * 0x9E3779B97F4A7C15L + 0x5DEECE66DL));
        MetaLayoutStore layouts = MembershipComponent.openStore(init.manifests.engine(), init.cluster);
        Component membership = create(MembershipComponent.class, new MembershipComponent.MembershipInit(init.region,
                init.self, layouts, init.memberKeys, init.versions, init.release));
        // the file service and the peer service share the node's memory, counters and peer signals, and issue
        // request ids of two series (their answers reach both on the ports they share)
        NodeWide shared = new NodeWide(init.settings.memoryBudgetBytes());
        Component files = create(FileService.class, new FileServiceInit(init.self, init.region,
                init.cluster, init.settings, init.manifests, init.seed, init.replicationQueue, init.resumedCopies)
                .withPolicies(policies.catalog()).withGc(init.gc).withAdmission(init.admission)
                .withSendBuffers(init.sendBuffers).withVersions(init.versions)
                .withRelease(init.release, init.build).withLayout(layouts.current())
                .withShared(shared, new RequestIds(1, NodeWide.ID_SERIES)));
        Component peerService = create(PeerService.class, new PeerService.PeerServiceInit(init.self, init.region,
                init.settings, shared, init.versions, layouts.current(), new RequestIds(2, NodeWide.ID_SERIES)));
        Component ledbat = create(LedbatComponent.class, new LedbatInit(init.self, null, init.ledbatBursts));
        // file messages enter by the ingress, which authorizes each at its family's door; the file service only sends
        Component ingress = create(FileIngress.class, new FileIngress.FileIngressInit(init.region, init.self, init.admin,
                init.versions, layouts.current()));
        if (init.cluster.emulateWan()) {
            // The RTT monitor sends through an emulated WAN of its own, so its probes never queue
            // behind the blocks and bench datagrams of the file service and LEDBAT in one
            // component's event queue; what arrives skips the emulators (a node's emulator holds
            // only what it sends), straight from the network to each component.
            Positive<Network> probes = wan(init);
            Positive<Network> bulk = wan(init);
            connect(monitor.getNegative(Network.class), probes, Channel.ONE_WAY_POS);
            for (Component c : new Component[] {files, peerService, ingress, membership, ledbat}) {
                connect(c.getNegative(Network.class), bulk, Channel.ONE_WAY_POS);
            }
            for (Component c : new Component[] {monitor, ingress, ledbat}) {
                connect(c.getNegative(Network.class), network, Channel.ONE_WAY_NEG);
            }
        } else {
            for (Component c : new Component[] {monitor, ingress, ledbat}) {
                connect(c.getNegative(Network.class), network, Channel.TWO_WAY);
            }
            for (Component c : new Component[] {files, peerService, membership}) { // they only send: messages enter by the ingress
                connect(c.getNegative(Network.class), network, Channel.ONE_WAY_POS);
            }
        }
        for (Component c : new Component[] {monitor, files, peerService, ledbat}) {
            connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        }
        connect(files.getNegative(NetworkControl.class), control, Channel.TWO_WAY);
        for (Component c : new Component[] {files, peerService}) {
            connect(c.getNegative(BlockStorePort.class), blocks.getPositive(BlockStorePort.class), Channel.TWO_WAY);
            connect(c.getNegative(RttPort.class), monitor.getPositive(RttPort.class), Channel.TWO_WAY);
            connect(c.getNegative(LedbatPort.class), ledbat.getPositive(LedbatPort.class), Channel.TWO_WAY);
        }
        connect(placement.getNegative(RttPort.class), monitor.getPositive(RttPort.class), Channel.TWO_WAY);
        connect(files.getNegative(PlacementPort.class), placement.getPositive(PlacementPort.class), Channel.TWO_WAY);
        connect(files.getNegative(TransferMemoryPort.class), peerService.getPositive(TransferMemoryPort.class),
                Channel.TWO_WAY);
        connect(files.getPositive(OpsPort.class), ops, Channel.TWO_WAY);
        for (Component c : new Component[] {ingress, files, peerService}) {
            connect(c.getNegative(LayoutPort.class), membership.getPositive(LayoutPort.class), Channel.TWO_WAY);
        }
        connect(membership.getNegative(PeerOpsPort.class), ingress.getPositive(PeerOpsPort.class), Channel.TWO_WAY);
        connect(membership.getNegative(AdminOpsPort.class), ingress.getPositive(AdminOpsPort.class), Channel.TWO_WAY);
        connect(files.getNegative(ClientOpsPort.class), ingress.getPositive(ClientOpsPort.class), Channel.TWO_WAY);
        connect(files.getNegative(PeerOpsPort.class), ingress.getPositive(PeerOpsPort.class), Channel.TWO_WAY);
        connect(peerService.getNegative(PeerServicePort.class), ingress.getPositive(PeerServicePort.class),
                Channel.TWO_WAY);
        connect(files.getNegative(AdminOpsPort.class), ingress.getPositive(AdminOpsPort.class), Channel.TWO_WAY);
        connect(files.getNegative(BenchOpsPort.class), ingress.getPositive(BenchOpsPort.class), Channel.TWO_WAY);
    }

    /** A new emulated WAN that sends into the network (requests only: ONE_WAY_POS carries requests). */
    private Positive<Network> wan(NodeInit init) {
        Component wan = create(WanEmulator.class, new WanEmulator.WanInit(init.cluster, init.region));
        connect(wan.getNegative(Network.class), network, Channel.ONE_WAY_POS);
        connect(wan.getNegative(Timer.class), timer, Channel.TWO_WAY);
        return wan.getPositive(Network.class);
    }

    /** Everything a node needs: who and where it is, the cluster, its storage and a seed. */
    public static final class NodeInit extends Init<NodeParent> {
        final String region;
        final NetAddress self;
        final ClusterConfig cluster;
        final NodeSettings settings;
        final BlockStorage blocks;
        final ManifestStore manifests;
        final long seed;
        final Executor io;
        /** LEDBAT hands the network bursts of packets: only on our GeoNetwork (see LedbatInit). */
        final boolean ledbatBursts;
        /** Where the coordinator keeps the copies owed after {@code put --ack local} (in memory unless set). */
        final ReplicationQueueStore replicationQueue;
        /** The copies that store held at start (read once, by whoever opened it), resumed by the node. */
        final List<ReplicationQueue.Copy> resumedCopies;
        /** The node's placement policies; null: {@link PolicySet#defaults()}. */
        final PolicySet policies;
        /** The block collector's settings. */
        final GcSettings gc;
        /** The failure detector's settings. */
        final DetectorSettings detector;
        /** The admission queue's settings. */
        final AdmissionSettings admission;
        /** What blocks read for clients are read into (see FileServiceInit#withSendBuffers). */
        final Function<NetAddress, Bytes.Allocator> sendBuffers;
        /** Which clients may send admin operations and reserved names (see AdminGate); nobody, none, unless set. */
        final AdminGate admin;
        /** Where the network learns the layout's node keys (see FileServiceInit#withMemberKeys). */
        final MemberKeys memberKeys;
        /** The file protocol version agreed with each peer, which the node writes its messages at (see PeerVersions). */
        final PeerVersions versions;
        /** The release line the node runs as, and the build it names in status (see FileServiceInit#withRelease). */
        final ClusterVersion release;
        final String build;

        /** A node whose block I/O runs in its handlers (simulator, tests). */
        public NodeInit(String region, ClusterConfig cluster, NodeSettings settings, BlockStorage blocks,
                ManifestStore manifests, long seed) {
            this(region, cluster, settings, blocks, manifests, seed, Runnable::run);
        }

        /** A node whose block I/O runs on {@code io} (production: a pool, see BlockStoreComponent). */
        public NodeInit(String region, ClusterConfig cluster, NodeSettings settings, BlockStorage blocks,
                ManifestStore manifests, long seed, Executor io) {
            this(region, cluster, settings, blocks, manifests, seed, io, false, ReplicationQueueStore.inMemory(), List.of(),
                    null, GcSettings.DEFAULTS, DetectorSettings.DEFAULTS, AdmissionSettings.DEFAULTS,
                    client -> Bytes.Allocator.HEAP, AdminGate.NOBODY, MemberKeys.NONE, new PeerVersions(),
                    ClusterVersion.BUILD, ClusterVersion.BUILD_VERSION);
        }

        private NodeInit(String region, ClusterConfig cluster, NodeSettings settings, BlockStorage blocks,
                ManifestStore manifests, long seed, Executor io, boolean ledbatBursts,
                ReplicationQueueStore replicationQueue, List<ReplicationQueue.Copy> resumedCopies, PolicySet policies,
                GcSettings gc, DetectorSettings detector, AdmissionSettings admission,
                Function<NetAddress, Bytes.Allocator> sendBuffers,
                AdminGate admin, MemberKeys memberKeys, PeerVersions versions,
                ClusterVersion release, String build) {
            this.versions = versions;
            this.release = release;
            this.build = build;
            this.sendBuffers = sendBuffers;
            this.admin = admin;
            this.memberKeys = memberKeys;
            this.detector = detector;
            this.policies = policies;
            this.gc = gc;
            this.admission = admission;
            this.replicationQueue = replicationQueue;
            this.resumedCopies = List.copyOf(resumedCopies);
            this.ledbatBursts = ledbatBursts;
            this.io = io;
            this.region = region;
            this.self = cluster.address(region);
            this.cluster = cluster;
            this.settings = settings;
            this.blocks = blocks;
            this.manifests = manifests;
            this.seed = seed;
        }

        /** This init with LEDBAT bursts on or off ({@code true} only when the network is GeoNetwork). */
        public NodeInit withLedbatBursts(boolean bursts) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, bursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /**
         * This init with the replication queue kept in {@code queue} (production: a file in the data
         * dir), which held {@code resumed} at start (the caller read it: the file is read once).
         */
        public NodeInit withReplicationQueue(ReplicationQueueStore queue, List<ReplicationQueue.Copy> resumed) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, queue, resumed,
                    policies, gc, detector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /** This init with the placement policies in {@code set} (built from geoblocks.placement at start-up). */
        public NodeInit withPolicies(PolicySet set) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, set, gc, detector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /** This init with the failure detector's settings (geoblocks.node.failure-detector). */
        public NodeInit withDetector(DetectorSettings failureDetector) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, failureDetector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /** This init with the block collector's settings (geoblocks.node.gc-grace, gc-interval). */
        public NodeInit withGc(GcSettings collector) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, collector, detector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /**
         * This init with the blocks it sends to a client read into {@code buffers.apply(client)}: the
         * network's pool when the network sends them as they are and releases them (GeoNetwork, to a
         * client reached by socket), else the heap (an in-process client gets the arrays themselves).
         */
        public NodeInit withSendBuffers(Function<NetAddress, Bytes.Allocator> buffers) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, buffers, admin, memberKeys, versions, release, build);
        }

        /**
         * This init accepting admin operations (cluster changes, moves, purges: {@code FileOps.isAdmin}) from
         * the clients {@code which} picks; from nobody else. Production names its S3 gateway's in-process client,
         * through which the admin HTTP API (with its tokens) reaches the node.
         */
        public NodeInit withAdminClients(Predicate<NetAddress> which) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin.withClients(which), memberKeys, versions, release, build);
        }

        /**
         * This init keeping every name {@code names} says its S3 gateway keeps (objects and records) from clients by
         * access key (see KeyGate); by default, the dotted names only.
         */
        public NodeInit withGatewayNames(GatewayNames names) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin.withGateway(names), memberKeys, versions, release, build);
        }

        /**
         * This init reserving the names under {@code prefixes} to admin clients (reads and writes alike): where the
         * node's gateway keeps admin token records and sealed access keys.
         */
        public NodeInit withAdminNames(List<String> prefixes) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin.withPrefixes(prefixes), memberKeys, versions, release, build);
        }

        /** This init telling {@code keys} the node keys each layout names (production: the node's network). */
        public NodeInit withMemberKeys(MemberKeys keys) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin, keys, versions, release, build);
        }

        /**
         * This init writing its messages to each peer at the file protocol version {@code versions} holds
         * for it (production: the one its network's handshakes fill); by default a registry nothing fills,
         * so every message goes at the lowest version this build speaks.
         */
        public NodeInit withVersions(PeerVersions versions) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /** This init running as release line {@code release}, naming itself {@code build} in status. */
        public NodeInit withRelease(ClusterVersion release, String build) {
            return new NodeInit(region, cluster, settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, admission, sendBuffers, admin, memberKeys, versions, release, build);
        }

        /** This init with the admission queue's settings (geoblocks.node.admission). */
        public NodeInit withAdmission(AdmissionSettings settings) {
            return new NodeInit(region, cluster, this.settings, blocks, manifests, seed, io, ledbatBursts, replicationQueue,
                    resumedCopies, policies, gc, detector, settings, sendBuffers, admin, memberKeys, versions, release, build);
        }
    }
}
