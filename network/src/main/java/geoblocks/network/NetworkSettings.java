package geoblocks.network;

import com.typesafe.config.Config;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Settings of one network instance, read from {@code geoblocks.network} (see this module's
 * reference.conf) and validated once, here.
 */
public record NetworkSettings(String implementation, String transport, int ioThreads, int maxFrameBytes,
        String security, String tlsCertChain, String tlsPrivateKey, String tlsTrustCerts, int udpBufferBytes,
        boolean udpGso, boolean udpGro, int udpQueue, long connectTimeoutMs, long handshakeTimeoutMs, String clients) {

    public static final int MIN_FRAME = 64 * 1024;

    public NetworkSettings {
        oneOf("implementation", implementation, "geoblocks", "kompics-netty");
        oneOf("transport", transport, "auto", "epoll", "nio");
        oneOf("security", security, "auto", "tls", "auth");
        oneOf("clients", clients, "auto", "keys", "keys-or-secret");
        require(ioThreads >= 1 && ioThreads <= 64, "io-threads must be in 1..64", ioThreads);
        require(maxFrameBytes >= MIN_FRAME && maxFrameBytes <= (256 << 20), "max-frame must be in 64 KiB..256 MiB", maxFrameBytes);
        require(udpBufferBytes >= 64 * 1024, "udp-buffer must be >= 64 KiB", udpBufferBytes);
        require(udpQueue >= 0, "udp-queue must be >= 0", udpQueue);
        require(connectTimeoutMs >= 100, "connect-timeout must be >= 100 ms", connectTimeoutMs);
        require(handshakeTimeoutMs >= 100, "handshake-timeout must be >= 100 ms", handshakeTimeoutMs);
        if (tlsCertChain.isEmpty() != tlsPrivateKey.isEmpty()) {
            throw new IllegalArgumentException("geoblocks.network.tls: cert-chain and private-key go together, got cert-chain='"
                    + tlsCertChain + "' private-key='" + tlsPrivateKey + "'");
        }
    }

    public static NetworkSettings from(Config root) {
        Config c = root.getConfig("geoblocks.network");
        return new NetworkSettings(c.getString("implementation").toLowerCase(Locale.ROOT),
                c.getString("transport").toLowerCase(Locale.ROOT), c.getInt("io-threads"),
                bytes(c, "max-frame"), c.getString("security").toLowerCase(Locale.ROOT),
                c.getString("tls.cert-chain"), c.getString("tls.private-key"), c.getString("tls.trust-certs"),
                bytes(c, "udp-buffer"), c.getBoolean("udp-gso"), c.getBoolean("udp-gro"), c.getInt("udp-queue"),
                c.getDuration("connect-timeout", TimeUnit.MILLISECONDS),
                c.getDuration("handshake-timeout", TimeUnit.MILLISECONDS), c.getString("clients").toLowerCase(Locale.ROOT));
    }

    /**
     * Whether a node of this network takes clients that prove the cluster secret (else only clients by access key,
     * and members proving their node keys), bound to {@code loopback}-ness as given, in a cluster whose every member
     * proves a node key ({@code keyed}) or not. {@code keys} needs every member's key: without them a connection
     * proving the cluster secret could be a member, so no network could tell a client from a node. {@code auto}:
     * keys when every member proves a node key and this network's address is not loopback, else keys-or-secret (a
     * demo, a test cluster, or a cluster with members without node keys keeps working as before).
     */
    public boolean secretClients(boolean loopback, boolean keyed) {
        if (clients.equals("keys") && !keyed) {
            throw new IllegalArgumentException("geoblocks.network.clients = keys needs every member's node key"
                    + " (geoblocks.cluster.regions[].key): without it a connection proving the cluster secret may be"
                    + " a member, and no node can tell a client from a node; name every node's key, or use keys-or-secret");
        }
        return clients.equals("keys-or-secret") || (clients.equals("auto") && (loopback || !keyed));
    }

    /**
     * Whether TLS is on for a network bound to {@code loopback}-ness as given ({@code auto} rule). {@code auth}
     * (the cluster-secret handshake, then frames with no MAC) is refused off loopback: after the handshake an
     * on-path attacker could change any frame, a ManifestPart too, so between hosts every frame goes in TLS.
     */
    public boolean tls(boolean loopback) {
        if (security.equals("auth") && !loopback) {
            throw new IllegalArgumentException("geoblocks.network.security = auth is for loopback only: its frames carry"
                    + " no MAC after the handshake, so anyone on the path could change them; use tls (or auto) between hosts");
        }
        return security.equals("tls") || (security.equals("auto") && !loopback);
    }

    public NetworkSettings withSecurity(String s) {
        return new NetworkSettings(implementation, transport, ioThreads, maxFrameBytes, s, tlsCertChain, tlsPrivateKey,
                tlsTrustCerts, udpBufferBytes, udpGso, udpGro, udpQueue, connectTimeoutMs, handshakeTimeoutMs, clients);
    }

    private static int bytes(Config c, String key) {
        long v = c.getBytes(key);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("geoblocks.network." + key + " is too large: " + v);
        }
        return (int) v;
    }

    private static void oneOf(String key, String value, String... allowed) {
        for (String a : allowed) {
            if (a.equals(value)) {
                return;
            }
        }
        throw new IllegalArgumentException("geoblocks.network." + key + " must be one of "
                + String.join(", ", allowed) + ", was '" + value + "'");
    }

    private static void require(boolean ok, String what, long value) {
        if (!ok) {
            throw new IllegalArgumentException("geoblocks.network." + what + ", was " + value);
        }
    }
}
