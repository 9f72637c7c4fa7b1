package geoblocks.node;

import geoblocks.net.HostPort;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;

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
                throw new IllegalStateException("cannot bind on " + HostPort.literal(ip) + ": " + e.getMessage());
            }
            if (isFree(ip, port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free TCP+UDP port on " + HostPort.literal(ip));
    }

    /**
     * Why node {@code region} cannot listen on {@code ip:port}, or null when it can: an address that is not
     * one of this host's (a public address behind NAT, a typo) is named as such, not taken for a port in use.
     */
    public static String bindProblem(InetAddress ip, int port, String region) {
        if (isFree(ip, port)) {
            return null;
        }
        boolean local;
        try {
            local = ip.isAnyLocalAddress() || ip.isLoopbackAddress() || NetworkInterface.getByInetAddress(ip) != null;
        } catch (SocketException e) {
            local = true; // cannot tell: report what is certain, the bind failed
        }
        if (!local) {
            return HostPort.literal(ip) + " is not an address of this host, so node " + region
                    + " cannot listen on it:"
                    + " a node listens on the address its region entry names, unless the entry names another with"
                    + " bind = \"ADDRESS\" (0.0.0.0, or the private address a NAT forwards it to)";
        }
        return "port " + port + " on " + HostPort.literal(ip) + " is in use: is node " + region
                + " already running?";
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
