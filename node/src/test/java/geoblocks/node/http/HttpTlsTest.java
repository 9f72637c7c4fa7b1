package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import geoblocks.node.s3.S3Settings;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.Test;

class HttpTlsTest {
    private static HttpClient trustingClient() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        // an X509ExtendedTrustManager that accepts any certificate does the host check itself (none), so the
        // self-signed certificate (no subject alternative names) is accepted
        ctx.init(null, new TrustManager[] {new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] c, String a) {}

            @Override
            public void checkServerTrusted(X509Certificate[] c, String a) {}

            @Override
            public void checkClientTrusted(X509Certificate[] c, String a, Socket s) {}

            @Override
            public void checkServerTrusted(X509Certificate[] c, String a, Socket s) {}

            @Override
            public void checkClientTrusted(X509Certificate[] c, String a, SSLEngine e) {}

            @Override
            public void checkServerTrusted(X509Certificate[] c, String a, SSLEngine e) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpServer start(HttpTls.Mode mode) throws Exception {
        Router router = new Router().add("GET", "/hello", false, ex -> ex.respondText(200, "hi\n"));
        HttpTls tls = new HttpTls(mode, "", "");
        return HttpServer.start(new InetSocketAddress("127.0.0.1", 0), router, null, HttpServer.Limits.DEFAULT,
                new HttpRefusals(), tls.context("127.0.0.1"), mode == HttpTls.Mode.OPTIONAL);
    }

    private static int get(HttpClient c, String scheme, HttpServer s) throws Exception {
        return c.send(HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + s.address().getPort() + "/hello"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void required_serves_https_only() throws Exception {
        HttpClient c = trustingClient();
        try (HttpServer s = start(HttpTls.Mode.REQUIRED)) {
            assertEquals(200, get(c, "https", s));
            assertThrows(Exception.class, () -> get(c, "http", s));
        }
    }

    @Test
    void optional_serves_both_on_one_port() throws Exception {
        HttpClient c = trustingClient();
        try (HttpServer s = start(HttpTls.Mode.OPTIONAL)) {
            assertEquals(200, get(c, "https", s));
            assertEquals(200, get(c, "http", s));
        }
    }

    @Test
    void settings_fall_back_to_the_node_networks_certificate() {
        HttpTls t = HttpTls.of(ConfigFactory.parseString("geoblocks.http.tls { mode = required, cert-chain = \"\", private-key = \"\" }\n"
                + "geoblocks.network.tls { cert-chain = \"/etc/c.pem\", private-key = \"/etc/k.pem\" }"));
        assertEquals("/etc/c.pem", t.certChain());
        assertEquals(HttpTls.Mode.REQUIRED, t.mode());
        assertEquals(HttpTls.OFF, HttpTls.of(ConfigFactory.empty()));
        assertThrows(IllegalArgumentException.class, () -> HttpTls.of(ConfigFactory.parseString(
                "geoblocks.http.tls { mode = sometimes, cert-chain = \"\", private-key = \"\" }")));
    }

    @Test
    void virtual_hosted_buckets_come_from_the_host() {
        S3Settings s = S3Settings.builder().region("seoul").accessKey("k").secretKey("s").defaultPolicy("local")
                .defaultBlockSize(1).maxBlockSize(1).maxObjectSize(1).multipartExpiry(Duration.ofHours(1))
                .spoolDir(Path.of("x")).migratedCopies(1).migrationSweepInterval(Duration.ofMinutes(1))
                .migrationRetryMin(Duration.ofSeconds(1)).migrationRetryMax(Duration.ofMinutes(1))
                .createWait(Duration.ofSeconds(15)).clusterSecret("secret-secret-secret").virtualHostDomains(List.of("localhost", "s3.example.com"))
                .lifecycleDay(Duration.ofDays(1)).lifecycleInterval(Duration.ofMinutes(10)).build();
        assertEquals("photos", s.virtualBucket("photos.localhost:47201"));
        assertEquals("my.bucket", s.virtualBucket("My.Bucket.s3.example.com"));
        assertEquals(null, s.virtualBucket("localhost:47201"));
        assertEquals(null, s.virtualBucket("127.0.0.1:47201"));
        assertEquals(null, s.virtualBucket("s3.example.com"));
        assertEquals(null, s.virtualBucket(null));
    }
}
