package geoblocks.network.component;

import geoblocks.net.ClusterVersion;
import geoblocks.net.HostPort;
import geoblocks.net.PeerUnreachable;
import geoblocks.net.PeerVersions;
import geoblocks.net.VersionRange;
import geoblocks.network.NettyMemory;
import geoblocks.network.session.ConnectFailures;
import geoblocks.network.session.KeyResolver;
import geoblocks.network.session.NodeIdentity;

import geoblocks.net.NetAddress;
import geoblocks.net.NetBurst;
import geoblocks.net.NetMsg;
import geoblocks.network.CodecRegistry;
import geoblocks.network.NetworkSettings;
import geoblocks.network.frame.Control;
import geoblocks.network.frame.FrameDecoder;
import geoblocks.network.frame.Frames;
import geoblocks.network.session.PeerLinks;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;

/**
 * Everything of the network that is not Kompics glue: sockets, connection table, datagram
 * sessions. Messages arrive from the component's thread ({@link #send}); received messages and
 * connection events leave through the two callbacks, from Netty's event loops.
 */
final class NetworkCore {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkCore.class);
    private static final AttributeKey<OutboundQueue> OUT = AttributeKey.valueOf("geoblocks.out");
    /**
     * Bytes of written, unflushed-to-the-socket frames above which a connection stops taking blocks
     * from its OutboundQueue (and below which it takes them again): control messages overtake what
     * waits beyond it. Two 1 MiB frames: enough to keep the socket busy between drains.
     */
    /**
     * How often, by default, an open session of a client by access key looks its key up again: the session of a
     * revoked key is closed at most this long after the node's lookup says so.
     */
    static final long KEY_RECHECK_MS = 5_000;

    static final WriteBufferWaterMark WATER_MARK =
            new WriteBufferWaterMark(1 << 20, 2 << 20);

    /**
     * How much a TCP read asks the socket for: Netty's adaptive guess (it grows while reads fill
     * the buffer and shrinks when they do not), up to 1 MiB instead of Netty's 64 KiB, so a 1 MiB
     * block arrives in a few reads rather than sixteen. A connection carrying small messages keeps
     * small reads.
     */
    static final AdaptiveRecvByteBufAllocator READS =
            new AdaptiveRecvByteBufAllocator(64, 2048, 1 << 20);

    private final NetworkSettings settings;
    private final NetAddress self;
    private final byte[] secret;
    private final CodecRegistry codecs;
    private final Consumer<NetMsg> deliver;
    private final Consumer<KompicsEvent> control;
    private final SecureRandom random = new SecureRandom();
    private final PeerLinks<Channel, Outgoing> links;
    private final boolean tls;
    private final RefusedLog refusedLog = new RefusedLog(LOG);
    private Transports transports;
    private EventLoopGroup group;
    private TlsContexts tlsContexts;
    private Channel server;
    private UdpEndpoint udp;
    private Bootstrap dialer;
    /** In-process endpoints reached without sockets, or null. */
    private final LocalLinks local;
    /** The cluster's node keys and ours (NONE: the cluster secret alone, as before node keys). */
    private NodeIdentity identity = NodeIdentity.NONE;
    /** The versions each peer's handshake agreed, shared with the components that write messages. */
    private PeerVersions versions = new PeerVersions();
    /** Where a node looks up the access keys clients present (NONE: it takes no client by key). */
    private KeyResolver keys = KeyResolver.NONE;
    /** How often an open session of a client by access key looks its key up again, in ms. */
    private long keyRecheckMs = KEY_RECHECK_MS;
    /** The access key this client presents when it dials (null: the cluster secret). */
    private String ownKeyId;
    private byte[] ownKeySecret;
    /** Whether this node takes clients proving the cluster secret (see NetworkSettings#secretClients). */
    private boolean secretClients = true;
    /** Where to listen when not at {@link #self} (see GeoNetworkInit#withBind); null: self's address. */
    private InetAddress bind;

    NetworkCore(NetworkSettings settings, NetAddress self, String secret, CodecRegistry codecs,
            Consumer<NetMsg> deliver, Consumer<KompicsEvent> control) {
        this(settings, self, secret, codecs, deliver, control, null);
    }

    NetworkCore(NetworkSettings settings, NetAddress self, String secret, CodecRegistry codecs,
            Consumer<NetMsg> deliver, Consumer<KompicsEvent> control, LocalLinks local) {
        this.local = local;
        this.settings = settings;
        this.self = self;
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.codecs = codecs;
        this.deliver = deliver;
        this.control = control;
        this.tls = settings.tls(self.getIp().isLoopbackAddress());
        this.links = new PeerLinks<>(self, new LinkIo());
    }

    /** Binds TCP and UDP on the address's port; returns the bound port. */
    int start() throws Exception {
        secretClients = settings.secretClients(self.getIp().isLoopbackAddress(), identity.everyMemberKeyed());
        transports = Transports.choose(settings.transport());
        group = transports.group(settings.ioThreads());
        if (tls) {
            tlsContexts = new TlsContexts(settings, self.getIp().getHostAddress());
        }
        ServerBootstrap sb = new ServerBootstrap().group(group).channel(transports.server())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, READS)
                .childHandler(pipeline(null));
        server = sb.bind(new InetSocketAddress(bindIp(), self.getPort())).sync().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        dialer = new Bootstrap().group(group).channel(transports.socket())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .option(ChannelOption.RCVBUF_ALLOCATOR, READS)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeoutMs());
        udp = new UdpEndpoint(this);
        udp.bind(group, transports, new InetSocketAddress(bindIp(), port));
        LOG.info("geoblocks network on {}{}: {} transport, {}, max frame {} bytes, {} direct memory, UDP {}",
                HostPort.of(self.getIp(), port),
                bind == null ? "" : " (listening on " + HostPort.literal(bind) + ")",
                transports.name(),
                tls ? "TLS 1.3 (" + tlsContexts.provider + ") + AES-GCM datagrams"
                        : "cluster-secret handshake, unencrypted TCP + AES-GCM datagrams",
                settings.maxFrameBytes(), NettyMemory.unzeroed() ? "unzeroed" : "zeroed",
                udp.describe());
        if (local != null) {
            local.register(self, deliver);
        }
        return port;
    }

    void stop() {
        if (local != null) {
            local.unregister(self);
        }
        if (group != null) {
            group.shutdownGracefully(0, 200, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    private ChannelInitializer<Channel> pipeline(NetAddress dialled) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                OutboundQueue out = new OutboundQueue(ch, null, true);
                ch.attr(OUT).set(out);
                ch.pipeline().addLast("out", out); // hears writability changes (first: before TLS and framing)
                ch.pipeline().addLast("heard", new FirstBytes());
                if (tls) {
                    ch.pipeline().addLast("tls", dialled == null
                            ? tlsContexts.server.newHandler(ch.alloc())
                            : tlsContexts.client.newHandler(ch.alloc(), dialled.getIp().getHostAddress(), dialled.getPort()));
                }
                ch.pipeline().addLast("frames", new FrameDecoder(settings.maxFrameBytes()));
                ch.pipeline().addLast("session", new TcpSession(NetworkCore.this, dialled));
            }
        };
    }

    /** Sends from the component's thread: local delivery, TCP through the link table, or UDP. */
    void send(NetMsg m) {
        if (m instanceof NetBurst b) {
            for (NetMsg part : b.parts()) {
                send(part);
            }
            return;
        }
        NetAddress dst = m.getHeader().destination();
        if (dst.equals(self)) {
            deliver.accept(m);
            return;
        }
        Transport t = m.getHeader().protocol();
        if (t == Transport.UDP) {
            udp.send(m);
            return;
        }
        if (t != Transport.TCP) {
            throw new IllegalArgumentException("transport " + t + " is not supported (TCP and UDP are)");
        }
        int id = codecs.idOf(m);
        int size = codecs.encodedSize(id, m);
        try {
            Frames.checkFits(m, size, settings.maxFrameBytes()); // refused here, on the sender's thread
        } catch (IllegalArgumentException e) {
            codecs.release(id, m);
            throw e;
        }
        Consumer<NetMsg> inProcess = local == null ? null : local.find(dst);
        if (inProcess != null) {
            inProcess.accept(m);
            return;
        }
        links.send(dst, new Outgoing(m, id, size));
    }

    /** A TCP message with its codec id and encoded size, computed once when it is sent. */
    private record Outgoing(NetMsg msg, int codecId, int size) {}

    /** What to log about failed connections: a peer that stays down is warned about once, then summed up a minute. */
    private final ConnectFailures connectFailures =
            new ConnectFailures(60_000_000_000L);

    /**
     * A handshake completed; {@code keyed}: one end is a client by access key, whose connection carries no datagrams
     * (a client sends none, and no datagram key of it could be told from a member's at the same address).
     */
    void established(Channel ch, NetAddress peer, boolean dialledBySelf, byte[] sessionSecret, int[] agreed,
            PeerVersions.Release release, boolean keyed) {
        String back;
        synchronized (connectFailures) {
            back = connectFailures.connected(peer, System.nanoTime());
        }
        if (back != null) {
            LOG.info(back);
        }
        versions.released(peer, release);
        if (versions.agreed(peer, agreed)) {
            StringBuilder older = new StringBuilder();
            for (int id = 1; id < 256; id++) {
                VersionRange ours = codecs.versions(id);
                if (agreed[id] >= 0 && ours != null && agreed[id] < ours.max()) {
                    older.append(older.length() == 0 ? "" : ", ").append(codecs.name(id)).append(" at ").append(agreed[id])
                            .append(" of ").append(ours);
                }
            }
            if (older.length() > 0) {
                LOG.warn("{} runs an older geoblocks: {}; messages to it go at that version until it is upgraded", peer,
                        older);
            }
        }
        if (!keyed) {
            udp.onSession(peer, sessionSecret);
        }
        links.established(ch, peer, dialledBySelf);
        control.accept(ConnectionStatus.established(peer, Transport.TCP));
        udp.flushPending(peer);
    }

    void closed(Channel ch, NetAddress dialledPeer, String why) {
        links.closed(ch, dialledPeer, why);
    }

    void dial(NetAddress peer) {
        links.dial(peer);
    }

    void deliver(NetMsg m) {
        deliver.accept(m);
    }

    void logRefused(String what) {
        refusedLog.log(what);
    }

    NetworkSettings settings() {
        return settings;
    }

    NetAddress self() {
        return self;
    }

    /** Shares where the handshakes write the versions they agree; before {@link #start}. */
    void versions(PeerVersions versions) {
        this.versions = versions;
    }

    PeerVersions versions() {
        return versions;
    }

    private ClusterVersion release;
    private String build = "";

    /** What this process names in its HELLOs (null: layout 2, naming none); before {@link #start}. */
    void release(ClusterVersion release, String build) {
        this.release = release;
        this.build = build;
    }

    ClusterVersion release() {
        return release;
    }

    String build() {
        return build;
    }

    /** Sets the node keys the handshakes use; before {@link #start}. */
    void identity(NodeIdentity identity) {
        this.identity = identity;
    }

    /** Listens on {@code address} instead of this endpoint's own (advertised) address; before {@link #start}. */
    void bindTo(InetAddress address) {
        this.bind = address;
    }

    private InetAddress bindIp() {
        return bind != null ? bind : self.getIp();
    }

    /** Whether {@code address} is an endpoint of this process reached without sockets ({@link LocalLinks}). */
    boolean inProcess(NetAddress address) {
        return local != null && local.find(address) != null;
    }

    NodeIdentity identity() {
        return identity;
    }

    /** Looks up the access keys clients present with {@code resolver}, each session again every {@code recheckMs}. */
    void keys(KeyResolver resolver, long recheckMs) {
        this.keys = resolver;
        this.keyRecheckMs = recheckMs;
    }

    KeyResolver keys() {
        return keys;
    }

    long keyRecheckMs() {
        return keyRecheckMs;
    }

    /** This client presents access key {@code id} with {@code secret} when it dials; before {@link #start}. */
    void ownKey(String id, byte[] secret) {
        this.ownKeyId = id;
        this.ownKeySecret = secret.clone();
    }

    String ownKeyId() {
        return ownKeyId;
    }

    byte[] ownKeySecret() {
        return ownKeySecret;
    }

    boolean secretClients() {
        return secretClients;
    }

    byte[] secret() {
        return secret;
    }

    byte[] nonce() {
        byte[] n = new byte[Control.NONCE_BYTES];
        random.nextBytes(n);
        return n;
    }

    CodecRegistry codecs() {
        return codecs;
    }

    PeerLinks<Channel, ?> links() {
        return links;
    }

    boolean tls() {
        return tls;
    }

    private static OutboundQueue out(Channel ch) {
        return ch.attr(OUT).get();
    }

    /** The link table's I/O: everything only enqueues (it runs under the table's lock). */
    private final class LinkIo implements PeerLinks.Io<Channel, Outgoing> {
        @Override
        public void connect(NetAddress peer) {
            dialer.clone().handler(pipeline(peer)).connect(peer.asSocket()).addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess()) {
                    links.closed(f.channel(), peer, "cannot connect to " + peer + ": " + f.cause().getMessage());
                }
            });
        }

        @Override
        public void send(Channel ch, Outgoing o) {
            ByteBuf frame;
            try {
                frame = Frames.data(ch.alloc(), codecs, o.msg(), o.codecId(), o.size(), settings.maxFrameBytes());
            } catch (RuntimeException e) {
                LOG.error("cannot send {}: {}", o.msg(), e.getMessage());
                codecs.release(o.codecId(), o.msg());
                return;
            }
            if (o.msg().isControl()) {
                out(ch).addControl(frame);
            } else {
                out(ch).add(frame);
            }
        }

        @Override
        public void sendControl(Channel ch, Control c) {
            out(ch).add(Frames.control(ch.alloc(), c));
        }

        @Override
        public void close(Channel ch) {
            ch.eventLoop().execute(() -> {
                ch.flush();
                ch.close();
            });
        }

        @Override
        public void failed(NetAddress peer, String why, List<Outgoing> dropped) {
            String line;
            synchronized (connectFailures) {
                line = connectFailures.failed(peer, why, dropped.size(), System.nanoTime());
            }
            if (line != null) { // a peer that stays down: its first failure, then a summary a minute
                LOG.warn(line);
            }
            List<NetMsg> unsent = new ArrayList<>(dropped.size());
            for (Outgoing o : dropped) {
                codecs.release(o.codecId(), o.msg()); // bytes they carried, sent nowhere
                unsent.add(o.msg());
            }
            // typed: the senders of the unsent messages know their requests did not happen
            control.accept(new NetworkException(why, peer, Transport.TCP, new PeerUnreachable(why, peer, unsent)));
        }

        @Override
        public void dropped(NetAddress peer) {
            udp.forget(peer);
            versions.forget(peer); // it may come back as another build: until its next handshake, the lowest version

            control.accept(ConnectionStatus.dropped(peer, Transport.TCP, true));
        }
    }
}
