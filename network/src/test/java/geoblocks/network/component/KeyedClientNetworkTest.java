package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import geoblocks.net.AccessKey;
import geoblocks.net.FileGrant;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import geoblocks.network.session.ClientKey;
import geoblocks.network.session.NodeIdentity;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * Clients by access key over real sockets (TLS): a node that takes clients by key only ({@code clients = keys},
 * with node keys) serves a client proving a key it knows, and hands each of its messages up carrying the key;
 * it refuses a wrong secret, an unknown key, a client proving the cluster secret, a valid key at a keyed member's
 * address (whatever it would send as that member: it has no member's signature), and a revoked key, both at the
 * next connection and on the open session (closed at its next lookup of the key).
 */
class KeyedClientNetworkTest {
    static final String SECRET = "keyed-client-test-secret-0123";
    static final KeyPair NODE = NodeIdentity.generate();
    static final byte[] GOOD = "good-key-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    static final byte[] REVOKEE = "revokee-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    static final Map<String, ClientKey> KEYS = new ConcurrentHashMap<>();
    static Pair.Side node;
    static Pair.Side keyed;
    static Pair.Side wrongSecret;
    static Pair.Side unknown;
    static Pair.Side secretClient;
    static Pair.Side revokee;
    /** A client with a valid key at the address of mumbai, a keyed member (not running here). */
    static Pair.Side atMembersAddress;
    static final KeyPair MUMBAI = NodeIdentity.generate();

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings tls = NetworkSettings.from(ConfigFactory.load()).withSecurity("tls");
        NetworkSettings keysOnly = NetworkSettings.from(ConfigFactory.load().withValue("geoblocks.network.clients",
                ConfigValueFactory.fromAnyRef("keys"))).withSecurity("tls");
        NetAddress n = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        NetAddress mumbai = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        NodeIdentity view = new NodeIdentity(null, Map.of(n, NODE.getPublic(), mumbai, MUMBAI.getPublic()));
        KEYS.put("GBGOOD", new ClientKey(new AccessKey("GBGOOD", FileGrant.parseAll("Reports/:r")), GOOD));
        KEYS.put("GBREVOKEE", new ClientKey(new AccessKey("GBREVOKEE", List.of()), REVOKEE));
        node = new Pair.Side(n, SECRET, keysOnly).withIdentity(view.withOwn(NODE.getPrivate()))
                .withKeys(id -> CompletableFuture.supplyAsync(() -> Optional.ofNullable(KEYS.get(id))), 100);
        keyed = client(tls, view).withAccessKey("GBGOOD", GOOD);
        wrongSecret = client(tls, view).withAccessKey("GBGOOD", REVOKEE);
        unknown = client(tls, view).withAccessKey("GBNOSUCHKEY", GOOD);
        secretClient = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, tls)
                .withIdentity(view); // the cluster secret itself, at an address no member has
        revokee = client(tls, view).withAccessKey("GBREVOKEE", REVOKEE);
        atMembersAddress = new Pair.Side(mumbai, "not-the-cluster-secret-0", tls).withIdentity(view)
                .withAccessKey("GBGOOD", GOOD);
        Pair.start(List.of(node, keyed, wrongSecret, unknown, secretClient, revokee, atMembersAddress));
    }

    private static Pair.Side client(NetworkSettings s, NodeIdentity view) throws Exception {
        return new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), "not-the-cluster-secret-0", s)
                .withIdentity(view);
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    private static TestMsg msg(Pair.Side from, Pair.Side to, long seq) {
        return new TestMsg(new NetHeader(from.self, to.self, Transport.TCP), seq, new byte[] {(byte) seq});
    }

    @Test
    void aClientProvingAKnownKey_isServed_andEachMessageCarriesTheKey() throws Exception {
        keyed.send(msg(keyed, node, 1));
        TestMsg got = node.await(1);
        assertNotNull(got, "delivered");
        assertEquals("GBGOOD", got.key.id());
        assertEquals(FileGrant.parseAll("Reports/:r"), got.key.grants());
        node.send(msg(node, keyed, 2));
        assertNotNull(keyed.await(2), "and the node answers on that connection");
    }

    @Test
    void aFamilyNoKeyedClientSends_isDroppedAndCounted() throws Exception {
        keyed.send(msg(keyed, node, 3));
        assertNotNull(node.await(3));
        long before = WireStats.unauthenticatedCount();
        keyed.send(new StampMsg(new NetHeader(keyed.self, node.self, Transport.TCP), 7, 0, 0));
        assertTrue(RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1) > before, "counted");
        assertNull(node.stamps.poll(1, TimeUnit.SECONDS), "not delivered");
    }

    @Test
    void aWrongSecret_anUnknownKey_theClusterSecret_andAKeyAtAMembersAddress_areRefused() throws Exception {
        long seq = 10;
        for (Pair.Side refused : List.of(wrongSecret, unknown, secretClient, atMembersAddress)) {
            long before = WireStats.unauthenticatedCount();
            refused.send(msg(refused, node, seq));
            assertTrue(RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1) > before, "the refusal is counted");
            assertNull(node.await(seq, 1), "nothing it sent was delivered");
            seq++;
        }
    }

    @Test
    void aRevokedKey_closesItsOpenSession_andIsRefusedAtItsNextConnection() throws Exception {
        revokee.send(msg(revokee, node, 20));
        assertNotNull(node.await(20), "served while its key is valid");
        long before = WireStats.unauthenticatedCount();
        KEYS.remove("GBREVOKEE");
        assertTrue(RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 1) > before,
                "the open session is closed at the next lookup of its key");
        long seq = 21; // the first may go on the connection as it closes: send until the client dials again
        for (long end = System.nanoTime() + 10_000_000_000L; WireStats.unauthenticatedCount() < before + 2
                && System.nanoTime() < end; seq++) {
            revokee.send(msg(revokee, node, seq));
            RawPeer.awaitCount(WireStats::unauthenticatedCount, before + 2);
        }
        assertTrue(WireStats.unauthenticatedCount() >= before + 2, "the next connection is refused");
        TestMsg late = (TestMsg) node.received.poll(1, TimeUnit.SECONDS);
        assertTrue(late == null || late.seq < 21, "nothing sent after the revocation was delivered: " + late);
    }
}
