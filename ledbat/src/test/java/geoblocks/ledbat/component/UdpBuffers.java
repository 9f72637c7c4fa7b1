package geoblocks.ledbat.component;

import io.netty.channel.socket.DatagramChannel;
import java.lang.reflect.Field;
import se.sics.kompics.Component;
import se.sics.kompics.network.netty.NettyNetwork;

/**
 * Kompics 1.2.1's NettyNetwork hard-codes 64 KiB UDP socket buffers (no config key); once it is
 * bound, this enlarges them on its private channel (the kernel caps them at net.core.rmem_max /
 * wmem_max). Test copy of the application's helper.
 */
final class UdpBuffers {
    private UdpBuffers() {}

    static String apply(Component netty, int bytes) {
        try {
            NettyNetwork n = (NettyNetwork) netty.getComponent();
            Field f = NettyNetwork.class.getDeclaredField("udpChannel");
            f.setAccessible(true);
            DatagramChannel ch = (DatagramChannel) f.get(n);
            if (ch == null) {
                return "UDP not bound yet";
            }
            ch.config().setReceiveBufferSize(bytes);
            ch.config().setSendBufferSize(bytes);
            return "SO_RCVBUF=" + ch.config().getReceiveBufferSize() + " SO_SNDBUF=" + ch.config().getSendBufferSize();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "could not resize UDP buffers: " + e;
        }
    }
}
