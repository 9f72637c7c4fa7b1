package geoblocks.node.http;

import com.typesafe.config.Config;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.io.File;
import java.util.Locale;

/**
 * HTTPS on a node's HTTP server ({@code geoblocks.http.tls}): {@code mode} off (plain HTTP),
 * required (TLS only) or optional (TLS and plain HTTP on the same port, told apart by the first
 * bytes of a connection). The certificate comes from the same sources as the node network's TLS:
 * {@code geoblocks.http.tls.cert-chain} / {@code private-key} (PEM), else the node network's
 * {@code geoblocks.network.tls.cert-chain} / {@code private-key}, else an ephemeral self-signed
 * certificate made at start (clients must then skip verification). TLS 1.2 and 1.3, JDK provider.
 */
public record HttpTls(Mode mode, String certChain, String privateKey) {
    public enum Mode { OFF, REQUIRED, OPTIONAL }

    public static final HttpTls OFF = new HttpTls(Mode.OFF, "", "");

    public HttpTls {
        if (certChain.isEmpty() != privateKey.isEmpty()) {
            throw new IllegalArgumentException("geoblocks.http.tls: cert-chain and private-key go together (both or neither)");
        }
    }

    public static HttpTls of(Config root) {
        if (!root.hasPath("geoblocks.http.tls.mode")) {
            return OFF;
        }
        Config c = root.getConfig("geoblocks.http.tls");
        Mode mode;
        try {
            mode = Mode.valueOf(c.getString("mode").trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("geoblocks.http.tls.mode must be off, required or optional, was '"
                    + c.getString("mode") + "'");
        }
        String chain = c.getString("cert-chain");
        String key = c.getString("private-key");
        if (chain.isEmpty() && key.isEmpty() && root.hasPath("geoblocks.network.tls.cert-chain")) {
            chain = root.getString("geoblocks.network.tls.cert-chain");
            key = root.getString("geoblocks.network.tls.private-key");
        }
        return new HttpTls(mode, chain, key);
    }

    public boolean on() {
        return mode != Mode.OFF;
    }

    /** Where the certificate comes from, for the start-up line. */
    public String source() {
        return certChain.isEmpty() ? "an ephemeral self-signed certificate" : certChain;
    }

    /** The server's TLS context; null when off. */
    public SslContext context(String hostName) throws Exception {
        if (!on()) {
            return null;
        }
        File chain;
        File key;
        if (certChain.isEmpty()) {
            SelfSignedCertificate ssc = new SelfSignedCertificate(hostName, "EC", 256);
            chain = ssc.certificate();
            key = ssc.privateKey();
        } else {
            chain = new File(certChain);
            key = new File(privateKey);
            if (!chain.canRead() || !key.canRead()) {
                throw new IllegalArgumentException("geoblocks.http.tls: cannot read " + chain + " or " + key);
            }
        }
        return SslContextBuilder.forServer(chain, key).sslProvider(SslProvider.JDK)
                .protocols("TLSv1.3", "TLSv1.2").build();
    }
}
