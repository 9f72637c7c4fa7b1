package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.NetMsg;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * A node trusts its own S3 gateway's client (it alone may send admin operations: the admin HTTP API
 * reaches the node through it), which lives in the node's process and reaches it without sockets
 * ({@link LocalLinks}). A remote client holding the cluster secret that claims that client's address
 * over TCP is refused at the handshake, so nothing it sends arrives as the gateway's; the real
 * in-process client and an honest remote client are served.
 */
class InProcessAddressTest {
    static final String SECRET = "in-process-test-secret-0123";
    static Pair.Side node;
    static final Queue<NetMsg> inProcess = new ConcurrentLinkedQueue<>();
    static Pair.Side impostor;
    static Pair.Side client;

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings tls = NetworkSettings.from(ConfigFactory.load()).withSecurity("tls");
        LocalLinks links = new LocalLinks();
        NetAddress gw = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        // the gateway client's endpoint in the node's process (its own socket is not bound here: the
        // impostor, standing for another host, binds that address instead)
        links.register(gw, m -> inProcess.add(m));
        node = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls).withLocalLinks(links);
        impostor = new Pair.Side(gw, SECRET, tls); // claims the gateway client's address, without the links
        client = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls);
        List<Pair.Side> all = List.of(node, impostor, client);
        Pair.start(all);
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    private static TestMsg msg(Pair.Side from, Pair.Side to, long seq) {
        return new TestMsg(new NetHeader(from.self, to.self, Transport.TCP), seq, new byte[] {(byte) seq});
    }

    @Test
    void aRemoteClientClaimingTheGatewayClientsAddress_isRefused_andTheRealOnesAreServed() throws Exception {
        client.send(msg(client, node, 2));
        assertNotNull(node.await(2), "an honest remote client is served");
        node.send(msg(node, impostor, 3));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inProcess.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, inProcess.size(), "the node reaches the gateway client's address in-process, not the impostor");

        long before = WireStats.unauthenticatedCount();
        impostor.send(msg(impostor, node, 100));
        assertTrue(RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1) > before, "the refusal is counted");
        assertNull(node.received.poll(2, TimeUnit.SECONDS), "nothing the impostor sent arrived as the gateway client's");
    }
}
