package geoblocks.network.component;

import com.google.common.collect.ImmutableMap;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.NetMsg;
import geoblocks.net.PeerVersions;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.session.KeyResolver;
import geoblocks.network.session.NodeIdentity;
import java.net.InetAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Handler;
import se.sics.kompics.Init;
import se.sics.kompics.Negative;
import se.sics.kompics.network.ListeningStatus;
import se.sics.kompics.network.Msg;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;

/**
 * Provides the Kompics {@link Network} port on Netty: TCP messages in length-prefixed frames over
 * one mutually authenticated connection per peer pair (TLS 1.3 optional), UDP datagrams sealed
 * with per-session AES-GCM keys, epoll with NIO fallback. A drop-in for Kompics' NettyNetwork for
 * components that send {@link NetMsg}s whose family is in the {@link CodecRegistry}; announces
 * {@link ListeningStatus}, {@code ConnectionStatus} and {@link NetworkException} on
 * {@link NetworkControl} like NettyNetwork. Thin glue: the work is in {@link NetworkCore}.
 */
public final class GeoNetwork extends ComponentDefinition {
    private static final Logger LOG = LoggerFactory.getLogger(GeoNetwork.class);

    private final Negative<Network> net = provides(Network.class);
    private final Negative<NetworkControl> control = provides(NetworkControl.class);
    private final NetworkCore core;
    private final NetAddress self;

    public GeoNetwork(GeoNetworkInit init) {
        self = init.self;
        core = new NetworkCore(init.settings, init.self, init.secret, init.codecs,
                m -> trigger(m, net), e -> trigger(e, control), init.local);
        core.identity(init.identity);
        core.keys(init.keys, init.keyRecheckMs);
        if (init.keyId != null) {
            if (init.release == null) {
                throw new IllegalArgumentException("a client by access key names its release in its HELLO (withRelease)");
            }
            core.ownKey(init.keyId, init.keySecret);
        }
        if (init.versions != null) {
            core.versions(init.versions);
        }
        if (init.bind != null) {
            core.bindTo(init.bind);
        }
        core.release(init.release, init.build);
        subscribe(onSend, net);
        onStart(started -> {
            try {
                int port = core.start();
                trigger(new ListeningStatus(ImmutableMap.of(Transport.TCP, port, Transport.UDP, port),
                        self.getIp(), self.getIp()), control);
            } catch (Exception e) {
                throw new IllegalStateException("cannot listen on " + self + ": " + e.getMessage(), e);
            }
        });
    }

    @Override
    public void tearDown() {
        core.stop();
    }

    @SuppressWarnings("rawtypes")
    private final Handler<Msg> onSend = new Handler<>() {
        @Override
        public void handle(Msg m) {
            send(m);
        }
    };

    private void send(Msg<?, ?> m) {
        if (!(m instanceof NetMsg nm)) {
            LOG.error("dropped {}: only geoblocks NetMsg messages can be sent", m.getClass().getName());
            return;
        }
        try {
            core.send(nm);
        } catch (RuntimeException e) {
            LOG.error("cannot send {}: {}", nm, e.getMessage());
            trigger(new NetworkException(e.getMessage(), nm.getHeader().destination(), nm.getHeader().protocol()), control);
        }
    }

    /** The socket transport these settings give on this machine: "epoll" or "nio". */
    public static String transportFor(NetworkSettings settings) {
        return Transports.choose(settings.transport()).name();
    }

    public static final class GeoNetworkInit extends Init<GeoNetwork> {
        final NetAddress self;
        final NetworkSettings settings;
        final String secret;
        final CodecRegistry codecs;

        /** The message families this network carries, and the versions its handshakes offer of each. */
        public CodecRegistry codecs() {
            return codecs;
        }
        LocalLinks local;
        NodeIdentity identity = NodeIdentity.NONE;
        /** The address to listen on when not {@code self}'s own (e.g. 0.0.0.0, or a private address behind NAT); null: self's. */
        InetAddress bind;

        /**
         * Listens on {@code address} (TCP and UDP, at {@code self}'s port) while peers know this endpoint as
         * {@code self} (it names itself so in its handshakes): a node whose advertised address is not on its host.
         */
        public GeoNetworkInit withBind(InetAddress address) {
            this.bind = address;
            return this;
        }

        /**
         * Where the handshakes write the versions each peer agreed, for the components that write this
         * network's messages (see {@link geoblocks.net.PeerVersions}); by default a registry of its own.
         */
        public GeoNetworkInit withVersions(PeerVersions versions) {
            this.versions = versions;
            return this;
        }

        PeerVersions versions;
        ClusterVersion release;
        String build = "";

        /**
         * Names what this process runs in its handshakes (layout 3 HELLOs): its release line and build
         * ("0.3.0 (commit 1a2b3c4d5e6f)"). Without it (or with a null release), HELLOs of layout 2 name none,
         * as the previous release's do.
         */
        public GeoNetworkInit withRelease(ClusterVersion release, String build) {
            this.release = release;
            this.build = build == null ? "" : build;
            return this;
        }

        /** The cluster's node keys and this process's own (a node's; none for a client): see NodeIdentity. */
        public GeoNetworkInit withIdentity(NodeIdentity identity) {
            this.identity = identity;
            return this;
        }

        KeyResolver keys = KeyResolver.NONE;
        long keyRecheckMs = NetworkCore.KEY_RECHECK_MS;
        String keyId;
        byte[] keySecret;

        /**
         * A node's network: takes clients by access key, looking each key up with {@code resolver} at the handshake
         * and again every {@code recheckMs} while the session lasts (see TcpSession); none by default.
         */
        public GeoNetworkInit withKeys(KeyResolver resolver, long recheckMs) {
            if (recheckMs < 1) {
                throw new IllegalArgumentException("key recheck interval must be >= 1 ms, was " + recheckMs);
            }
            this.keys = resolver;
            this.keyRecheckMs = recheckMs;
            return this;
        }

        /** A node's network taking clients by access key, each session's key looked up again every 5 s. */
        public GeoNetworkInit withKeys(KeyResolver resolver) {
            return withKeys(resolver, NetworkCore.KEY_RECHECK_MS);
        }

        /** A client's network: it authenticates to the nodes by access key {@code id} and {@code secret}. */
        public GeoNetworkInit withAccessKey(String id, byte[] secret) {
            this.keyId = id;
            this.keySecret = secret.clone();
            return this;
        }

        /** TCP messages to endpoints registered in {@code links} (in this process) skip the sockets; see {@link LocalLinks}. */
        public GeoNetworkInit withLocalLinks(LocalLinks links) {
            this.local = links;
            return this;
        }

        public GeoNetworkInit(NetAddress self, NetworkSettings settings, String secret, CodecRegistry codecs) {
            this.self = self;
            this.settings = settings;
            this.secret = secret;
            this.codecs = codecs;
        }
    }
}
