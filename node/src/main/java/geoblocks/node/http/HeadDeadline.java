package geoblocks.node.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds slow clients (slow-loris): once the first byte of a request arrives, its whole head (request
 * line and headers) must follow within the deadline, else the connection is closed. Sits before the
 * HTTP codec and sees raw bytes; the {@link RouterHandler} tells it when a head was decoded and when
 * the request's body ended. Bodies are bounded by the {@link RouterHandler}'s {@link BodyDeadline} instead.
 */
final class HeadDeadline extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(HeadDeadline.class);
    private final long timeoutMs;
    private final HttpRefusals refusals;
    private boolean inRequest;
    private ScheduledFuture<?> timer;

    HeadDeadline(long timeoutMs, HttpRefusals refusals) {
        this.timeoutMs = timeoutMs;
        this.refusals = refusals;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!inRequest) {
            inRequest = true;
            timer = ctx.executor().schedule(() -> {
                LOG.debug("HTTP client {} sent no complete request head within {} ms: closed", ctx.channel().remoteAddress(), timeoutMs);
                refusals.refused(HttpRefusals.HEAD_TIMEOUT);
                ctx.close();
            }, timeoutMs, TimeUnit.MILLISECONDS);
        }
        ctx.fireChannelRead(msg);
    }

    /** A request head was decoded: its deadline is met. */
    void headArrived() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** The request's body ended: the next bytes start a new head. */
    void requestEnded() {
        headArrived();
        inRequest = false;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        headArrived();
        super.channelInactive(ctx);
    }
}
