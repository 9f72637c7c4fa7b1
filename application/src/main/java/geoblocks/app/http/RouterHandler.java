package geoblocks.app.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per connection: checks each request head (decoder errors, authentication), finds its route and
 * calls it, then passes the body chunks to the route's sink or drops them. Errors answer the
 * request (400, 401, 404, 405, 431, 500) and never escape to the node; refusals are counted by
 * {@link HttpRefusals} as every answer passes {@link Exchange}. A body is timed by its
 * {@link BodyDeadline} from when the head arrived, or, for a client that sent {@code Expect:
 * 100-continue}, from the 100 Continue (or its first body byte, if it did not wait): when it falls
 * behind, the route's sink is aborted and the request answered as its route asked
 * ({@link Exchange#onBodyTimeout}), and the connection closes.
 */
final class RouterHandler extends SimpleChannelInboundHandler<HttpObject> {
    private static final Logger LOG = LoggerFactory.getLogger(RouterHandler.class);
    private final Router router;
    private final BasicAuth auth;
    private final HttpRefusals refusals;
    private final BodyDeadline bodyLimit;
    private Exchange current;
    /** Whether the current body's clock runs, since when (ms, monotonic), and the bytes the body brought so far. */
    private boolean bodyTimed;
    private long bodyStart;
    private long bodyBytes;
    private ScheduledFuture<?> bodyTimer;

    RouterHandler(Router router, BasicAuth auth, HttpRefusals refusals, BodyDeadline bodyLimit) {
        this.router = router;
        this.auth = auth;
        this.refusals = refusals;
        this.bodyLimit = bodyLimit;
    }

    private static long nowMs() {
        return System.nanoTime() / 1_000_000;
    }

    /** Starts the current body's clock (once) and arms its timer. */
    private void startBodyClock(ChannelHandlerContext ctx, Exchange ex) {
        if (bodyTimed || current != ex || !bodyLimit.enabled()) {
            return;
        }
        bodyTimed = true;
        bodyStart = nowMs();
        armBodyTimer(ctx, ex);
    }

    private void armBodyTimer(ChannelHandlerContext ctx, Exchange ex) {
        long at = bodyLimit.deadline(bodyStart, bodyBytes);
        if (at == Long.MAX_VALUE) {
            return;
        }
        bodyTimer = ctx.executor().schedule(() -> checkBody(ctx, ex), Math.max(0, at - nowMs()), TimeUnit.MILLISECONDS);
    }

    /** The body's timer fired: times the body out if it is behind, else waits for its new deadline. */
    private void checkBody(ChannelHandlerContext ctx, Exchange ex) {
        bodyTimer = null;
        if (current != ex || !bodyTimed) {
            return;
        }
        String why = bodyLimit.verdict(bodyStart, nowMs(), bodyBytes);
        if (why == null) {
            armBodyTimer(ctx, ex);
            return;
        }
        LOG.debug("HTTP client {}: {} {}: {}; closed", ctx.channel().remoteAddress(), ex.request().method(),
                ex.request().uri(), why);
        current = null; // what else arrives on this connection is dropped as it closes
        stopBodyClock();
        if (ex.body() != null) {
            ex.body().onAbort(); // e.g. the S3 spool file is removed
            ex.onBody(null);
        }
        ex.bodyTimedOut(why);
    }

    private void stopBodyClock() {
        if (bodyTimer != null) {
            bodyTimer.cancel(false);
            bodyTimer = null;
        }
        bodyTimed = false;
        bodyBytes = 0;
    }

    /** Whether {@code req} announces a body (a positive Content-Length, or chunked). */
    private static boolean hasBody(HttpRequest req) {
        return HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) > 0;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        HeadDeadline deadline = ctx.pipeline().get(HeadDeadline.class);
        if (msg instanceof HttpRequest req) {
            if (deadline != null) {
                deadline.headArrived();
            }
            stopBodyClock();
            Exchange ex = new Exchange(ctx, req, refusals);
            current = ex;
            if (!req.decoderResult().isFailure() && hasBody(req)) {
                ex.onContinue(() -> startBodyClock(ctx, ex));
                if (!HttpUtil.is100ContinueExpected(req)) {
                    startBodyClock(ctx, ex);
                }
            }
            onHead(ex);
        }
        if (msg instanceof HttpContent c && current != null) {
            Exchange ex = current;
            bodyBytes += c.content().readableBytes();
            if (c.content().isReadable()) {
                startBodyClock(ctx, ex); // a client that did not wait for 100 Continue
            }
            if (ex.body() != null && c.decoderResult().isFailure()) {
                // e.g. the connection closed before Content-Length bytes came: the body is incomplete
                ex.body().onAbort();
                ex.onBody(null);
                if (!ex.answered() && ctx.channel().isActive()) {
                    ex.closeAfterAnswer();
                    ex.respondText(400, "incomplete request body: " + c.decoderResult().cause() + "\n");
                }
            } else if (ex.body() != null) {
                try {
                    ex.body().onChunk(c.content());
                    if (c instanceof LastHttpContent) {
                        ex.body().onEnd();
                    }
                } catch (Exception e) {
                    fail(ex, e);
                    ex.onBody(null);
                }
            }
            if (c instanceof LastHttpContent) {
                current = null;
                stopBodyClock();
                if (deadline != null) {
                    deadline.requestEnded();
                }
            }
        }
    }

    private void onHead(Exchange ex) {
        HttpRequest req = ex.request();
        if (req.decoderResult().isFailure()) {
            Throwable why = req.decoderResult().cause();
            req.headers().set(HttpHeaderNames.CONNECTION, "close");
            Router.Match m = why instanceof TooLongFrameException ? null : router.find(req);
            if (m != null && m.entry() != null) {
                try {
                    m.entry().route().malformed(ex, why); // e.g. the S3 gateway answers an S3 error document
                } catch (RuntimeException e) {
                    fail(ex, e);
                }
                if (ex.answered()) {
                    return;
                }
            }
            ex.respondText(why instanceof TooLongFrameException ? 431 : 400, "bad request: " + why.getMessage() + "\n");
            return;
        }
        Router.Match m = router.find(req);
        if (m.entry() == null) {
            if (m.status() == 405) {
                ex.header("Allow", String.join(", ", m.allowed()));
                ex.respondText(405, "method " + req.method() + " not allowed on " + ex.path() + "\n");
            } else {
                ex.respondText(404, "no such path: " + ex.path() + "\n");
            }
            return;
        }
        if (m.entry().authenticated() && auth != null && !auth.accepts(req.headers().get(HttpHeaderNames.AUTHORIZATION))) {
            ex.header("WWW-Authenticate", "Basic realm=\"geoblocks\", charset=\"UTF-8\"");
            ex.respondText(401, "credentials needed: the gateway's access key id and secret key (HTTP Basic)\n");
            return;
        }
        try {
            m.entry().route().handle(ex);
        } catch (Exception e) {
            fail(ex, e);
        }
    }

    private static void fail(Exchange ex, Throwable e) {
        LOG.warn("HTTP {} {} failed: {}", ex.request().method(), ex.request().uri(), e.toString());
        if (!ex.answered()) {
            ex.respondText(500, "internal error: " + e + "\n");
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Exchange ex = current;
        current = null;
        stopBodyClock();
        if (ex != null && ex.body() != null) {
            ex.body().onAbort();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("HTTP connection {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
