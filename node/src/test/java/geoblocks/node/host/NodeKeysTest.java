package geoblocks.node.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.network.session.Handshake;
import geoblocks.network.session.HandshakeException;
import geoblocks.network.session.NodeIdentity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's side of a key rotation, on its key files: the next key is made once and kept across a restart,
 * the node keeps its current key until the layout naming the next one has reached every member, then signs
 * with the next one and makes it node.key; the layout's keys reach the handshakes.
 */
class NodeKeysTest {
    @Test
    void theNextKey_isMadeOnce_andTakesOverOnlyWhenSettled(@TempDir Path dir) throws Exception {
        KeyPair current = NodeIdentity.loadOrCreate(dir.resolve(NodeKeys.FILE));
        NodeIdentity identity = new NodeIdentity(current.getPrivate(), Map.of());
        NodeKeys keys = new NodeKeys(identity, dir);
        String next = keys.prepareRotation();
        assertEquals(next, keys.prepareRotation(), "asked again, the same next key");
        assertEquals(next, new NodeKeys(identity, dir).prepareRotation(), "and after a restart");
        assertTrue(Files.exists(dir.resolve(NodeKeys.NEXT)));

        keys.ownKeySettled(NodeIdentity.format(current.getPublic()));
        assertEquals(NodeIdentity.format(current.getPublic()), publicIn(dir.resolve(NodeKeys.FILE)), "not the next key: nothing");
        keys.ownKeySettled(next);
        assertEquals(next, publicIn(dir.resolve(NodeKeys.FILE)), "node.key is the new key");
        assertFalse(Files.exists(dir.resolve(NodeKeys.NEXT)));
        assertTrue(signsAs(identity, NodeIdentity.parse(next)), "and the node signs with it");
        assertFalse(signsAs(identity, current.getPublic()));
    }

    @Test
    void theLayoutsKeys_reachTheHandshakes(@TempDir Path dir) throws Exception {
        NodeIdentity identity = new NodeIdentity(null, Map.of());
        NodeKeys keys = new NodeKeys(identity, dir);
        assertFalse(keys.required());
        String k = NodeIdentity.format(NodeIdentity.generate().getPublic());
        keys.layoutKeys(Map.of("10.0.0.3:3000", List.of(k), "not-an-address", List.of(k)));
        assertTrue(keys.required());
        assertEquals(k, NodeIdentity.format(identity.keyOf(NetAddress.parse("10.0.0.3:3000"))));
    }

    private static String publicIn(Path file) throws Exception {
        return NodeIdentity.format(NodeIdentity.loadOrCreate(file).getPublic());
    }

    /** Whether a handshake signed by {@code identity} as 10.0.0.2:2000 passes a side that names {@code key} for it. */
    private static boolean signsAs(NodeIdentity identity, PublicKey key) throws Exception {
        NetAddress me = NetAddress.of("10.0.0.2", 2000);
        NetAddress peer = NetAddress.of("10.0.0.1", 1000);
        byte[] secret = "cluster-secret-0123456789".getBytes(StandardCharsets.UTF_8);
        byte[] n1 = new byte[16];
        byte[] n2 = new byte[16];
        n2[0] = 1;
        Handshake accept = new Handshake(
                Handshake.Role.ACCEPTOR, peer, null, secret, n2, new byte[0], new byte[0],
                new NodeIdentity(null, Map.of(me, key)));
        Handshake dial = new Handshake(
                Handshake.Role.INITIATOR, me, peer, secret, n1, new byte[0], new byte[0], identity);
        var fromAcceptor = accept.onHello(dial.hello());
        var fromDialler = dial.onHello(accept.hello());
        dial.onProof(fromAcceptor);
        try {
            return accept.onProof(fromDialler);
        } catch (HandshakeException e) {
            return false;
        }
    }
}
