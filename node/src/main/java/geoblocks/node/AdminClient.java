package geoblocks.node;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.net.HostPort;
import geoblocks.node.http.HttpSettings;
import geoblocks.node.http.HttpTls;
import geoblocks.node.http.JsonWriter;
import geoblocks.node.s3.MiniJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The command line's client of a node's admin API ({@code /_admin/v1}, see {@code AdminApi}): the node of
 * {@code --at} at its {@code http-port}, over HTTPS when the config's {@code geoblocks.http.tls.mode} is
 * required (trusting the config's certificate chain), with the admin token from {@code GEOBLOCKS_ADMIN_TOKEN},
 * else the config's {@code geoblocks.admin.token}. A refusal becomes a {@link NodeFailure} whose code gives
 * the exit code: the node's failure code when the API names one, FORBIDDEN for a refused token.
 */
public final class AdminClient {
    public static final String TOKEN_ENV = "GEOBLOCKS_ADMIN_TOKEN";
    private final HttpClient http;
    private final URI base;
    private final String token;

    private AdminClient(HttpClient http, URI base, String token) {
        this.http = http;
        this.base = base;
        this.token = token;
    }

    /** The client of the admin API of {@code at}'s node, as {@code cfg} describes it; connects within {@code timeoutMs}. */
    public static AdminClient of(AppConfig cfg, String at, long timeoutMs) {
        String token = System.getenv(TOKEN_ENV);
        if (token == null || token.isBlank()) {
            token = cfg.config().getString("geoblocks.admin.token");
        }
        if (token.isBlank()) {
            throw new IllegalArgumentException("an admin token is needed: set " + TOKEN_ENV + " (a node's root token is in"
                    + " its DATA/admin-token) or geoblocks.admin.token in the config");
        }
        HttpSettings h = HttpSettings.of(cfg.config(), at, cfg.cluster().address(at).getIp())
                .orElseThrow(() -> new IllegalArgumentException("region " + at + " has no http-port in the config:"
                        + " its node serves no admin API"));
        HttpTls tls = HttpTls.of(cfg.config());
        boolean https = tls.mode() == HttpTls.Mode.REQUIRED;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(Math.min(timeoutMs, 5000)));
        if (https) {
            if (tls.certChain().isEmpty()) {
                throw new IllegalArgumentException("the node's HTTPS certificate is made at its start (geoblocks.http.tls has"
                        + " no cert-chain), so this client cannot check it: configure cert-chain, or mode = optional and"
                        + " reach the node over a trusted network");
            }
            b.sslContext(trusting(Path.of(tls.certChain())));
        }
        URI base = URI.create((https ? "https" : "http") + "://" + HostPort.of(h.bind().getAddress(),
                h.bind().getPort()) + "/_admin/v1");
        return new AdminClient(b.build(), base, token.trim());
    }

    private static SSLContext trusting(Path chain) {
        try (InputStream in = Files.newInputStream(chain)) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                ks.setCertificateEntry("node-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the certificate chain " + chain + ": " + e.getMessage(), e);
        }
    }

    /** {@code method path} with {@code json} as the body (null: none); the answer's JSON text, or a NodeFailure. */
    public String call(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json");
        if (json == null) {
            r.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            r.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        HttpResponse<String> resp;
        try {
            resp = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IOException("cannot reach the admin API at " + base + ": " + e.getMessage() + "; is the node running?", e);
        }
        if (resp.statusCode() / 100 == 2) {
            return resp.body();
        }
        throw refusal(resp.statusCode(), resp.body());
    }

    /** The body of {@code POST /cluster}: a layout change ({@code capacityBytes} negative: not given). */
    public static String clusterChange(String action, String region, String address, String zone, long capacityBytes,
            boolean force, String key) {
        JsonWriter w = new JsonWriter().begin().field("action", action)
                .field("region", region).field("force", force);
        if (!address.isEmpty()) {
            w.field("address", address);
        }
        if (!zone.isEmpty()) {
            w.field("zone", zone);
        }
        if (capacityBytes >= 0) {
            w.field("capacityBytes", capacityBytes);
        }
        if (!key.isEmpty()) {
            w.field("key", key);
        }
        return w.end().toString();
    }

    /** The body of {@code POST /moves}. */
    public static String moveRequest(String name, List<String> regions) {
        JsonWriter w = new JsonWriter().begin().field("name", name).name("regions")
                .beginArray();
        regions.forEach(w::value);
        return w.endArray().end().toString();
    }

    /** The failure an admin API error answer stands for. */
    static NodeFailure refusal(int status, String body) {
        String error = "";
        String message = body;
        try {
            if (MiniJson.parse(body) instanceof Map<?, ?> m) {
                error = String.valueOf(m.get("error"));
                message = String.valueOf(m.get("message"));
            }
        } catch (IllegalArgumentException e) {
            // not JSON: the text as it came
        }
        FailureCode code;
        try {
            code = FailureCode.valueOf(error);
        } catch (IllegalArgumentException e) {
            code = switch (status) {
                case 400, 413 -> FailureCode.INVALID;
                case 401, 403, 429 -> FailureCode.FORBIDDEN;
                case 404 -> FailureCode.NOT_FOUND;
                case 503 -> FailureCode.UNAVAILABLE;
                default -> FailureCode.INTERNAL;
            };
        }
        return new NodeFailure(new Failure(code, "admin API: " + status + " " + message));
    }
}
