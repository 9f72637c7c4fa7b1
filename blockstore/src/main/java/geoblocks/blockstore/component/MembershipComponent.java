package geoblocks.blockstore.component;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.meta.MetaEngine;
import geoblocks.blockstore.meta.MetaLayoutStore;
import geoblocks.blockstore.port.AdminOpsPort;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.port.PeerOpsPort;
import geoblocks.blockstore.wire.ClientOp.ClusterReq;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.PeerOp.LayoutSync;
import geoblocks.net.ClusterConfig;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import se.sics.kompics.ClassMatchedHandler;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.Transport;

/**
 * The node's membership, as glue around {@link Membership}: it takes the layout gossip ({@link LayoutSync})
 * at the peer door and the admin's {@code cluster} requests at the admin door, and provides
 * {@link LayoutPort}: the layout the node acts on and the versions the regions reported. For a
 * {@code cluster} request it first asks for the node's figures ({@link LayoutPort.FiguresWanted}) and
 * handles the request with the answer. Its context is its own: the layout's addresses, the clock, sending.
 */
public final class MembershipComponent extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<PeerOpsPort> peerOps = requires(PeerOpsPort.class);
    private final Positive<AdminOpsPort> adminOps = requires(AdminOpsPort.class);
    private final Negative<LayoutPort> layout = provides(LayoutPort.class);

    private final NetAddress self;
    private final String region;
    private final PeerVersions versions;
    private final Membership membership;
    private LayoutAddresses book;
    /** The cluster requests waiting for the node's figures, by figures request id. */
    private final Map<Long, Waiting> waiting = new HashMap<>();
    private long nextId;

    private record Waiting(NetAddress client, ClusterReq request) {}

    public MembershipComponent(MembershipInit init) {
        this.self = init.self;
        this.region = init.region;
        this.versions = init.versions;
        this.book = LayoutAddresses.of(init.store.current(), region, self);
        this.membership = new Membership(new Context(), init.store, init.keys, init.versions, init.release);
        subscribe(new ClassMatchedHandler<LayoutSync, PeerOpsPort.Arrived>() {
            @Override
            public void handle(LayoutSync s, PeerOpsPort.Arrived a) {
                membership.onSync(a.from(), s);
            }
        }, peerOps);
        subscribe(new ClassMatchedHandler<ClusterReq, AdminOpsPort.Arrived>() {
            @Override
            public void handle(ClusterReq r, AdminOpsPort.Arrived a) {
                long id = ++nextId;
                waiting.put(id, new Waiting(a.from(), r));
                trigger(new LayoutPort.FiguresWanted(id), layout);
            }
        }, adminOps);
        handle(layout, LayoutPort.ClusterFigures.class, f -> {
            Waiting w = waiting.remove(f.id());
            if (w != null) {
                membership.onRequest(w.client(), w.request(), f);
            }
        });
        onStart(s -> {
            Layout l = membership.current();
            membership.tellKeys(l);
            trigger(new LayoutPort.LayoutChanged(l), layout);
            trigger(new LayoutPort.LayoutReports(membership.reportedWithSelf()), layout);
        });
    }

    /**
     * The node's layout store in {@code engine}: the stored layout, or at first start the one {@code cluster}'s
     * config names. UncheckedIOException when it cannot be read.
     */
    public static MetaLayoutStore openStore(MetaEngine engine, ClusterConfig cluster) {
        Map<String, String> fromConfig = new TreeMap<>();
        cluster.regions().forEach((r, a) -> fromConfig.put(r, LayoutAddresses.hostPort(a)));
        try {
            return MetaLayoutStore.open(engine, fromConfig);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the cluster layout failed: " + e.getMessage(), e);
        }
    }

    /** What {@link Membership} sees of its node. */
    private final class Context implements Membership.Context {
        @Override
        public String region() {
            return region;
        }

        @Override
        public long now() {
            return System.nanoTime();
        }

        @Override
        public void send(NetAddress to, FileOp op) {
            trigger(FileMsg.to(versions, new NetHeader(self, to, Transport.TCP), op), net);
        }

        @Override
        public NetAddress addressOrNull(String r) {
            return book.addressOrNull(r);
        }

        @Override
        public Optional<String> regionOf(NetAddress address) {
            return book.regionOf(address);
        }

        @Override
        public void adopted(Layout l) {
            LayoutAddresses b = LayoutAddresses.of(l, region, self);
            b.unreachable().forEach(why -> Logs.warn(region + ": " + why));
            book = b;
            trigger(new LayoutPort.LayoutChanged(l), layout);
        }

        @Override
        public void reported(Map<String, Long> reported) {
            trigger(new LayoutPort.LayoutReports(reported), layout);
        }
    }

    /** Who the node is, its layout store, the keys its network checks, what its peers run and its release. */
    public static final class MembershipInit extends Init<MembershipComponent> {
        final String region;
        final NetAddress self;
        final MetaLayoutStore store;
        final MemberKeys keys;
        final PeerVersions versions;
        final ClusterVersion release;

        public MembershipInit(String region, NetAddress self, MetaLayoutStore store, MemberKeys keys,
                PeerVersions versions, ClusterVersion release) {
            this.region = region;
            this.self = self;
            this.store = store;
            this.keys = keys;
            this.versions = versions;
            this.release = release;
        }
    }
}
