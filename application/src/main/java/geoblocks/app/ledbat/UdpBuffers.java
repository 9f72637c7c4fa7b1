package geoblocks.app.ledbat;

import io.netty.channel.socket.DatagramChannel;
import java.lang.reflect.Field;
import se.sics.kompics.Component;
import se.sics.kompics.network.netty.NettyNetwork;

/**
 * Kompics 1.2.1's NettyNetwork hard-codes 64 KiB UDP socket buffers ({@code RECV_BUFFER_SIZE},
 * {@code SEND_BUFFER_SIZE}; there is no config key). With them a receiver drops datagrams at a few
 * hundred Mbit/s. Once NettyNetwork announced its ListeningStatus (UDP bound), this sets
 * SO_RCVBUF/SO_SNDBUF on its private channel through reflection; the kernel caps the values at
 * net.core.rmem_max / wmem_max.
 */
final class UdpBuffers {
    private UdpBuffers() {}

    /** Returns the sizes the kernel granted, or why nothing was changed. */
    static String apply(Component netty, int bytes) {
        try {
            Field f = NettyNetwork.class.getDeclaredField("udpChannel");
            f.setAccessible(true);
            DatagramChannel ch = (DatagramChannel) f.get(netty.getComponent());
            if (ch == null) {
                return "UDP channel not bound";
            }
            ch.config().setReceiveBufferSize(bytes);
            ch.config().setSendBufferSize(bytes);
            // Linux reports twice the requested value (bookkeeping overhead)
            return "SO_RCVBUF=" + ch.config().getReceiveBufferSize() + " SO_SNDBUF=" + ch.config().getSendBufferSize();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "could not resize UDP buffers: " + e;
        }
    }
}
