package geoblocks.node.http;

import com.typesafe.config.Config;
import geoblocks.net.HostPort;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP server of one node, from the config: its port is the {@code http-port} of the node's
 * entry in {@code geoblocks.cluster.regions} (no entry: no server), bound on the node's own
 * address; the S3 gateway's root key is {@code geoblocks.http.access-key} / {@code secret-key}. The
 * dashboard has credentials of its own, {@code geoblocks.http.dashboard.user} / {@code password} (an
 * empty password: the node makes one at its first start, {@link DashboardPassword}), which the probes
 * ({@code /metrics}, {@code /healthz}, {@code /readyz}) need too when {@code geoblocks.http.probes-need-auth}.
 * The built-in demo secrets are refused on a non-loopback address, and the dashboard password may not be
 * the S3 secret key (whoever holds the one would hold the other).
 */
public record HttpSettings(InetSocketAddress bind, String accessKey, String secretKey, boolean probesNeedAuth,
        String dashboardUser, String dashboardPassword) {
    public static final String DEMO_SECRET = "geoblocks-local-demo-secret";
    /** The dashboard password of the local demo cluster (LocalCluster's config), refused off loopback. */
    public static final String DEMO_DASHBOARD_PASSWORD = "geoblocks-local-dashboard";

    public HttpSettings {
        if (bind.getPort() < 0 || bind.getPort() > 65535) {
            throw new IllegalArgumentException("http-port must be 0..65535, was " + bind.getPort());
        }
        if (secretKey.equals(DEMO_SECRET) && !bind.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("geoblocks.http.secret-key is the built-in demo secret but the HTTP server"
                    + " binds " + HostPort.literal(bind.getAddress()) + ": set your own secret-key");
        }
        if (dashboardPassword.equals(DEMO_DASHBOARD_PASSWORD) && !bind.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("geoblocks.http.dashboard.password is the built-in demo password but the HTTP"
                    + " server binds " + HostPort.literal(bind.getAddress())
                    + ": set your own, or none (the node makes one)");
        }
        if (!dashboardPassword.isEmpty() && dashboardPassword.equals(secretKey)) {
            throw new IllegalArgumentException("geoblocks.http.dashboard.password must not be the S3 secret key"
                    + " (geoblocks.http.secret-key): the dashboard has credentials of its own");
        }
        if (dashboardUser.isEmpty() || dashboardUser.contains(":")) {
            throw new IllegalArgumentException("geoblocks.http.dashboard.user must be non-empty without ':', was '"
                    + dashboardUser + "'");
        }
    }

    /** Without the secrets (they would otherwise reach a log with the settings). */
    @Override
    public String toString() {
        return "HttpSettings[bind=" + bind + ", accessKey=" + accessKey + ", secretKey=" + Redact.secret(secretKey)
                + ", probesNeedAuth=" + probesNeedAuth + ", dashboardUser=" + dashboardUser + ", dashboardPassword="
                + Redact.secret(dashboardPassword) + "]";
    }

    /** The settings of {@code region}'s node, or empty when its region entry has no {@code http-port}. */
    public static Optional<HttpSettings> of(Config root, String region, InetAddress nodeAddress) {
        for (Config r : root.getConfigList("geoblocks.cluster.regions")) {
            if (r.getString("id").equals(region) && r.hasPath("http-port")) {
                return Optional.of(new HttpSettings(new InetSocketAddress(nodeAddress, r.getInt("http-port")),
                        root.getString("geoblocks.http.access-key"), root.getString("geoblocks.http.secret-key"),
                        root.getBoolean("geoblocks.http.probes-need-auth"), root.getString("geoblocks.http.dashboard.user"),
                        root.getString("geoblocks.http.dashboard.password")));
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
