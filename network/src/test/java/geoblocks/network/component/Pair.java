package geoblocks.network.component;

import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.NetBurst;
import geoblocks.net.NetMsg;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.TailMsg;
import geoblocks.network.session.KeyResolver;
import geoblocks.network.session.NodeIdentity;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assertions;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Kompics;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Positive;
import se.sics.kompics.network.ListeningStatus;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;

/**
 * Test root: GeoNetworks on 127.0.0.1, each with an endpoint component that sends what the test
 * puts in its outbox and records everything it receives (messages and control events).
 */
public final class Pair extends ComponentDefinition {

    /** What the test sees of one network. */
    public static final class Side {
        final NetAddress self;
        final String secret;
        final NetworkSettings settings;
        final BlockingQueue<KompicsEvent> received = new LinkedBlockingQueue<>();
        final BlockingQueue<KompicsEvent> control = new LinkedBlockingQueue<>();
        /** Received {@link geoblocks.network.TailMsg}s (registered on every side, id 43). */
        final BlockingQueue<TailMsg> tails = new LinkedBlockingQueue<>();
        /** Received {@link StampMsg}s (registered on every side, id 44), their handler's time set. */
        final BlockingQueue<StampMsg> stamps = new LinkedBlockingQueue<>();
        /** How long the handler of a StampMsg with sequence number 0 keeps this side's endpoint busy. */
        volatile long stallMs;
        volatile Endpoint endpoint;
        /** Shared with the sides it reaches in-process, or null (sockets only). */
        LocalLinks local;
        /** The node keys this side's handshakes use (NONE: the cluster secret alone). */
        NodeIdentity identity = NodeIdentity.NONE;
        /** The test family is registered as bursting; bursts received are counted and unpacked. */
        boolean bursting;
        final AtomicInteger bursts = new AtomicInteger();

        Side(NetAddress self, String secret, NetworkSettings settings) {
            this.self = self;
            this.secret = secret;
            this.settings = settings;
        }

        Side bursting() {
            this.bursting = true;
            return this;
        }

        Side withIdentity(NodeIdentity identity) {
            this.identity = identity;
            return this;
        }

        /** The keys this side, a node, takes clients by, looked up again every {@code recheckMs}. */
        KeyResolver keys;
        long keyRecheckMs;
        /** The access key this side, a client, presents: id and secret; null: the cluster secret. */
        String keyId;
        byte[] keySecret;

        Side withKeys(KeyResolver resolver, long recheckMs) {
            this.keys = resolver;
            this.keyRecheckMs = recheckMs;
            return this;
        }

        Side withAccessKey(String id, byte[] secret) {
            this.keyId = id;
            this.keySecret = secret;
            return this;
        }

        Side withLocalLinks(LocalLinks links) {
            this.local = links;
            return this;
        }

        /** Listens on {@code address} while known as {@link #self} (see GeoNetworkInit#withBind). */
        Side listeningOn(InetAddress address) {
            this.bind = address;
            return this;
        }

        InetAddress bind;

        void send(KompicsEvent e) {
            endpoint.send(e);
        }

        /**
         * The received TestMsgs with sequence numbers in {@code [first, first + count)}, by number, once
         * all have come or after 10 s (others are skipped).
         */
        Map<Long, TestMsg> collect(long first, int count) throws InterruptedException {
            Map<Long, TestMsg> got = new HashMap<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (got.size() < count && System.nanoTime() < end) {
                TestMsg m = (TestMsg) received.poll(100, TimeUnit.MILLISECONDS);
                if (m != null && m.seq >= first && m.seq < first + count) {
                    got.put(m.seq, m);
                }
            }
            return got;
        }

        /** The received TestMsg with sequence number {@code n} (others are skipped), or null after 10 s. */
        TestMsg await(long n) throws InterruptedException {
            return await(n, 10);
        }

        /** As above, null after {@code seconds}. */
        TestMsg await(long n, int seconds) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < end) {
                TestMsg m = (TestMsg) received.poll(100, TimeUnit.MILLISECONDS);
                if (m != null && m.seq == n) {
                    return m;
                }
            }
            return null;
        }
    }

    /** Starts every side in this JVM's Kompics runtime and waits until each is listening. */
    static void start(List<Side> sides) throws InterruptedException {
        Kompics.createAndStart(Pair.class, new PairInit(sides), 2);
        for (Side s : sides) {
            Assertions.assertNotNull(LoopbackNetworkTest.waitFor(s,
                    ListeningStatus.class), "listening");
        }
    }

    public Pair(PairInit init) {
        for (Side s : init.sides) {
            CodecRegistry codecs = (s.bursting ? new CodecRegistry().registerBursting(42, TestMsg.CODEC)
                    : new CodecRegistry().register(42, TestMsg.CODEC)).register(43, TailMsg.CODEC)
                    .register(44, StampMsg.CODEC);
            GeoNetwork.GeoNetworkInit netInit = new GeoNetwork.GeoNetworkInit(s.self, s.settings, s.secret, codecs)
                    .withIdentity(s.identity);
            if (s.bind != null) {
                netInit.withBind(s.bind);
            }
            if (s.keys != null) {
                netInit.withKeys(s.keys, s.keyRecheckMs);
            }
            if (s.keyId != null) {
                netInit.withAccessKey(s.keyId, s.keySecret);
            }
            if (s.keys != null || s.keyId != null) {
                netInit.withRelease(ClusterVersion.BUILD, "test"); // a client by key names its release (HELLO layout 4)
            }
            Component net = create(GeoNetwork.class, s.local == null ? netInit : netInit.withLocalLinks(s.local));
            Component ep = create(Endpoint.class, new EndpointInit(s));
            connect(ep.getNegative(Network.class), net.getPositive(Network.class), Channel.TWO_WAY);
            connect(ep.getNegative(NetworkControl.class), net.getPositive(NetworkControl.class), Channel.TWO_WAY);
        }
    }

    public static final class PairInit extends Init<Pair> {
        final List<Side> sides;

        public PairInit(List<Side> sides) {
            this.sides = sides;
        }
    }

    /** Forwards test events to the network and records what comes back. */
    public static final class Endpoint extends ComponentDefinition {
        private final Positive<Network> net = requires(Network.class);
        private final Positive<NetworkControl> ctl = requires(NetworkControl.class);

        public Endpoint(EndpointInit init) {
            Side side = init.side;
            side.endpoint = this;
            handle(net, TestMsg.class, side.received::add);
            handle(net, TailMsg.class, side.tails::add);
            handle(net, StampMsg.class, m -> {
                m.handledNanos = System.nanoTime();
                side.stamps.add(m);
                if (m.seq == 0 && side.stallMs > 0) {
                    try {
                        Thread.sleep(side.stallMs); // a busy receiver: what arrives meanwhile waits in its queue
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            handle(net, NetBurst.class, b -> {
                side.bursts.incrementAndGet();
                for (NetMsg p : b.parts()) {
                    if (!p.getHeader().equals(b.getHeader())) {
                        throw new IllegalStateException(p + " in a burst of " + b.getHeader());
                    }
                    side.received.add(p);
                }
            });
            handle(ctl, ListeningStatus.class, side.control::add);
            handle(ctl, NetworkException.class, side.control::add);
        }

        /** Kompics ports accept events from any thread. */
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
