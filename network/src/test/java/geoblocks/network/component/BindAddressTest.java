package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.network.NetworkSettings;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * A node that listens on every address (0.0.0.0) while its peers know it by one (its region entry's): peers
 * dial the address they know, the node names itself by it in the handshake, and messages flow both ways over
 * TCP and UDP, over TLS. (Before bind addresses, a node listening on 0.0.0.0 named itself 0.0.0.0 and every
 * peer refused it: "dialled 127.0.0.1:P but the peer says it is 0.0.0.0:P".)
 */
class BindAddressTest {
    static Pair.Side wide;
    static Pair.Side peer;

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings tls = NetworkSettings.from(ConfigFactory.load()).withSecurity("tls");
        wide = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), "bind-test-secret-0123", tls)
                .listeningOn(InetAddress.getByName("0.0.0.0"));
        peer = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), "bind-test-secret-0123", tls);
        List<Pair.Side> all = List.of(wide, peer);
        Pair.start(all);
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    @Test
    void peersReachANodeListeningOnEveryAddress_byTheAddressTheyKnow() throws Exception {
        peer.send(new TestMsg(new NetHeader(peer.self, wide.self, Transport.TCP), 1, new byte[] {1}));
        assertNotNull(wide.await(1), "the peer's TCP message reached the node listening on 0.0.0.0");
        wide.send(new TestMsg(new NetHeader(wide.self, peer.self, Transport.TCP), 2, new byte[] {2}));
        TestMsg back = peer.await(2);
        assertNotNull(back, "and the node's answer reached the peer");
        assertEquals(wide.self, back.getHeader().source(), "from the address the peer knows, not 0.0.0.0");
        peer.send(new TestMsg(new NetHeader(peer.self, wide.self, Transport.UDP), 3, new byte[] {3}));
        assertNotNull(wide.await(3), "and a datagram");
    }
}
