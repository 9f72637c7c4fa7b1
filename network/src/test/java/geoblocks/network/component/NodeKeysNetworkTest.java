package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import geoblocks.network.session.NodeIdentity;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * The attack of a client that holds the cluster secret (every CLI client does) and claims a node's
 * address, over real sockets: with the members' node keys in the config, seoul refuses its connection,
 * so nothing it sends as "dublin" (a DropBlocks, a LayoutSync, a ManifestPart: any message) reaches
 * seoul, while mumbai, proving its own key, and a client at its own address are served. Over TLS and
 * over the plain "auth" transport.
 */
class NodeKeysNetworkTest {
    static final String SECRET = "node-keys-test-secret-0123";
    static final KeyPair SEOUL = NodeIdentity.generate();
    static final KeyPair DUBLIN = NodeIdentity.generate();
    static final KeyPair MUMBAI = NodeIdentity.generate();
    static Pair.Side seoul;
    static Pair.Side impostor;
    static Pair.Side mumbai;
    static Pair.Side client;
    static Pair.Side plainSeoul;
    static Pair.Side plainImpostor;

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings tls = NetworkSettings.from(ConfigFactory.load()).withSecurity("tls");
        NetworkSettings auth = NetworkSettings.from(ConfigFactory.load()).withSecurity("auth");
        NetAddress s = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        NetAddress d = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        NetAddress m = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        NetAddress ps = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        NetAddress pd = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        Map<NetAddress, PublicKey> members = Map.of(s, SEOUL.getPublic(), d, DUBLIN.getPublic(), m, MUMBAI.getPublic(),
                ps, SEOUL.getPublic(), pd, DUBLIN.getPublic());
        NodeIdentity clientView = new NodeIdentity(null, members);
        seoul = new Pair.Side(s, SECRET, tls).withIdentity(clientView.withOwn(SEOUL.getPrivate()));
        impostor = new Pair.Side(d, SECRET, tls).withIdentity(clientView); // dublin's address, not dublin's key
        mumbai = new Pair.Side(m, SECRET, tls).withIdentity(clientView.withOwn(MUMBAI.getPrivate()));
        client = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls).withIdentity(clientView);
        plainSeoul = new Pair.Side(ps, SECRET, auth).withIdentity(clientView.withOwn(SEOUL.getPrivate()));
        plainImpostor = new Pair.Side(pd, SECRET, auth).withIdentity(clientView);
        List<Pair.Side> all = List.of(seoul, impostor, mumbai, client, plainSeoul, plainImpostor);
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
    void aClientWithTheSecret_claimingDublinsAddress_reachesNothing_overTlsAndAuth() throws Exception {
        for (Pair.Side[] p : new Pair.Side[][] {{impostor, seoul}, {plainImpostor, plainSeoul}}) {
            long before = WireStats.unauthenticatedCount();
            p[0].send(msg(p[0], p[1], 100));
            assertTrue(RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1) > before, "the refusal is counted");
            assertNull(p[1].received.poll(2, TimeUnit.SECONDS), "nothing the impostor sent was delivered");
        }
    }

    @Test
    void mumbaiProvingItsKey_andAClientAtItsOwnAddress_areServed() throws Exception {
        mumbai.send(msg(mumbai, seoul, 1));
        client.send(msg(client, seoul, 2));
        Map<Long, TestMsg> got = seoul.collect(1, 2);
        assertEquals(2, got.size(), "both delivered: " + got.keySet());
        seoul.send(msg(seoul, mumbai, 3));
        assertNotNull(mumbai.await(3), "and seoul reaches mumbai, whose key it checks in turn");
    }
}
