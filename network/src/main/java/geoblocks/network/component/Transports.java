package geoblocks.network.component;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/** The socket transport in use: Linux epoll (native, from Maven Central) or Java NIO as fallback. */
record Transports(String name, boolean epoll) {

    /** {@code wanted}: auto, epoll or nio. Asking for epoll where it cannot load is an error naming why. */
    static Transports choose(String wanted) {
        boolean available = Epoll.isAvailable();
        switch (wanted) {
            case "nio":
                return new Transports("nio", false);
            case "epoll":
                if (!available) {
                    throw new IllegalStateException("geoblocks.network.transport = epoll, but epoll is unavailable: "
                            + Epoll.unavailabilityCause());
                }
                return new Transports("epoll", true);
            default:
                return available ? new Transports("epoll", true) : new Transports("nio", false);
        }
    }

    EventLoopGroup group(int threads) {
        return epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
    }

    Class<? extends ServerChannel> server() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    Class<? extends SocketChannel> socket() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    Class<? extends DatagramChannel> datagram() {
        return epoll ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }
}
