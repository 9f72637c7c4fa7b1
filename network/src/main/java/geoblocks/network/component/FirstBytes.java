package geoblocks.network.component;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;

/**
 * Marks a connection once its peer has sent a first byte, then leaves the pipeline (no cost after it).
 * A connection closed before that (a port scan, a client's reachability check) is not an attempt at the
 * handshake: the session says so without counting it as unauthenticated input.
 */
final class FirstBytes extends ChannelInboundHandlerAdapter {
    private static final AttributeKey<Boolean> HEARD = AttributeKey.valueOf("geoblocks.heard");

    static boolean heard(Channel ch) {
        return Boolean.TRUE.equals(ch.attr(HEARD).get());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.channel().attr(HEARD).set(Boolean.TRUE);
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(msg);
    }
}
