package geoblocks.app.ledbat;

import geoblocks.net.NetAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/** Picks the local address for a client: the interface the kernel routes to the server through. */
final class Endpoints {
    private Endpoints() {}

    /** The local IP used to reach {@code remote} (no packet is sent) and a free UDP port on it. */
    static NetAddress localFor(NetAddress remote) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(remote.asSocket());
            InetAddress ip = probe.getLocalAddress();
            if (ip.isAnyLocalAddress()) {
                throw new IllegalArgumentException("no route to " + remote);
            }
            try (DatagramSocket free = new DatagramSocket(new InetSocketAddress(ip, 0))) {
                return new NetAddress(ip, free.getLocalPort());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a local address toward " + remote + ": " + e.getMessage(), e);
        }
    }
}
