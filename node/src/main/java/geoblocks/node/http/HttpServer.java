package geoblocks.node.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's HTTP server on Netty's HTTP/1.1 codec: each request goes through the {@link Router};
 * routes marked as authenticated need the {@link BasicAuth} credentials. Bodies stream to routes
 * (see {@link Exchange}). Malformed requests get 400, oversized heads 431, and a connection with
 * no traffic for 60 s ({@link Limits#idleMs}) is closed unless its last request still waits for its
 * answer, and so is one whose request head does not arrive within the head timeout
 * (slow-loris); a request body slower than its {@link BodyDeadline} is answered with a timeout (the
 * route may say how, see {@link Exchange#onBodyTimeout}) and its connection closed; connections
 * above the cap are closed at once. Each of these refusals is counted in
 * {@link HttpRefusals}. One event-loop thread (daemon) serves every connection, so routes must not
 * block. The S3 gateway mounts its routes on the same {@link Router}.
 */
public final class HttpServer implements AutoCloseable {
    static final int MAX_INITIAL_LINE = 8192;
    static final int MAX_HEADER_BYTES = 16384;
    static final int MAX_CHUNK = 65536;
    private final EventLoopGroup group;
    private final Channel channel;

    private HttpServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Bounds on clients: a request head must arrive within {@code headTimeoutMs}; a request body must keep
     * within {@code body} ({@link BodyDeadline}); at most {@code maxConnections} open.
     */
    public record Limits(long headTimeoutMs, int maxConnections, BodyDeadline body, long idleMs) {
        /** A connection with no request being answered and no traffic for this long is closed. */
        public static final long IDLE_MS = 60_000;
        public static final Limits DEFAULT = new Limits(10_000, 512, BodyDeadline.DEFAULT);

        public Limits {
            if (headTimeoutMs < 1 || maxConnections < 1 || idleMs < 1) {
                throw new IllegalArgumentException("head timeout, max connections and idle time must be >= 1, were "
                        + headTimeoutMs + " ms, " + maxConnections + " and " + idleMs + " ms");
            }
            Objects.requireNonNull(body, "body");
        }

        /** With the default idle time. */
        public Limits(long headTimeoutMs, int maxConnections, BodyDeadline body) {
            this(headTimeoutMs, maxConnections, body, IDLE_MS);
        }

        /** With the default bound on bodies. */
        public Limits(long headTimeoutMs, int maxConnections) {
            this(headTimeoutMs, maxConnections, BodyDeadline.DEFAULT);
        }
    }

    /** Binds {@code address} (port 0: any free port) and serves {@code router}; auth null means no route needs it. */
    public static HttpServer start(InetSocketAddress address, Router router, BasicAuth auth) throws InterruptedException {
        return start(address, router, auth, Limits.DEFAULT);
    }

    /** As above with {@code limits} on slow and many clients. */
    public static HttpServer start(InetSocketAddress address, Router router, BasicAuth auth, Limits limits)
            throws InterruptedException {
        return start(address, router, auth, limits, new HttpRefusals());
    }

    /** As above, counting what the port refuses in {@code refusals}. */
    public static HttpServer start(InetSocketAddress address, Router router, BasicAuth auth, Limits limits,
            HttpRefusals refusals) throws InterruptedException {
        return start(address, router, auth, limits, refusals, null, false);
    }

    /**
     * As above, with TLS when {@code tls} is not null: on every connection, or with {@code optional}
     * only on those that start with a TLS handshake (the others are plain HTTP, on the same port).
     */
    public static HttpServer start(InetSocketAddress address, Router router, BasicAuth auth, Limits limits,
            HttpRefusals refusals, SslContext tls, boolean optional) throws InterruptedException {
        AtomicInteger open = new AtomicInteger();
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("geoblocks-http", true));
        try {
            Channel ch = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            if (open.incrementAndGet() > limits.maxConnections()) {
                                open.decrementAndGet();
                                refusals.refused(HttpRefusals.CONNECTION_LIMIT);
                                c.close(); // over the cap: refused at once, nothing read
                                return;
                            }
                            c.closeFuture().addListener(f -> open.decrementAndGet());
                            if (tls != null) {
                                c.pipeline().addLast(optional ? new OptionalSslHandler(tls)
                                        : tls.newHandler(c.alloc()));
                            }
                            c.pipeline().addLast(new IdleStateHandler(0, 0, limits.idleMs(), TimeUnit.MILLISECONDS))
                                    .addLast(new HeadDeadline(limits.headTimeoutMs(), refusals))
                                    .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, MAX_CHUNK))
                                    .addLast(new RouterHandler(router, auth, refusals, limits.body()));
                        }
                    }).bind(address).sync().channel();
            return new HttpServer(group, ch);
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
}
