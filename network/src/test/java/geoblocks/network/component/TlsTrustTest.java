package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;

/**
 * TLS with certificates from the config and trust-certs: a and b present the cluster's certificate
 * and trust only it; x knows the cluster secret but presents another certificate, so the TLS layer
 * refuses it before the secret handshake even starts.
 */
class TlsTrustTest {
    static final String SECRET = "tls-trust-test-secret-0123";
    static Pair.Side a;
    static Pair.Side b;
    static Pair.Side x;

    static NetworkSettings tls(SelfSignedCertificate own, SelfSignedCertificate trusted) {
        return NetworkSettings.from(ConfigFactory.parseMap(Map.of(
                "security", "tls",
                "tls.cert-chain", own.certificate().getPath(),
                "tls.private-key", own.privateKey().getPath(),
                "tls.trust-certs", trusted.certificate().getPath())).atPath("geoblocks.network")
                .withFallback(ConfigFactory.load()));
    }

    @BeforeAll
    static void start() throws Exception {
        SelfSignedCertificate cluster = new SelfSignedCertificate("geoblocks-cluster", "EC", 256);
        SelfSignedCertificate other = new SelfSignedCertificate("someone-else", "EC", 256);
        a = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls(cluster, cluster));
        b = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls(cluster, cluster));
        x = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls(other, cluster));
        Pair.start(List.of(a, b, x));
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    @Test
    void aConnectionClosedBeforeItsFirstByte_isNoRefusedInput_whileBytesThatAreNotTlsAre() throws Exception {
        long before = WireStats.unauthenticatedCount();
        try (Socket probe = new Socket()) { // a client's reachability check: connect, send nothing
            probe.connect(a.self.asSocket(), 5000);
            probe.setSoTimeout(10_000);
            probe.shutdownOutput();
            assertEquals(-1, probe.getInputStream().read(), "the node closes its side");
        }
        assertEquals(before, WireStats.unauthenticatedCount(), "a connection that sent nothing is not counted");
        try (Socket garbage = new Socket()) {
            garbage.connect(a.self.asSocket(), 5000);
            garbage.setSoTimeout(10_000);
            garbage.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            garbage.shutdownOutput();
            while (garbage.getInputStream().read() >= 0) {
                // the node answers with a TLS alert, then closes
            }
        }
        assertEquals(before + 1, RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1), "bytes that are not TLS are");
    }

    @Test
    void trustedCertificate_andSecret_deliver() throws Exception {
        b.send(new TestMsg(new NetHeader(b.self, a.self, Transport.TCP), 1, new byte[] {42}));
        TestMsg m = (TestMsg) a.received.poll(10, TimeUnit.SECONDS);
        assertNotNull(m);
        assertEquals(1, m.seq);
    }

    @Test
    void untrustedCertificate_isRefusedEvenWithTheSecret() throws Exception {
        long before = WireStats.unauthenticatedCount();
        x.send(new TestMsg(new NetHeader(x.self, a.self, Transport.TCP), 2, new byte[] {7}));
        NetworkException e = LoopbackNetworkTest.waitFor(x, NetworkException.class);
        assertNotNull(e, "the sender learns the connection failed");
        assertTrue(RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1) > before, "refusal counted");
        assertTrue(a.received.stream().noneMatch(m -> ((TestMsg) m).seq == 2), "x's message delivered");
    }
}
