package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.network.NetworkSettings;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * Networks at IPv6 addresses, over TLS: two at [::1] reach each other over TCP and UDP, and so do a network
 * at 127.0.0.1 and one at [::1] (a cluster that mixes the two families: each dials the other's family), and
 * one known by [::1] that listens on :: with both. Before the second UDP socket for the other family, the
 * datagram from [::1] to 127.0.0.1 never arrived (the socket logged "Network is unreachable"). Skipped where
 * this host has no IPv6 loopback.
 */
class Ipv6NetworkTest {
    static Pair.Side v6a;
    static Pair.Side v6b;
    static Pair.Side v4;
    /** Known by [::1], listening on :: (dual-stack: its one socket reaches IPv4 peers too). */
    static Pair.Side wide;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(ipv6Loopback(), "no IPv6 loopback (::1) on this host");
        NetworkSettings tls = NetworkSettings.from(ConfigFactory.load()).withSecurity("tls");
        String secret = "ipv6-test-secret-0123456";
        v6a = new Pair.Side(NetAddress.parse("[::1]:" + LoopbackNetworkTest.freePort()), secret, tls);
        v6b = new Pair.Side(NetAddress.parse("[::1]:" + LoopbackNetworkTest.freePort()), secret, tls);
        v4 = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), secret, tls);
        wide = new Pair.Side(NetAddress.parse("[::1]:" + LoopbackNetworkTest.freePort()), secret, tls)
                .listeningOn(InetAddress.getByName("::"));
        Pair.start(List.of(v6a, v6b, v4, wide));
    }

    static boolean ipv6Loopback() {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("::1", 0))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    private static void exchange(Pair.Side from, Pair.Side to, Transport t, long seq) throws InterruptedException {
        from.send(new TestMsg(new NetHeader(from.self, to.self, t), seq, new byte[] {(byte) seq}));
        TestMsg got = to.await(seq);
        assertNotNull(got, t + " message " + seq + " from " + from.self + " reached " + to.self);
        assertEquals(from.self, got.getHeader().source());
    }

    @Test
    void twoNetworksAtIpv6Addresses_exchangeTcpAndUdp() throws Exception {
        exchange(v6a, v6b, Transport.TCP, 1);
        exchange(v6b, v6a, Transport.TCP, 2);
        exchange(v6a, v6b, Transport.UDP, 3);
        exchange(v6b, v6a, Transport.UDP, 4);
    }

    @Test
    void anIpv4AndAnIpv6Network_exchangeTcpAndUdp_bothWays() throws Exception {
        exchange(v4, v6a, Transport.TCP, 11);
        exchange(v6a, v4, Transport.TCP, 12);
        exchange(v6a, v4, Transport.UDP, 13);
        exchange(v4, v6a, Transport.UDP, 14);
    }

    @Test
    void anIpv6NetworkListeningOnTheDualStackWildcard_exchangesUdpWithAnIpv4One() throws Exception {
        exchange(wide, v4, Transport.UDP, 21);
        exchange(v4, wide, Transport.UDP, 22);
        exchange(wide, v6a, Transport.UDP, 23);
    }
}
