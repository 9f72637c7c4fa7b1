package geoblocks.blockstore.component;

import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.RequestIds;
import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.port.BlockStorePort;
import geoblocks.blockstore.port.BlockStorePort.BlockRead;
import geoblocks.blockstore.port.LayoutPort;
import geoblocks.blockstore.port.PeerServicePort;
import geoblocks.blockstore.port.RttPort;
import geoblocks.blockstore.port.TransferMemoryPort;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Control;
import geoblocks.ledbat.port.LedbatPort;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Negative;
import se.sics.kompics.Port;
import se.sics.kompics.PortType;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The peer service of a node, as glue: it serves the requests of other nodes that left the file service, as the
 * ingress routes them on {@link PeerServicePort} (today their block fetches: plain ones, {@link BlockFetches},
 * and the paced ones of parallel and hedged reads, {@link PacedFetches}; the table is
 * {@link RequestRoutes#PEER_SERVICE}), on a context of its own
 * ({@link PeerContext}: no manifests, no pending requests, no placement). What every op in or out does besides
 * its handler is node-wide ({@link NodeWide}): the peer is heard by the failure detector and foreground data
 * holds LEDBAT back through the node's one set of rules ({@link PeerSignals}), block bytes count in the node's
 * counters, and memory it releases is announced ({@link TransferMemoryPort}) so that the file service admits the
 * client requests waiting for it. Its tick (expiring fetches whose node went away) is paced by its own work.
 * A message whose handler fails is dropped and counted; it never stops the component.
 */
public final class PeerService extends ComponentDefinition {
    private static final Logger LOG = LoggerFactory.getLogger(PeerService.class);

    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final Positive<BlockStorePort> store = requires(BlockStorePort.class);
    /** Proof of life of the peers it hears, for the failure detector. */
    private final Positive<RttPort> rtt = requires(RttPort.class);
    /** Foreground data with a peer: LEDBAT holds the background to it back. */
    private final Positive<LedbatPort> ledbat = requires(LedbatPort.class);
    /** The layout the membership component announces: who the members are. */
    private final Positive<LayoutPort> layout = requires(LayoutPort.class);
    private final Positive<PeerServicePort> ops = requires(PeerServicePort.class);
    private final Negative<TransferMemoryPort> memory = provides(TransferMemoryPort.class);

    private final NodeWide shared;
    private final PeerContext node;
    private final PeerSignals signals;
    private final PacedFetches paced;
    private final OpHandlers routes;
    /** The tick's interval: 250 ms while fetches are served, 1 s once idle, as the file service's. */
    /** The tick, fast while this component works, slow once idle. */
    private final PacedTick ticks = new PacedTick(e -> trigger(e, timer), Tick::new);

    public PeerService(PeerServiceInit init) {
        this.shared = init.shared;
        this.node = new PeerContext(init.self, init.region, init.settings, init.shared, init.versions, init.layout,
                init.ids, this::emit, e -> trigger(e, store));
        this.signals = new PeerSignals(init.region, node::regionOf, node::now, init.shared, e -> trigger(e, rtt),
                e -> trigger(e, ledbat));
        this.paced = new PacedFetches(node);
        this.routes = RequestRoutes.peerService(new BlockFetches(node), paced);
        onStart(s -> ticks.start());
        on(timer, Tick.class, t -> tick());
        on(layout, LayoutPort.LayoutChanged.class, c -> node.layout(c.layout()));
        on(store, BlockRead.class, node::read);
        on(ops, PeerServicePort.Arrived.class, a -> onMsg(a.from(), a.op()));
    }

    /** Subscribes {@code handler}; after each event, the memory it released is announced to the file service. */
    private <E extends KompicsEvent, P extends PortType> void on(Port<P> port, Class<E> type, Consumer<E> handler) {
        handle(port, type, e -> {
            long held = paced.heldBytes();
            handler.accept(e);
            long released = held - paced.heldBytes();
            if (released > 0) {
                trigger(new TransferMemoryPort.Released(released), memory);
            }
        });
    }

    private void onMsg(NetAddress from, FileOp op) {
        signals.heard(from);
        if (!(op instanceof Control)) {
            ticks.activity(node.now());
        }
        signals.foreground(from, op);
        try {
            shared.counters().tcpReceived(NodeContext.blockBytes(op), NodeContext.isBackground(op));
            routes.dispatch(from, op);
        } catch (RuntimeException e) {
            if (shared.dropped()) {
                LOG.warn("{}: dropped {} from {} ({} dropped so far): {}", node.region(), op.getClass().getSimpleName(),
                        from, shared.droppedCount(), e.toString());
            }
        }
    }

    /** Every message out: the tick turns fast, foreground data holds LEDBAT back. */
    private void emit(KompicsEvent e) {
        if (e instanceof FileMsg m) {
            if (!(m.op() instanceof Control)) {
                ticks.activity(node.now());
            }
            signals.foreground(m.getHeader().destination(), m.op());
        }
        trigger(e, net);
    }

    private void tick() {
        long now = node.now();
        paced.expire(now, 2 * node.settings().rpcTimeoutMs() * 1_000_000L);
        ticks.ticked(now, paced.active());
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    /**
     * Who the node is, its settings, what it shares with the file service ({@link NodeWide}), the version each
     * peer speaks, the layout it starts with (the stored one) and the series of its request ids.
     */
    public static final class PeerServiceInit extends Init<PeerService> {
        final NetAddress self;
        final String region;
        final NodeSettings settings;
        final NodeWide shared;
        final PeerVersions versions;
        final Layout layout;
        final RequestIds ids;

        PeerServiceInit(NetAddress self, String region, NodeSettings settings, NodeWide shared, PeerVersions versions,
                Layout layout, RequestIds ids) {
            this.self = self;
            this.region = region;
            this.settings = settings;
            this.shared = shared;
            this.versions = versions;
            this.layout = Objects.requireNonNull(layout, "layout");
            this.ids = ids;
        }
    }
}
