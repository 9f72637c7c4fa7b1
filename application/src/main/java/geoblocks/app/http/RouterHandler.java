package geoblocks.app.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per connection: checks each request head (decoder errors, authentication), finds its route and
 * calls it, then passes the body chunks to the route's sink or drops them. Errors answer the
 * request (400, 401, 404, 405, 431, 500) and never escape to the node; refusals are counted by
 * {@link HttpRefusals} as every answer passes {@link Exchange}.
 */
final class RouterHandler extends SimpleChannelInboundHandler<HttpObject> {
    private static final Logger LOG = LoggerFactory.getLogger(RouterHandler.class);
    private final Router router;
    private final BasicAuth auth;
    private final HttpRefusals refusals;
    private Exchange current;

    RouterHandler(Router router, BasicAuth auth, HttpRefusals refusals) {
        this.router = router;
        this.auth = auth;
        this.refusals = refusals;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        HeadDeadline deadline = ctx.pipeline().get(HeadDeadline.class);
        if (msg instanceof HttpRequest req) {
            if (deadline != null) {
                deadline.headArrived();
            }
            current = new Exchange(ctx, req, refusals);
            onHead(current);
        }
        if (msg instanceof HttpContent c && current != null) {
            Exchange ex = current;
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
            int status = why instanceof TooLongFrameException ? 431 : 400;
            req.headers().set(HttpHeaderNames.CONNECTION, "close");
            ex.respondText(status, "bad request: " + why.getMessage() + "\n");
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
