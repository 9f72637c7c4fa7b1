package geoblocks.node.net;

import com.google.common.collect.ImmutableSet;
import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.netty.CodecSerializer;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.component.GeoNetwork;
import java.net.ServerSocket;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Kompics;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Positive;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.ListeningStatus;
import se.sics.kompics.network.MessageNotify;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;
import se.sics.kompics.network.netty.NettyInit;
import se.sics.kompics.network.netty.NettyNetwork;

/**
 * Two endpoints on 127.0.0.1 per network implementation the node can run on, in one Kompics
 * runtime started once per JVM (Kompics has one runtime per process): each endpoint sends what a
 * test gives it and records what its network delivers (messages, and events on NetworkControl).
 */
final class LoopbackNetworks {
    /** The network implementations, as the node's hosts create them ({@code ServerHost}). */
    enum Kind {
        GEO, NETTY
    }

    /** One endpoint: its address and what it received. */
    static final class Side {
        final NetAddress self;
        final BlockingQueue<ConformanceMsg> received = new LinkedBlockingQueue<>();
        final BlockingQueue<KompicsEvent> control = new LinkedBlockingQueue<>();
        /** Answers to {@code MessageNotify} requests. */
        final BlockingQueue<MessageNotify.Resp> notified = new LinkedBlockingQueue<>();
        volatile Endpoint endpoint;

        Side(NetAddress self) {
            this.self = self;
        }

        void send(KompicsEvent e) {
            endpoint.send(e);
        }

        /** The next message received, or null after {@code seconds}. */
        ConformanceMsg receive(long seconds) throws InterruptedException {
            return received.poll(seconds, TimeUnit.SECONDS);
        }

        /** The next control event of {@code type} within {@code seconds} (others are dropped), or null. */
        <T> T awaitControl(Class<T> type, long seconds) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < end) {
                KompicsEvent e = control.poll(100, TimeUnit.MILLISECONDS);
                if (type.isInstance(e)) {
                    return type.cast(e);
                }
            }
            return null;
        }
    }

    static final String SECRET = "network-conformance-secret-0123";
    private static Map<Kind, List<Side>> sides;

    private LoopbackNetworks() {}

    /** The two endpoints on network {@code kind}, listening; the runtime starts on the first call. */
    static synchronized List<Side> sides(Kind kind) throws Exception {
        if (sides == null) {
            CodecSerializer.register(ConformanceMsg.CODEC, ConformanceMsg.ID, "geoblocks-conformance");
            Map<Kind, List<Side>> all = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) {
                all.put(k, List.of(new Side(NetAddress.of("127.0.0.1", freePort())),
                        new Side(NetAddress.of("127.0.0.1", freePort()))));
            }
            Kompics.createAndStart(Root.class, new RootInit(all), 2);
            for (List<Side> pair : all.values()) {
                for (Side s : pair) {
                    if (s.awaitControl(ListeningStatus.class, 30) == null) {
                        throw new IllegalStateException(s.self + " did not start listening");
                    }
                }
            }
            sides = all;
        }
        return sides.get(kind);
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Creates each network with an endpoint on it. */
    public static final class Root extends ComponentDefinition {
        public Root(RootInit init) {
            NetworkSettings settings = NetworkSettings.from(ConfigFactory.load());
            init.sides.forEach((kind, pair) -> {
                for (Side s : pair) {
                    Component net = kind == Kind.GEO
                            ? create(GeoNetwork.class, new GeoNetwork.GeoNetworkInit(s.self, settings, SECRET,
                                    new CodecRegistry().register(ConformanceMsg.ID, ConformanceMsg.CODEC)))
                            : create(NettyNetwork.class, new NettyInit(s.self, 0,
                                    ImmutableSet.of(Transport.TCP, Transport.UDP)));
                    Component ep = create(Endpoint.class, new EndpointInit(s));
                    connect(ep.getNegative(Network.class), net.getPositive(Network.class), Channel.TWO_WAY);
                    connect(ep.getNegative(NetworkControl.class), net.getPositive(NetworkControl.class), Channel.TWO_WAY);
                }
            });
        }
    }

    public static final class RootInit extends Init<Root> {
        final Map<Kind, List<Side>> sides;

        RootInit(Map<Kind, List<Side>> sides) {
            this.sides = sides;
        }
    }

    /** Sends what the test gives it; records what the network delivers. */
    public static final class Endpoint extends ComponentDefinition {
        private final Positive<Network> net = requires(Network.class);
        private final Positive<NetworkControl> ctl = requires(NetworkControl.class);

        public Endpoint(EndpointInit init) {
            Side side = init.side;
            side.endpoint = this;
            handle(net, ConformanceMsg.class, side.received::add);
            handle(net, MessageNotify.Resp.class, side.notified::add);
            handle(ctl, ListeningStatus.class, side.control::add);
            handle(ctl, NetworkException.class, side.control::add);
            handle(ctl, ConnectionStatus.Dropped.class, side.control::add);
        }

        /** Kompics ports take events from any thread. */
        void send(KompicsEvent e) {
            trigger(e, net);
        }
    }

    public static final class EndpointInit extends Init<Endpoint> {
        final Side side;

        EndpointInit(Side side) {
            this.side = side;
        }
    }
}
