package geoblocks.app.http;

import com.typesafe.config.Config;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP server of one node, from the config: its port is the {@code http-port} of the node's
 * entry in {@code geoblocks.cluster.regions} (no entry: no server), bound on the node's own
 * address; the credentials are {@code geoblocks.http.access-key} / {@code secret-key}; the probes
 * ({@code /metrics}, {@code /healthz}, {@code /readyz}) need them only when
 * {@code geoblocks.http.probes-need-auth}. The built-in demo secret is refused on a non-loopback address.
 */
public record HttpSettings(InetSocketAddress bind, String accessKey, String secretKey, boolean probesNeedAuth) {
    public static final String DEMO_SECRET = "geoblocks-local-demo-secret";

    public HttpSettings {
        if (bind.getPort() < 0 || bind.getPort() > 65535) {
            throw new IllegalArgumentException("http-port must be 0..65535, was " + bind.getPort());
        }
        if (secretKey.equals(DEMO_SECRET) && !bind.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("geoblocks.http.secret-key is the built-in demo secret but the HTTP server"
                    + " binds " + bind.getAddress().getHostAddress() + ": set your own secret-key");
        }
    }

    /** The settings of {@code region}'s node, or empty when its region entry has no {@code http-port}. */
    public static Optional<HttpSettings> of(Config root, String region, InetAddress nodeAddress) {
        for (Config r : root.getConfigList("geoblocks.cluster.regions")) {
            if (r.getString("id").equals(region) && r.hasPath("http-port")) {
                return Optional.of(new HttpSettings(new InetSocketAddress(nodeAddress, r.getInt("http-port")),
                        root.getString("geoblocks.http.access-key"), root.getString("geoblocks.http.secret-key"),
                        root.getBoolean("geoblocks.http.probes-need-auth")));
            }
        }
        return Optional.empty();
    }

    /**
     * The bounds on clients: {@code geoblocks.http.head-timeout}, {@code max-connections}, and the body's
     * {@code body-grace}, {@code body-min-rate} (bytes per second) and {@code body-max-time} (see {@link BodyDeadline}).
     */
    public static HttpServer.Limits limits(Config root) {
        Config c = root.getConfig("geoblocks.http");
        return new HttpServer.Limits(c.getDuration("head-timeout", TimeUnit.MILLISECONDS), c.getInt("max-connections"),
                new BodyDeadline(c.getDuration("body-grace", TimeUnit.MILLISECONDS), c.getBytes("body-min-rate"),
                        c.getDuration("body-max-time", TimeUnit.MILLISECONDS)));
    }
}
