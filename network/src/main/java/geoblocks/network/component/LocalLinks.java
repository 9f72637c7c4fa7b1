package geoblocks.network.component;

import geoblocks.net.NetAddress;
import geoblocks.net.NetMsg;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Network endpoints in one process that reach each other without sockets: a TCP message from one
 * {@link GeoNetwork} sharing this object to another is handed to the receiver's {@code Network}
 * port as the same object, as a message to oneself already is (no encoding, framing, session
 * handshake or syscalls). Order is kept, since the sender's component triggers in order. Opt-in: the
 * node host gives one to its node and to its S3 gateway's client; endpoints without it use TCP.
 */
public final class LocalLinks {
    private final Map<InetSocketAddress, Consumer<NetMsg>> endpoints = new ConcurrentHashMap<>();

    void register(NetAddress self, Consumer<NetMsg> deliver) {
        endpoints.put(self.asSocket(), deliver);
    }

    void unregister(NetAddress self) {
        endpoints.remove(self.asSocket());
    }

    /** The delivery of the endpoint at {@code address} in this process, or null. */
    Consumer<NetMsg> find(NetAddress address) {
        return endpoints.get(address.asSocket());
    }

    /** How many endpoints are registered (for tests). */
    int size() {
        return endpoints.size();
    }
}
