package geoblocks.node.http;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;

/** Exchanges on an {@link EmbeddedChannel}, for tests of routes without a socket: answers are the channel's outbound messages. */
public final class TestExchanges {
    private TestExchanges() {}

    /** An exchange for {@code request} on {@code channel} (which gets a handler of its own for the context). */
    public static Exchange of(EmbeddedChannel channel, HttpRequest request) {
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter());
        return new Exchange(channel.pipeline().lastContext(), request, new HttpRefusals());
    }
}
