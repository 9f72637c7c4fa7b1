package geoblocks.network.component;

import geoblocks.net.DatagramRefused;
import geoblocks.net.HostPort;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.NetMsg;
import geoblocks.net.WireStats;
import geoblocks.network.udp.DatagramAuthException;
import geoblocks.network.udp.DatagramSealer;
import geoblocks.network.udp.PairKeys;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.netty.channel.unix.SegmentedDatagramPacket;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * The UDP socket: every datagram is encrypted and authenticated with the AES-GCM keys of the peer
 * pair's authenticated TCP session (in both security modes) and carries a sequence number checked
 * against a replay window. Layout of a datagram:
 *
 * <pre>
 * | key id u32 | seq u64 | codec id u8 | codec bytes | GCM tag (16) |   (body = codec id + bytes)
 * </pre>
 *
 * A datagram to a peer without a session waits (up to udp-queue per peer) while the session is
 * set up. Sending: the caller only queues a datagram on the control lane (RTT probes and their
 * answers) or the ordered lane of the socket's {@link OutboundQueue}; the event loop encodes and
 * seals it when it writes it, control first. Datagrams queued in one burst go out in one flush, as
 * GSO segments (equal-size runs to one peer) on epoll where the kernel supports UDP_SEGMENT, else
 * sendmmsg. A datagram that says it travels {@linkplain NetMsg#alone() alone} (a path MTU probe) is never
 * batched. On epoll the socket never fragments (IP_MTU_DISCOVER = IP_PMTUDISC_PROBE: DF set, the
 * interface's MTU the limit), so a datagram too big for the interface is refused (EMSGSIZE) instead of
 * going out in IP fragments; such a refusal is counted and delivered up as a
 * {@link geoblocks.net.DatagramRefused} naming the peer and the size, for LEDBAT's path MTU search.
 * Receiving uses GRO and recvmmsg on epoll; datagrams of a bursting family (see
 * {@link geoblocks.network.CodecRegistry#registerBursting}) that one read brings from one peer are
 * delivered as one {@link geoblocks.net.NetBurst} ({@link InboundBursts}). A datagram that is too short, names an unknown key,
 * fails its tag, is replayed, or does not decode is dropped and counted. Times for RTT probes: a message is
 * {@linkplain NetMsg#stampSent stamped} as it is encoded for the socket (after the lanes, the session wait and the
 * Kompics queues; with the time its sealing is expected to end, {@link SealTime}) and {@linkplain NetMsg#stampReceived as read} with the time its read returned (before opening,
 * decoding and the receiver's queue; a datagram held for its session keeps the time it was first read).
 */
final class UdpEndpoint {
    /** Largest UDP payload. */
    static final int MAX_DATAGRAM = 65_507;
    private static final int GSO_MAX_BYTES = 65_000;
    private static final int GSO_MAX_SEGMENTS = 64;
    private static final int KEYS_KEPT_PER_PEER = 4;
    /**
     * UDP payload every path is assumed to take (QUIC's 1,200 bytes): only larger datagrams are watched
     * for refusals as too big (a smaller refusal is the socket's error, logged).
     */
    static final int SAFE_DATAGRAM = 1200;
    /** Linux's EMSGSIZE, as Netty's native errors carry it (negated). */
    private static final int EMSGSIZE = 90;
    // setsockopt(IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_PROBE) and its IPv6 twin: set DF, never
    // fragment, and ignore the kernel's ICMP-learned path MTU (the path MTU is searched above UDP)
    private static final IntegerUnixChannelOption IP_MTU_DISCOVER = new IntegerUnixChannelOption("IP_MTU_DISCOVER", 0, 10);
    private static final IntegerUnixChannelOption IPV6_MTU_DISCOVER =
            new IntegerUnixChannelOption("IPV6_MTU_DISCOVER", 41, 23);
    private static final int PMTUDISC_PROBE = 3;
    /**
     * Bulk datagrams waiting to be sealed and written above which new ones are dropped: about 11 MiB
     * of 1,400-byte datagrams, several times the 4 MiB socket buffer.
     */
    static final int MAX_QUEUED = 8192;

    private final NetworkCore core;
    private final Map<NetAddress, Sender> senders = new ConcurrentHashMap<>();
    private final Map<Integer, Receiver> receivers = new ConcurrentHashMap<>();
    private final Map<NetAddress, ArrayDeque<Integer>> keysByPeer = new ConcurrentHashMap<>();
    private final Map<NetAddress, ArrayDeque<NetMsg>> pending = new ConcurrentHashMap<>();
    /**
     * A datagram's body before sealing and after opening. Only touched on the UDP channel's event loop
     * (seal in a drain, open in a read or a retry of held datagrams), so one per endpoint is enough.
     */
    private final ByteBuffer scratch = ByteBuffer.allocate(MAX_DATAGRAM);
    /** How long stamped datagrams take to seal; only touched on the UDP channel's event loop. */
    private final SealTime sealTime = new SealTime();
    private Channel channel;
    /**
     * The socket for peers of the other address family than {@link #channel}'s address (an IPv6 peer of a
     * node at an IPv4 address, or the reverse), on the same event loop; null when {@link #channel} reaches
     * both (it is bound to the IPv6 wildcard, dual-stack) or this host has no socket of the other family.
     */
    private Channel otherFamily;
    /** {@link #channel}'s address is IPv6. */
    private boolean mainIpv6;
    private OutboundQueue out;
    private boolean gso;
    private boolean gro;
    /** IP_MTU_DISCOVER was set: the socket does not fragment. */
    private boolean dontFragment;
    private int maxDatagram = MAX_DATAGRAM;
    /** Logs refusals as too big at most once per 10 s (a refused size can repeat for every datagram). */
    private final RefusedLog tooBigLog = new RefusedLog(LoggerFactory.getLogger(UdpEndpoint.class),
            "too big for the path");

    private static final class Sender {
        final DatagramSealer sealer;
        long nextSeq;

        Sender(DatagramSealer sealer) {
            this.sealer = sealer;
        }
    }

    private record Receiver(DatagramSealer opener, NetAddress peer) {}

    private record Held(ByteBuf data, InetSocketAddress from, long since) {}

    private static final int HELD_MAX = 256;
    private static final long HELD_NANOS = 1_000_000_000L;
    /** Datagrams with an unknown key id, oldest first; only touched on the UDP channel's event loop. */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** What one read decodes, gathered into bursts; only touched on the UDP channel's event loop. */
    private final InboundBursts inbound;

    UdpEndpoint(NetworkCore core) {
        this.core = core;
        this.inbound = new InboundBursts(core::deliver);
    }

    void bind(EventLoopGroup group, Transports t, InetSocketAddress at) throws InterruptedException {
        int buffer = core.settings().udpBufferBytes();
        Bootstrap b = new Bootstrap().group(group).channel(t.datagram())
                .option(ChannelOption.SO_SNDBUF, buffer)
                .option(ChannelOption.SO_RCVBUF, buffer)
                .handler(new Inbound());
        if (t.epoll()) {
            gso = core.settings().udpGso() && io.netty.channel.epoll.SegmentedDatagramPacket.isSupported();
            gro = core.settings().udpGro() && gso;
            if (gro) {
                // GRO: one recvmsg returns up to 64 KiB of coalesced segments (Netty reports the
                // segment size only on this path, not with recvmmsg)
                b.option(EpollChannelOption.UDP_GRO, true);
                b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(65_536));
            } else {
                // recvmmsg: up to 64 datagrams of at most 4 KiB per syscall
                maxDatagram = 4_096;
                b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, maxDatagram);
                b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(256 * 1024));
            }
        } else {
            b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM));
        }
        if (t.epoll()) {
            // never fragment: a datagram too big for the interface is refused, not split (see the class comment)
            b.option(at.getAddress() instanceof Inet6Address ? IPV6_MTU_DISCOVER : IP_MTU_DISCOVER, PMTUDISC_PROBE);
        }
        channel = b.bind(at).sync().channel();
        if (t.epoll()) {
            Integer v = channel.config().getOption(at.getAddress() instanceof Inet6Address ? IPV6_MTU_DISCOVER
                    : IP_MTU_DISCOVER);
            dontFragment = v != null && v == PMTUDISC_PROBE;
        }
        out = new OutboundQueue(channel, this::writeBatch, false);
        mainIpv6 = at.getAddress() instanceof Inet6Address;
        if (!(mainIpv6 && at.getAddress().isAnyLocalAddress())) {
            bindOtherFamily(b, t);
        }
    }

    /**
     * A socket bound to an IPv4 address (0.0.0.0 too) cannot send to an IPv6 peer, nor one bound to an IPv6
     * address to an IPv4 peer (the kernel refuses: network unreachable), so in a cluster that mixes both
     * families datagrams to peers of the other family leave from a second socket, at the other family's
     * wildcard address and a port of the kernel's choosing (peers send to this node's advertised address,
     * never back to where a datagram came from; datagrams are told apart by their key ids). A host without
     * the other family has none, and such peers are unreachable over UDP, as before.
     */
    private void bindOtherFamily(Bootstrap main, Transports t) throws InterruptedException {
        InetSocketAddress any = new InetSocketAddress(mainIpv6 ? "0.0.0.0" : "::", 0);
        Bootstrap b = main.clone(channel.eventLoop()).handler(new Inbound());
        if (t.epoll()) {
            b.option(mainIpv6 ? IP_MTU_DISCOVER : IPV6_MTU_DISCOVER, PMTUDISC_PROBE);
        }
        ChannelFuture f = b.bind(any).await();
        if (f.isSuccess()) {
            otherFamily = f.channel();
        } else {
            LoggerFactory.getLogger(UdpEndpoint.class).debug("no {} socket for peers of that family: {}",
                    mainIpv6 ? "IPv4" : "IPv6", f.cause().toString());
        }
    }

    /** The socket that reaches {@code to}: the main one, or the one of the other address family. */
    private Channel channelFor(InetSocketAddress to) {
        return otherFamily == null || (to.getAddress() instanceof Inet6Address) == mainIpv6 ? channel
                : otherFamily;
    }

    String describe() {
        return (gso ? "GSO sends" : "batched sends") + (gro ? ", GRO receives" : "")
                + (dontFragment ? ", no fragmentation" : ", the kernel may fragment")
                + (otherFamily == null ? "" : ", " + (mainIpv6 ? "IPv4" : "IPv6") + " peers from "
                        + HostPort.of(((InetSocketAddress) otherFamily.localAddress()).getAddress(),
                                ((InetSocketAddress) otherFamily.localAddress()).getPort()))
                + ", buffers " + core.settings().udpBufferBytes() + " B";
    }

    /**
     * The text a pair's datagram keys are derived from for {@code a}: the ip as the JDK writes it and the port
     * ({@code 0:0:0:0:0:0:0:1:47100}), as addresses printed before they printed IPv6 bracketed, so that a peer
     * on an older build derives the same keys.
     */
    static String keyLabel(NetAddress a) {
        return a.getIp().getHostAddress() + ":" + a.getPort();
    }

    /** A TCP session with {@code peer} authenticated: (re)key datagrams with it. */
    void onSession(NetAddress peer, byte[] sessionSecret) {
        // Always encrypted: with javax.crypto, AES-GCM encryption allocates less and runs faster
        // than GMAC over the plaintext (SealerBench), so authentication-only would cost more.
        PairKeys keys = PairKeys.derive(sessionSecret, keyLabel(core.self()), keyLabel(peer), true);
        Receiver r = new Receiver(keys.receiver(), peer);
        receivers.put(r.opener().keyId(), r);
        ArrayDeque<Integer> kept = keysByPeer.computeIfAbsent(peer, p -> new ArrayDeque<>());
        synchronized (kept) {
            kept.add(r.opener().keyId());
            while (kept.size() > KEYS_KEPT_PER_PEER) {
                receivers.remove(kept.poll());
            }
        }
        senders.put(peer, new Sender(keys.sender()));
        channel.eventLoop().execute(this::retryHeld);
    }

    /**
     * The last TCP connection to {@code peer} closed: stop sealing datagrams with that session's
     * keys (a restarted peer would not know them); the next datagram sets up a new session. Its
     * receiving keys stay a while (KEYS_KEPT_PER_PEER) for datagrams still in flight.
     */
    void forget(NetAddress peer) {
        senders.remove(peer);
    }

    /** Sends datagrams that waited for {@code peer}'s session. */
    void flushPending(NetAddress peer) {
        ArrayDeque<NetMsg> q = pending.remove(peer);
        if (q != null) {
            synchronized (q) {
                for (NetMsg m : q) {
                    try {
                        send(m);
                    } catch (RuntimeException e) {
                        core.logRefused("cannot send " + m + ": " + e.getMessage());
                    }
                }
            }
        }
    }

    /**
     * Seals and queues one datagram (any thread); IllegalArgumentException, before anything is
     * queued, if it does not fit in a datagram.
     */
    void send(NetMsg m) {
        // size first: a datagram queued for a session must not fail later, in flushPending, which
        // runs inside the TCP handshake and would close the freshly authenticated connection
        int id = core.codecs().idOf(m);
        int size = 1 + core.codecs().encodedSize(id, m);
        if (size + DatagramSealer.OVERHEAD > maxDatagram) {
            throw new IllegalArgumentException(m.getClass().getSimpleName() + " of " + size
                    + " bytes does not fit in a datagram (max " + (maxDatagram - DatagramSealer.OVERHEAD) + ")");
        }
        NetAddress dst = m.getHeader().destination();
        Sender s = senders.get(dst);
        if (s == null) {
            ArrayDeque<NetMsg> q = pending.computeIfAbsent(dst, p -> new ArrayDeque<>());
            synchronized (q) {
                if (q.size() < core.settings().udpQueue()) {
                    q.add(m);
                }
            }
            core.dial(dst);
            if (senders.containsKey(dst)) {
                flushPending(dst);
            }
            return;
        }
        // encoded and sealed on the event loop, in the order the lanes give: the caller (the network
        // component's Kompics handler) only queues, so a flood of datagrams never builds a queue of
        // Kompics events in front of a probe
        Unsealed u = new Unsealed(m, id, size, s, dst.asSocket());
        if (m.isControl()) {
            out.addControl(u); // RTT probes and their answers leave before the bulk datagrams queued
        } else if (out.orderedQueued() >= MAX_QUEUED) {
            // a sender offering more than the event loop seals: drop, as a full socket buffer would,
            // instead of growing the heap (UDP promises nothing; LEDBAT sees it as loss)
            WireStats.udpQueueDropped();
        } else {
            out.add(u);
        }
    }

    /** A datagram queued to be encoded and sealed under {@code sender}'s keys when it is written. */
    record Unsealed(NetMsg msg, int codecId, int size, Sender sender, InetSocketAddress to) {}

    /**
     * On the event loop: encodes {@code u} and seals it at {@code out}'s position (which advances by
     * the datagram's length, {@code u.size() + OVERHEAD}).
     */
    private void seal(Unsealed u, ByteBuffer out) {
        assert channel.eventLoop().inEventLoop() : "sealed off the event loop";
        ByteBuffer body = scratch;
        body.clear();
        body.put((byte) u.codecId());
        // stamped here, after every queue, with the time its sealing is expected to end, so an RTT ping's
        // send time is when it leaves (see NetMsg#stampSent and SealTime)
        long start = System.nanoTime();
        NetMsg m = u.msg().stampSent(start + sealTime.expectedNanos());
        core.codecs().encode(u.codecId(), m, u.size() - 1, body);
        body.flip();
        Sender s = u.sender();
        synchronized (s) {
            s.sealer.seal(s.nextSeq++, body, out);
        }
        if (m != u.msg()) {
            sealTime.took(System.nanoTime() - start);
        }
    }

    /**
     * Drain writer: seals a batch in order and writes it. With GSO, each run of equal-size datagrams
     * to one peer (the last may be shorter) is sealed into one buffer and written as one segmented
     * send; otherwise each datagram has its own buffer (sendmmsg batches them on epoll).
     */
    private void writeBatch(List<Object> batch) {
        int n = batch.size();
        boolean other = false;
        for (int i = 0; i < n;) {
            int end = gso ? runEnd(batch, i) : i + 1;
            other |= channelFor(((Unsealed) batch.get(i)).to()) != channel;
            i = writeRun(batch, i, end);
        }
        if (other) {
            otherFamily.flush(); // the queue flushes the main socket
        }
    }

    /**
     * The end (exclusive) of the GSO run that starts at {@code from}: datagrams of one size to one peer
     * (the last may be shorter); a datagram that travels alone is a run of its own.
     */
    static int runEnd(List<Object> batch, int from) {
        Unsealed first = (Unsealed) batch.get(from);
        int seg = first.size() + DatagramSealer.OVERHEAD;
        int end = from + 1;
        if (first.msg().alone()) {
            return end;
        }
        while (end < batch.size() && end - from < GSO_MAX_SEGMENTS && (end - from + 1) * seg <= GSO_MAX_BYTES) {
            Unsealed u = (Unsealed) batch.get(end);
            int len = u.size() + DatagramSealer.OVERHEAD;
            if (len > seg || !u.to().equals(first.to()) || u.msg().alone()) {
                break;
            }
            end++;
            if (len < seg) {
                break; // a shorter datagram ends its run
            }
        }
        return end;
    }

    /**
     * Seals {@code batch[from, end)} (one peer; equal sizes but the last) into one buffer and
     * writes it; a datagram that fails to seal is logged and skipped, and what was sealed before it
     * is written. Returns the index after the last datagram handled.
     */
    private int writeRun(List<Object> batch, int from, int end) {
        Unsealed first = (Unsealed) batch.get(from);
        Channel ch = channelFor(first.to());
        int seg = first.size() + DatagramSealer.OVERHEAD;
        int total = 0;
        for (int k = from; k < end; k++) {
            total += ((Unsealed) batch.get(k)).size() + DatagramSealer.OVERHEAD;
        }
        ByteBuf buf = ch.alloc().directBuffer(total);
        ByteBuffer nio = buf.internalNioBuffer(0, total);
        int base = nio.position();
        int sealed = 0;
        int k = from;
        for (; k < end; k++) {
            Unsealed u = (Unsealed) batch.get(k);
            nio.limit(base + sealed + u.size() + DatagramSealer.OVERHEAD).position(base + sealed);
            try {
                seal(u, nio);
            } catch (RuntimeException e) {
                core.logRefused("cannot send " + u.msg() + ": " + e.getMessage());
                k++;
                break;
            }
            sealed += u.size() + DatagramSealer.OVERHEAD;
        }
        if (sealed == 0) {
            buf.release();
        } else {
            buf.writerIndex(sealed);
            // datagrams above the safe size may be refused as too big: hear of it (one promise per run)
            ChannelPromise promise = seg > SAFE_DATAGRAM ? ch.newPromise().addListener(new Refusal(first.msg(), seg))
                    : ch.voidPromise();
            if (sealed <= seg) {
                ch.write(new DatagramPacket(buf, first.to()), promise);
            } else {
                ch.write(new io.netty.channel.epoll.SegmentedDatagramPacket(buf, seg, first.to()), promise);
            }
        }
        return k;
    }

    /**
     * Hears whether a write of datagrams of {@code size} bytes to {@code msg}'s peer failed: EMSGSIZE
     * (too big for the interface, and the socket does not fragment) is counted, logged at most every
     * 10 s, and delivered up as a DatagramRefused; any other failure is logged as the socket's.
     */
    private final class Refusal implements ChannelFutureListener {
        private final NetMsg msg;
        private final int size;

        Refusal(NetMsg msg, int size) {
            this.msg = msg;
            this.size = size;
        }

        @Override
        public void operationComplete(ChannelFuture f) {
            Throwable cause = f.cause();
            if (cause == null) {
                return;
            }
            if (tooBig(cause)) {
                WireStats.udpTooBig();
                if (!msg.alone()) {   // a probe refused is the search at work, not news
                    tooBigLog.log("datagram of " + size + " bytes to " + msg.getHeader().destination()
                            + " refused by the local stack (EMSGSIZE); LEDBAT's path MTU search takes a smaller size");
                }
                core.deliver(new DatagramRefused(msg.getHeader(), size));
            } else {
                core.logRefused("UDP socket: " + cause);
            }
        }
    }

    /** Whether a send failed because the datagram is larger than the path (as the host knows it) takes. */
    static boolean tooBig(Throwable cause) {
        if (cause instanceof Errors.NativeIoException e) {
            return e.expectedErr() == -EMSGSIZE;
        }
        String m = cause.getMessage();
        return cause instanceof IOException && m != null && m.contains("Message too long");
    }

    /**
     * A datagram whose key id is unknown may belong to a session this side has not installed yet
     * (the peer starts sending once it verified our PROOF, which can be before we verified its
     * one): keep a copy of up to {@value #HELD_MAX} such datagrams for a second and
     * retry them when a session is installed. What ages out or overflows is counted as refused.
     */
    private void holdUnknown(ByteBuf content, InetSocketAddress from, long now) {
        expireHeld(now);
        if (held.size() >= HELD_MAX) {
            refuseHeld(held.poll());
        }
        if (held.isEmpty()) {
            channel.eventLoop().schedule(this::expireHeldLater, HELD_NANOS, TimeUnit.NANOSECONDS);
        }
        held.add(new Held(content.copy(), from, now));
    }

    private void expireHeldLater() {
        expireHeld(System.nanoTime());
        if (!held.isEmpty()) {
            long wait = HELD_NANOS - (System.nanoTime() - held.peek().since());
            channel.eventLoop().schedule(this::expireHeldLater, Math.max(wait, 1_000_000L),
                    TimeUnit.NANOSECONDS);
        }
    }

    private void expireHeld(long now) {
        while (!held.isEmpty() && now - held.peek().since() > HELD_NANOS) {
            refuseHeld(held.poll());
        }
    }

    private void refuseHeld(Held h) {
        h.data().release();
        WireStats.unauthenticated();
        core.logRefused("datagram from " + h.from() + " with an unknown key id (no session, or an old one)");
    }

    /** On the UDP event loop after a session was installed: retry held datagrams. */
    private void retryHeld() {
        expireHeld(System.nanoTime());
        for (int n = held.size(); n > 0; n--) {
            Held h = held.poll();
            try {
                if (receivers.containsKey(DatagramSealer.peekKeyId(h.data().nioBuffer()))) {
                    receive(h.data(), h.from(), h.since()); // read then, held since
                    h.data().release();
                } else {
                    held.add(h);
                }
            } catch (DatagramAuthException e) {
                refuseHeld(h);
            }
        }
        inbound.flush();
    }

    /** One datagram, read off the socket at {@code readNanos} (System.nanoTime, see NetMsg#stampReceived). */
    private void receive(ByteBuf content, InetSocketAddress from, long readNanos) {
        ByteBuffer d = content.nioBuffer();
        Receiver r;
        long seq;
        ByteBuffer body;
        try {
            r = receivers.get(DatagramSealer.peekKeyId(d));
            if (r == null) {
                holdUnknown(content, from, readNanos);
                return;
            }
            assert channel == null || channel.eventLoop().inEventLoop() : "opened off the event loop";
            body = scratch;
            body.clear();
            seq = r.opener().open(d, body);
            body.flip();
        } catch (DatagramAuthException e) {
            WireStats.unauthenticated();
            core.logRefused("datagram from " + from + ": " + e.getMessage());
            return;
        }
        try {
            if (!body.hasRemaining()) {
                throw new MalformedMessageException("empty datagram body (seq " + seq + ")");
            }
            int id = Byte.toUnsignedInt(body.get());
            NetMsg m = core.codecs().decode(id, body).stampReceived(readNanos);
            if (!m.getHeader().source().equals(r.peer())) {
                throw new MalformedMessageException("datagram of session with " + r.peer() + " claims source "
                        + m.getHeader().source());
            }
            inbound.add(m, core.codecs().bursting(id));
        } catch (MalformedMessageException e) {
            WireStats.malformed();
            core.logRefused("datagram from " + from + ": " + e.getMessage());
        }
    }

    private final class Inbound extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
            long read = System.nanoTime(); // before opening and decoding it (and those read with it)
            ByteBuf c = p.content();
            if (p instanceof SegmentedDatagramPacket sp && sp.segmentSize() > 0) {
                int seg = sp.segmentSize();
                for (int off = c.readerIndex(); off < c.writerIndex(); off += seg) {
                    receive(c.slice(off, Math.min(seg, c.writerIndex() - off)), p.sender(), read);
                }
            } else {
                receive(c, p.sender(), read);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            inbound.flush(); // the end of one read of the socket: hand on what it gathered
            ctx.fireChannelReadComplete();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            core.logRefused("UDP socket: " + cause);
        }
    }
}
