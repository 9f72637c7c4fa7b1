package geoblocks.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import se.sics.kompics.network.Address;

/**
 * An IP address and port of a geoblocks endpoint (node, client or LEDBAT peer). Immutable; equal
 * when ip and port are equal, so it can key maps of peers.
 */
public final class NetAddress implements Address {
    private final InetSocketAddress socket;
    /** The ip's bytes, for {@link Wire} (InetAddress.getAddress() copies them on every call). Never written. */
    private final byte[] ipBytes;

    public NetAddress(InetAddress ip, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, was " + port);
        }
        this.socket = new InetSocketAddress(Objects.requireNonNull(ip, "ip"), port);
        this.ipBytes = ip.getAddress();
    }

    /** The ip's bytes (4 or 16), shared: callers in this package only read them. */
    byte[] ipBytes() {
        return ipBytes;
    }

    /** Parses {@code host:port}; the host is resolved once, here. */
    public static NetAddress parse(String hostPort) {
        int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("address must look like host:port, was '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + hostPort + "'");
        }
        return of(host, port);
    }

    public static NetAddress of(String host, int port) {
        try {
            return new NetAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "'", e);
        }
    }

    public NetAddress withPort(int port) {
        return new NetAddress(socket.getAddress(), port);
    }

    @Override
    public InetAddress getIp() {
        return socket.getAddress();
    }

    @Override
    public int getPort() {
        return socket.getPort();
    }

    @Override
    public InetSocketAddress asSocket() {
        return socket;
    }

    /**
     * Same endpoint (ip and port). Kompics' NettyNetwork delivers a message locally, without
     * sending it, when its destination is {@code sameHostAs} the network's own address; comparing
     * only the ip would swallow every message between two processes on one machine.
     */
    @Override
    public boolean sameHostAs(Address other) {
        return other != null && socket.equals(other.asSocket());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NetAddress && ((NetAddress) o).socket.equals(socket);
    }

    @Override
    public int hashCode() {
        return socket.hashCode();
    }

    @Override
    public String toString() {
        return socket.getAddress().getHostAddress() + ":" + socket.getPort();
    }
}
