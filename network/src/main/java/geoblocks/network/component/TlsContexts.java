package geoblocks.network.component;

import geoblocks.network.NetworkSettings;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.io.File;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import javax.net.ssl.SSLException;

/**
 * TLS 1.3 contexts for both ends of a connection, both requiring a certificate from the peer.
 * Certificates come from the config (PEM) or, by default, an ephemeral self-signed one per process.
 * Without trust-certs the TLS layer accepts any certificate: who the peer is, is then proven by the
 * cluster-secret handshake that runs inside TLS and binds both certificates' SHA-256 (see
 * {@code Handshake}), so a man-in-the-middle with his own certificate fails it. With trust-certs
 * the certificate must also chain to one of them.
 */
final class TlsContexts {
    final SslContext server;
    final SslContext client;
    /** The TLS engine in use: BoringSSL (netty-tcnative, from Maven Central) where it loads, else the JDK's. */
    final String provider;

    TlsContexts(NetworkSettings s, String hostName) throws Exception {
        File chain;
        File key;
        if (s.tlsCertChain().isEmpty()) {
            SelfSignedCertificate ssc = new SelfSignedCertificate(hostName, "EC", 256);
            chain = ssc.certificate();
            key = ssc.privateKey();
        } else {
            chain = new File(s.tlsCertChain());
            key = new File(s.tlsPrivateKey());
        }
        SslContextBuilder sb = SslContextBuilder.forServer(chain, key).clientAuth(ClientAuth.REQUIRE);
        SslContextBuilder cb = SslContextBuilder.forClient().keyManager(chain, key);
        if (s.tlsTrustCerts().isEmpty()) {
            sb.trustManager(InsecureTrustManagerFactory.INSTANCE);
            cb.trustManager(InsecureTrustManagerFactory.INSTANCE);
        } else {
            sb.trustManager(new File(s.tlsTrustCerts()));
            cb.trustManager(new File(s.tlsTrustCerts()));
        }
        SslProvider provider = OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        for (SslContextBuilder b : new SslContextBuilder[] {sb, cb}) {
            b.sslProvider(provider).protocols("TLSv1.3");
        }
        this.provider = provider == SslProvider.OPENSSL ? OpenSsl.versionString() : "JDK";
        server = sb.build();
        client = cb.build();
    }

    /** SHA-256 of a certificate's DER encoding (what the handshake binds). */
    static byte[] fingerprint(Certificate c) throws SSLException {
        try {
            return MessageDigest.getInstance("SHA-256").digest(c.getEncoded());
        } catch (CertificateEncodingException | NoSuchAlgorithmException e) {
            throw new SSLException("cannot fingerprint certificate: " + e.getMessage(), e);
        }
    }
}
