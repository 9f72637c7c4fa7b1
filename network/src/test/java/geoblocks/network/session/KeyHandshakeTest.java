package geoblocks.network.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.AccessKey;
import geoblocks.net.ClusterVersion;
import geoblocks.net.FileGrant;
import geoblocks.net.NetAddress;
import geoblocks.network.frame.Control;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The handshake of a client by access key (pure): the client proves the key's secret instead of the cluster
 * secret, the node proves it too and the session secret is of the key; a wrong secret, an unknown or revoked key,
 * a replayed proof, a proof moved to another key id and a HELLO cut back to layout 3 all fail; a node taking
 * clients by key only refuses the cluster secret but from a keyed member.
 */
class KeyHandshakeTest {
    private static final NetAddress CLIENT = NetAddress.of("10.0.0.9", 9000);
    private static final NetAddress NODE = NetAddress.of("10.0.0.2", 2000);
    private static final NetAddress MEMBER = NetAddress.of("10.0.0.3", 3000);
    private static final byte[] CLUSTER = "cluster-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final byte[] KEY_SECRET = "access-key-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final byte[] WRONG = "another-key-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final ClientKey KEY = new ClientKey(new AccessKey("GBKEY", FileGrant.parseAll("Reports/:rw")),
            KEY_SECRET);
    private static final byte[] NO_CERT = new byte[0];
    private static final ClusterVersion RELEASE = new ClusterVersion(0, 3);

    /** The node's key store: GBKEY only (a revoked key is absent from it, as the node's lookup answers). */
    private static final Map<String, ClientKey> STORE = Map.of("GBKEY", KEY);

    private static byte[] fill(int value) {
        byte[] b = new byte[16];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static Handshake client(String id, byte[] secret, int nonce) {
        return new Handshake(Handshake.Role.INITIATOR, CLIENT, NODE, CLUSTER, fill(nonce), NO_CERT, NO_CERT)
                .releasing(RELEASE, "test").byKey(id, secret);
    }

    private static Handshake node(int nonce) {
        return new Handshake(Handshake.Role.ACCEPTOR, NODE, null, CLUSTER, fill(nonce), NO_CERT, NO_CERT)
                .releasing(RELEASE, "test");
    }

    /** The node's side of a HELLO: the key it names, looked up in {@link #STORE}. */
    private static ClientKey lookUp(Control.Hello h) {
        return h.keyId().isEmpty() ? null : Optional.ofNullable(STORE.get(h.keyId())).orElse(null);
    }

    private static String failure(Executable e) {
        return assertThrows(HandshakeException.class, e).getMessage();
    }

    @Test
    void knownKey_bothSidesComplete_withTheKeysSessionSecret_andTheNodeKnowsWhoItIs() throws Exception {
        Handshake c = client("GBKEY", KEY_SECRET, 1);
        Handshake n = node(2);
        Control.Hello hello = c.hello();
        assertEquals(Control.LAYOUT_KEY, hello.version());
        assertEquals("GBKEY", hello.keyId());
        Control.Proof fromNode = n.onHello(hello, lookUp(hello));
        Control.Proof fromClient = c.onHello(n.hello());
        assertTrue(c.onProof(fromNode), "the node proved it knows the key");
        assertTrue(n.onProof(fromClient));
        assertArrayEquals(c.sessionSecret(), n.sessionSecret());
        assertEquals(KEY, n.peerKey());
        assertNull(c.peerKey(), "a client accepts no key");

        Handshake secretClient = new Handshake(Handshake.Role.INITIATOR, CLIENT, NODE, CLUSTER, fill(1), NO_CERT, NO_CERT)
                .releasing(RELEASE, "test");
        Handshake n2 = node(2);
        Control.Proof p = n2.onHello(secretClient.hello());
        assertTrue(n2.onProof(secretClient.onHello(n2.hello())));
        assertTrue(secretClient.onProof(p));
        assertFalse(Arrays.equals(n.sessionSecret(), n2.sessionSecret()), "not the cluster secret's session, same nonces");
    }

    @Test
    void wrongSecret_failsTheProofOnBothSides() throws Exception {
        Handshake c = client("GBKEY", WRONG, 1);
        Handshake n = node(2);
        Control.Hello hello = c.hello();
        Control.Proof fromNode = n.onHello(hello, lookUp(hello));
        Control.Proof fromClient = c.onHello(n.hello());
        String m = failure(() -> n.onProof(fromClient));
        assertTrue(m.contains("bad proof"), m);
        m = failure(() -> c.onProof(fromNode));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void unknownOrRevokedKey_isRefusedAtTheHello() {
        Control.Hello hello = client("GBREVOKED", KEY_SECRET, 1).hello();
        String m = failure(() -> node(2).onHello(hello, lookUp(hello)));
        assertTrue(m.contains("GBREVOKED"), m);
    }

    @Test
    void replayedProof_failsOnAConnectionWithFreshNonces() throws Exception {
        Handshake c1 = client("GBKEY", KEY_SECRET, 1);
        Handshake n1 = node(2);
        Control.Hello h1 = c1.hello();
        n1.onHello(h1, lookUp(h1));
        Control.Proof recorded = c1.onHello(n1.hello());

        Handshake n2 = node(3); // the attacker replays the client's HELLO and PROOF to a fresh connection
        n2.onHello(h1, lookUp(h1));
        String m = failure(() -> n2.onProof(recorded));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void proofOfOneKey_doesNotPassForAnotherId_withTheSameSecret() throws Exception {
        ClientKey twin = new ClientKey(new AccessKey("GBTWIN", List.of()), KEY_SECRET);
        Handshake c = client("GBKEY", KEY_SECRET, 1);
        Handshake n = node(2);
        Control.Hello h = c.hello();
        Control.Hello renamed = new Control.Hello(h.version(), h.address(), h.nonce(), h.transport(), h.protocols(),
                h.release(), h.build(), "GBTWIN");
        n.onHello(renamed, twin);
        Control.Proof fromClient = c.onHello(n.hello());
        String m = failure(() -> n.onProof(fromClient));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void helloCutBackToLayout3_failsTheProof() throws Exception {
        Handshake c = client("GBKEY", KEY_SECRET, 1);
        Handshake n = node(2);
        Control.Hello h = c.hello();
        Control.Hello cut = new Control.Hello(Control.VERSION, h.address(), h.nonce(), h.transport(), h.protocols(),
                h.release(), h.build());
        n.onHello(cut); // the node checks the cluster secret now, which the client does not prove
        Control.Proof fromClient = c.onHello(n.hello());
        String m = failure(() -> n.onProof(fromClient));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void keysOnly_refusesTheClusterSecret_butFromAKeyedMember() throws Exception {
        KeyPair member = NodeIdentity.generate();
        NodeIdentity view = new NodeIdentity(null, Map.of(MEMBER, member.getPublic()));
        Handshake n = new Handshake(Handshake.Role.ACCEPTOR, NODE, null, CLUSTER, fill(2), NO_CERT, NO_CERT, view)
                .releasing(RELEASE, "test").refusingSecretClients(true);
        Handshake secretClient = new Handshake(Handshake.Role.INITIATOR, CLIENT, NODE, CLUSTER, fill(1), NO_CERT, NO_CERT)
                .releasing(RELEASE, "test");
        String m = failure(() -> n.onHello(secretClient.hello()));
        assertTrue(m.contains("access key"), m);

        Handshake m1 = new Handshake(Handshake.Role.INITIATOR, MEMBER, NODE, CLUSTER, fill(3), NO_CERT, NO_CERT,
                view.withOwn(member.getPrivate())).releasing(RELEASE, "test");
        Handshake n2 = new Handshake(Handshake.Role.ACCEPTOR, NODE, null, CLUSTER, fill(2), NO_CERT, NO_CERT, view)
                .releasing(RELEASE, "test").refusingSecretClients(true);
        Control.Proof fromNode = n2.onHello(m1.hello());
        assertTrue(n2.onProof(m1.onHello(n2.hello())), "a member proving its node key passes");
        assertTrue(m1.onProof(fromNode));

        Handshake keyed = client("GBKEY", KEY_SECRET, 4);
        Handshake n3 = new Handshake(Handshake.Role.ACCEPTOR, NODE, null, CLUSTER, fill(2), NO_CERT, NO_CERT, view)
                .releasing(RELEASE, "test").refusingSecretClients(true);
        Control.Hello h = keyed.hello();
        Control.Proof p = n3.onHello(h, lookUp(h));
        assertTrue(n3.onProof(keyed.onHello(n3.hello())), "and so does a client by access key");
        assertTrue(keyed.onProof(p));
    }

    @Test
    void aNodesHelloNamingAKey_isRefusedByTheClient() {
        Handshake c = client("GBKEY", KEY_SECRET, 1);
        Control.Hello h = client("GBKEY", KEY_SECRET, 2).hello();
        Control.Hello fromNode = new Control.Hello(h.version(), NODE, h.nonce(), h.transport(), h.protocols(), h.release(),
                h.build(), "GBKEY");
        failure(() -> c.onHello(fromNode));
    }
}
