package geoblocks.network.component;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.NetMsg;
import geoblocks.net.WireCodec;
import geoblocks.net.WireStats;
import geoblocks.network.frame.Control;
import geoblocks.network.frame.Frames;
import geoblocks.network.session.ClientKey;
import geoblocks.network.session.Handshake;
import geoblocks.network.session.HandshakeException;
import geoblocks.network.session.KeyResolver;
import geoblocks.network.PooledBytes;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The last handler of a TCP pipeline: runs the mutual authentication handshake, then turns data
 * frames into messages for the network. Before the handshake completes only HELLO and PROOF are
 * accepted: a data frame, a bad proof, an oversize or garbage frame closes the connection and is
 * counted. After it, an undecodable message is counted and dropped (the framing is intact, so the
 * connection stays).
 *
 * <p>A client's HELLO that names an access key is held while the node looks the key up ({@link KeyResolver},
 * asynchronously: the event loop never waits), and so is a PROOF that arrives meanwhile; then the handshake goes
 * on with the key found, or fails. Every message of a session by access key is delivered carrying the key (its
 * id and grants, {@link NetMsg#fromKey}), a family no keyed client may send is dropped and counted, and the key
 * is looked up again every {@link NetworkCore#keyRecheckMs}: when it is gone (revoked) or its secret changed, the
 * connection is closed.
 */
final class TcpSession extends ChannelInboundHandlerAdapter {
    private final NetworkCore core;
    private final NetAddress dialled;
    private Handshake handshake;
    /** The versions the handshake agreed, by protocol id (see Handshake#agreed); null before. */
    private int[] agreed;
    private ScheduledFuture<?> timeout;
    /** A client's HELLO naming an access key, held while the key is looked up; null otherwise. */
    private Control.Hello resolving;
    /** A PROOF that arrived while {@link #resolving}. */
    private Control.Proof heldProof;
    /** The access key this session's client proved (its grants as last looked up), or null. */
    private ClientKey clientKey;
    private ScheduledFuture<?> recheck;
    private String failure;
    /** Whether this connection's TLS handshake succeeded: a TLS error before that is counted by its failure event. */
    private boolean tlsUp;
    /** The frame being decoded (on the channel's event loop only), and the bytes messages kept of it. */
    private ByteBuf decoding;
    private final List<PooledBytes> kept = new ArrayList<>(2);
    private final WireCodec.Keeper keeper = (position, length) -> {
        PooledBytes b = new PooledBytes(decoding.retainedSlice(decoding.readerIndex() + position, length));
        kept.add(b);
        return b;
    };

    /** {@code dialled}: the peer we dialled, or null on an accepted connection. */
    TcpSession(NetworkCore core, NetAddress dialled) {
        this.core = core;
        this.dialled = dialled;
    }

    /** Both proofs verified: data frames may pass. */
    private boolean established() {
        return handshake != null && handshake.complete();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        timeout = ctx.executor().schedule(() -> {
            if (!established()) {
                fail(ctx, "no authenticated handshake within " + core.settings().handshakeTimeoutMs() + " ms");
            }
        }, core.settings().handshakeTimeoutMs(), TimeUnit.MILLISECONDS);
        if (!core.tls()) {
            start(ctx, new byte[0], new byte[0]);
        }
        super.channelActive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent e) {
            if (!e.isSuccess()) {
                if (dialled == null && !FirstBytes.heard(ctx.channel())) {
                    // closed before it sent a byte: a reachability check or a scan, not an attempt at the handshake
                    failure = "closed by " + ctx.channel().remoteAddress() + " before it sent anything";
                    ctx.close();
                    return;
                }
                WireStats.unauthenticated();
                fail(ctx, "TLS handshake failed: " + e.cause());
                return;
            }
            tlsUp = true;
            SSLSession s = ctx.pipeline().get(SslHandler.class).engine().getSession();
            Certificate[] mine = s.getLocalCertificates();
            Certificate[] theirs;
            try {
                theirs = s.getPeerCertificates();
            } catch (SSLPeerUnverifiedException ex) {
                theirs = null;
            }
            if (mine == null || mine.length == 0 || theirs == null || theirs.length == 0) {
                // a session torn down as it completed has no certificates left: refuse it, once, with why
                WireStats.unauthenticated();
                fail(ctx, "TLS session with " + ctx.channel().remoteAddress() + " has no " + (mine == null
                        || mine.length == 0 ? "local" : "peer") + " certificate");
                return;
            }
            start(ctx, TlsContexts.fingerprint(mine[0]), TlsContexts.fingerprint(theirs[0]));
        }
        super.userEventTriggered(ctx, evt);
    }

    private void start(ChannelHandlerContext ctx, byte[] localCert, byte[] peerCert) {
        handshake = new Handshake(dialled != null ? Handshake.Role.INITIATOR : Handshake.Role.ACCEPTOR,
                core.self(), dialled, core.secret(), core.nonce(), localCert, peerCert, core.identity())
                .offering(core.codecs().offered(), core.codecs()::name).releasing(core.release(), core.build())
                .requiring(core.versions().required()).refusingSecretClients(!core.secretClients());
        if (dialled != null && core.ownKeyId() != null) {
            handshake.byKey(core.ownKeyId(), core.ownKeySecret());
        }
        ctx.writeAndFlush(Frames.control(ctx.alloc(), handshake.hello()));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (!frame.isReadable()) {
                throw new MalformedMessageException("empty frame");
            }
            int kind = frame.readUnsignedByte();
            if (kind == Frames.CONTROL) {
                onControl(ctx, Control.read(frame.nioBuffer()));
            } else if (!established()) {
                WireStats.unauthenticated();
                fail(ctx, "data frame before the handshake completed");
            } else {
                onData(kind, frame);
            }
        } catch (HandshakeException e) {
            WireStats.unauthenticated();
            fail(ctx, e.getMessage());
        } catch (Control.UnknownType e) {
            // a later transport version's control frame: skipped by its length once the handshake is done
            WireStats.malformed();
            if (established()) {
                core.logRefused("skipped from " + handshake.peer() + ": " + e.getMessage());
            } else {
                fail(ctx, "bad control frame: " + e.getMessage());
            }
        } catch (MalformedMessageException e) {
            WireStats.malformed();
            fail(ctx, "bad control frame: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    /**
     * Decodes a data frame; bytes a message keeps ({@link geoblocks.net.WireCodec#decode(java.nio.ByteBuffer,
     * geoblocks.net.WireCodec.Keeper) decode with a keeper}) are slices of the frame holding their own
     * reference, released by the message's consumer (the frame itself is released after this).
     */
    private void onData(int kind, ByteBuf frame) {
        NetMsg m;
        kept.clear();
        decoding = frame;
        try {
            m = core.codecs().decode(kind, frame.nioBuffer(), keeper);
        } catch (MalformedMessageException e) {
            kept.forEach(PooledBytes::release);
            decoding = null;
            WireStats.malformed();
            core.logRefused("malformed message from " + handshake.peer() + ": " + e.getMessage());
            return;
        }
        if (!m.getHeader().source().equals(handshake.peer())) {
            kept.forEach(PooledBytes::release);
            decoding = null;
            WireStats.malformed();
            core.logRefused("message from " + handshake.peer() + " claims source " + m.getHeader().source());
            return;
        }
        if (m.wireVersion() > agreed[kind]) {
            kept.forEach(PooledBytes::release);
            decoding = null;
            WireStats.malformed();
            core.logRefused(core.codecs().name(kind) + " message from " + handshake.peer() + " at version "
                    + m.wireVersion() + ", above the " + agreed[kind] + " agreed in the handshake");
            return;
        }
        if (clientKey != null) {
            if (!m.servesKeys()) {
                kept.forEach(PooledBytes::release);
                decoding = null;
                WireStats.unauthenticated();
                core.logRefused(core.codecs().name(kind) + " message from " + handshake.peer() + ", a client by access"
                        + " key " + clientKey.id() + ", which sends that family nothing: dropped");
                return;
            }
            m = m.fromKey(clientKey.key());
        }
        decoding = null;
        kept.clear(); // the message owns them now
        core.deliver(m);
    }

    private void onControl(ChannelHandlerContext ctx, Control c) throws HandshakeException {
        if (handshake == null) {
            throw new HandshakeException("control frame before our TLS handshake finished");
        }
        if (resolving != null) {
            if (c instanceof Control.Proof p && heldProof == null) {
                heldProof = p; // answered once the key is known
                return;
            }
            throw new HandshakeException(c.getClass().getSimpleName() + " while the access key of its HELLO is looked up");
        }
        if (c instanceof Control.Hello h) {
            if (core.inProcess(h.address())) {
                // the node's own S3 gateway client lives in this process and is reached without sockets;
                // a connection claiming its address is someone borrowing that client's standing (admin operations)
                throw new HandshakeException(h.address() + " claims the address of an endpoint inside this process"
                        + " (the node's own S3 gateway client): refused");
            }
            if (dialled == null && !h.keyId().isEmpty()) {
                resolving = h;
                core.keys().resolve(h.keyId()).whenComplete((k, t) -> ctx.executor().execute(() ->
                        onKey(ctx, t == null ? k.orElse(null) : null)));
                return;
            }
            ctx.writeAndFlush(Frames.control(ctx.alloc(), handshake.onHello(h)));
        } else if (c instanceof Control.Proof p) {
            onProof(ctx, p);
        } else if (!established()) {
            throw new HandshakeException(c.getClass().getSimpleName() + " before the handshake completed");
        } else if (c instanceof Control.Retire) {
            core.links().onRetire(ctx.channel());
        } else {
            core.links().onRetireAck(ctx.channel());
        }
    }

    private void onProof(ChannelHandlerContext ctx, Control.Proof p) throws HandshakeException {
        if (handshake.onProof(p)) {
            timeout.cancel(false);
            agreed = handshake.agreed();
            clientKey = handshake.peerKey();
            boolean keyed = clientKey != null || core.ownKeyId() != null && dialled != null;
            if (clientKey != null) {
                recheck = ctx.executor().scheduleAtFixedRate(() -> recheck(ctx), core.keyRecheckMs(), core.keyRecheckMs(),
                        TimeUnit.MILLISECONDS);
            }
            core.established(ctx.channel(), handshake.peer(), dialled != null, handshake.sessionSecret(), agreed,
                    handshake.peerRelease(), keyed);
        }
    }

    /** The access key the held HELLO names was looked up (null: unknown, revoked, or the lookup failed). */
    private void onKey(ChannelHandlerContext ctx, ClientKey key) {
        if (!ctx.channel().isActive() || resolving == null) {
            return;
        }
        Control.Hello h = resolving;
        resolving = null;
        try {
            ctx.writeAndFlush(Frames.control(ctx.alloc(), handshake.onHello(h, key)));
            if (heldProof != null) {
                Control.Proof p = heldProof;
                heldProof = null;
                onProof(ctx, p);
            }
        } catch (HandshakeException e) {
            WireStats.unauthenticated();
            fail(ctx, e.getMessage());
        }
    }

    /** Looks this session's access key up again: a key gone or with another secret closes the connection. */
    private void recheck(ChannelHandlerContext ctx) {
        String id = clientKey.id();
        core.keys().resolve(id).whenComplete((k, t) -> ctx.executor().execute(() -> {
            if (t != null || !ctx.channel().isActive()) {
                return; // the lookup failed this time: the next one decides
            }
            if (k.isPresent() && k.get().sameSecret(clientKey)) {
                clientKey = k.get(); // its grants as they are now
            } else {
                WireStats.unauthenticated();
                fail(ctx, "access key " + id + " of " + handshake.peer() + " was revoked (or its secret changed)");
            }
        }));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) {
            WireStats.malformed();
        } else if (cause.getCause() instanceof SSLException && tlsUp) {
            WireStats.unauthenticated(); // during the TLS handshake, its failure event counts it (once)
        }
        fail(ctx, cause.getMessage() == null ? cause.toString() : cause.getMessage());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (timeout != null) {
            timeout.cancel(false);
        }
        if (recheck != null) {
            recheck.cancel(false);
        }
        core.closed(ctx.channel(), established() ? null : dialled, failure != null ? failure
                : "connection to " + (dialled != null ? dialled : ctx.channel().remoteAddress()) + " closed");
        super.channelInactive(ctx);
    }

    private void fail(ChannelHandlerContext ctx, String why) {
        if (failure == null) {
            failure = why;
        }
        core.logRefused("closing connection " + ctx.channel().remoteAddress()
                + (dialled != null ? " (dialled " + dialled + ")" : "") + ": " + why);
        ctx.close();
    }
}
