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
    /** {@link #toString}'s text, made at its first call (the same text whichever thread makes it). */
    private String text;

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

    /**
     * Parses {@code host:port} or {@code [IPv6]:port} ({@link HostPort#parse}: an IPv6 address without
     * brackets is refused, naming the bracketed form); the host is resolved once, here.
     */
    public static NetAddress parse(String hostPort) {
        HostPort hp = HostPort.parse(hostPort);
        return of(hp.host(), hp.port());
    }

    /** {@code host} (a name, an IPv4 or an IPv6 address, without brackets) resolved once, here, at {@code port}. */
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

    /**
     * {@code a.b.c.d:port}, or {@code [IPv6]:port} in the short form of RFC 5952 ({@link HostPort}): what
     * {@link #parse} reads.
     */
    @Override
    public String toString() {
        String t = text;
        if (t == null) {
            t = HostPort.of(socket.getAddress(), socket.getPort()).toString();
            text = t;
        }
        return t;
    }
}
