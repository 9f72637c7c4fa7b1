package geoblocks.node.http;

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
    /** The latest request on this connection, answered or not (current is cleared once its body is in). */
    private Exchange last;
    private BodyClock body;   // the current body's clock; made with the connection's context

    RouterHandler(Router router, BasicAuth auth, HttpRefusals refusals, BodyDeadline bodyLimit) {
        this.router = router;
        this.auth = auth;
        this.refusals = refusals;
        this.bodyLimit = bodyLimit;
    }

    /** Starts the body clock of {@code ex} if it is still the current request. */
    private void startBodyClock(ChannelHandlerContext ctx, Exchange ex) {
        if (current == ex) {
            body.start(why -> bodyBehind(ctx, ex, why));
        }
    }

    /** The body of {@code ex} fell behind its deadline: abort its sink, answer as its route asked, close. */
    private void bodyBehind(ChannelHandlerContext ctx, Exchange ex, String why) {
        if (current != ex) {
            return;
        }
        LOG.debug("HTTP client {}: {} {}: {}; closed", ctx.channel().remoteAddress(), ex.request().method(),
                ex.request().uri(), why);
        current = null; // what else arrives on this connection is dropped as it closes
        if (ex.body() != null) {
            ex.body().onAbort(); // e.g. the S3 spool file is removed
            ex.onBody(null);
        }
        ex.bodyTimedOut(why);
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
            if (body == null) {
                body = new BodyClock(bodyLimit, ctx);
            }
            body.stop();
            Exchange ex = new Exchange(ctx, req, refusals);
            current = ex;
            last = ex;
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
            body.received(c.content().readableBytes());
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
                body.stop();
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
        if (m.entry().authenticated() && auth != null) {
            String address = ex.clientIp() != null ? ex.clientIp() : "?";
            BasicAuth.Verdict v = auth.check(req.headers().get(HttpHeaderNames.AUTHORIZATION), address);
            if (v == BasicAuth.Verdict.LOCKED) {
                long wait = auth.retryAfterSeconds(address);
                ex.header("Retry-After", Long.toString(wait));
                ex.respondText(429, "too many failed logins from " + address + ": try again in " + wait + " s\n");
                return;
            }
            if (v == BasicAuth.Verdict.DENIED) {
                ex.header("WWW-Authenticate", "Basic realm=\"geoblocks\", charset=\"UTF-8\"");
                ex.respondText(401, "credentials needed: the dashboard's user and password (HTTP Basic,"
                        + " geoblocks.http.dashboard)\n");
                return;
            }
        }
        try {
            m.entry().route().handle(ex);
        } catch (Exception e) {
            fail(ex, e);
        }
    }

    private static void fail(Exchange ex, Throwable e) {
        LOG.warn("HTTP {} {} failed: {}", ex.request().method(), Redact.uri(ex.request().uri()), e.toString());
        if (!ex.answered()) {
            ex.respondText(500, "internal error: " + e + "\n");
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Exchange ex = current;
        current = null;
        if (body != null) {
            body.stop();
        }
        if (ex != null && ex.body() != null) {
            ex.body().onAbort();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        // idle = nothing read or written for the idle time: closed unless the last request still
        // waits for its answer (a slow backend; its own deadlines answer it), which would otherwise
        // leave the client with a connection closed and no response
        if (evt instanceof IdleStateEvent && (last == null || last.answered())) {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("HTTP connection {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
