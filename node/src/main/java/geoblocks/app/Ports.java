package geoblocks.app;

import geoblocks.net.NetAddress;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Finding addresses to bind: a free TCP+UDP port, and the local address that reaches a node. */
public final class Ports {
    private Ports() {}

    /** The local IP the OS would use to reach {@code peer} (loopback for a loopback node). */
    public static InetAddress localAddressToward(NetAddress peer) {
        if (peer.getIp().isLoopbackAddress()) {
            return peer.getIp();
        }
        try (DatagramSocket s = new DatagramSocket()) {
            s.connect(peer.asSocket());
            return s.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalArgumentException("no route to " + peer + ": " + e.getMessage());
        }
    }

    /** A port free for both TCP and UDP on {@code ip}. */
    public static int freePort(InetAddress ip) {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket tcp = new ServerSocket(0, 1, ip)) {
                port = tcp.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException("cannot bind on " + ip.getHostAddress() + ": " + e.getMessage());
            }
            if (isFree(ip, port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free TCP+UDP port on " + ip.getHostAddress());
    }

    /** True when nothing listens on {@code port} over TCP or UDP. */
    public static boolean isFree(InetAddress ip, int port) {
        try (ServerSocket tcp = new ServerSocket()) {
            tcp.setReuseAddress(true);
            tcp.bind(new InetSocketAddress(ip, port));
        } catch (IOException e) {
            return false;
        }
        try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(ip, port))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
