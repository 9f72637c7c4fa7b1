package geoblocks.network.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.network.frame.Control;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node keys in the handshake: with the cluster's member keys known, a connection that claims a member's
 * address must sign with that member's key; the cluster secret (which every client holds) is not enough.
 */
class NodeKeysHandshakeTest {
    private static final NetAddress SEOUL = NetAddress.of("10.0.0.1", 1000);
    private static final NetAddress DUBLIN = NetAddress.of("10.0.0.2", 2000);
    private static final NetAddress CLIENT = NetAddress.of("10.0.0.9", 9000);
    private static final byte[] SECRET = "cluster-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NO_CERT = new byte[0];
    private static final KeyPair SEOUL_KEY = NodeIdentity.generate();
    private static final KeyPair DUBLIN_KEY = NodeIdentity.generate();
    private static final Map<NetAddress, PublicKey> MEMBERS =
            Map.of(SEOUL, SEOUL_KEY.getPublic(), DUBLIN, DUBLIN_KEY.getPublic());

    private static byte[] nonce(int v) {
        byte[] b = new byte[16];
        Arrays.fill(b, (byte) v);
        return b;
    }

    /** Seoul accepting a connection from whoever says it is at {@code claimed}, holding {@code key} (null: none). */
    private static Handshake[] pair(NetAddress claimed, PrivateKey key) {
        Handshake seoul = new Handshake(Handshake.Role.ACCEPTOR, SEOUL, null, SECRET, nonce(2), NO_CERT, NO_CERT,
                new NodeIdentity(SEOUL_KEY.getPrivate(), MEMBERS));
        Handshake peer = new Handshake(Handshake.Role.INITIATOR, claimed, SEOUL, SECRET, nonce(1), NO_CERT, NO_CERT,
                new NodeIdentity(key, MEMBERS));
        return new Handshake[] {seoul, peer};
    }

    @Test
    void aClientWithTheClusterSecret_claimingDublinsAddress_isRefused() throws Exception {
        Handshake[] h = pair(DUBLIN, null);
        Control.Proof fromSeoul = h[0].onHello(h[1].hello());
        Control.Proof fromImpostor = h[1].onHello(h[0].hello());
        assertEquals(0, fromImpostor.signature().length);
        assertTrue(h[1].onProof(fromSeoul), "the impostor knows the secret, and seoul proves its own key");
        String m = assertThrows(HandshakeException.class, () -> h[0].onProof(fromImpostor)).getMessage();
        assertTrue(m.contains(DUBLIN.toString()) && m.contains("node key"), m);
        assertFalse(h[0].complete());
    }

    @Test
    void aPeerSigningWithAnotherKey_claimingDublinsAddress_isRefused() throws Exception {
        Handshake[] h = pair(DUBLIN, NodeIdentity.generate().getPrivate());
        Control.Proof fromImpostor = h[1].onHello(h[0].hello());
        h[0].onHello(h[1].hello());
        assertEquals(NodeIdentity.SIGNATURE_BYTES, fromImpostor.signature().length);
        assertThrows(HandshakeException.class, () -> h[0].onProof(fromImpostor));
    }

    @Test
    void dublinWithItsKey_completes_andAClientAtItsOwnAddress_completesAsAClient() throws Exception {
        for (Handshake[] h : new Handshake[][] {pair(DUBLIN, DUBLIN_KEY.getPrivate()), pair(CLIENT, null)}) {
            Control.Proof fromSeoul = h[0].onHello(h[1].hello());
            Control.Proof fromPeer = h[1].onHello(h[0].hello());
            assertTrue(h[1].onProof(fromSeoul));
            assertTrue(h[0].onProof(fromPeer));
            assertArrayEquals(h[0].sessionSecret(), h[1].sessionSecret());
        }
    }

    /** Seoul's side with {@code identity}, accepting a connection that claims {@code claimed} and signs with {@code key}. */
    private static boolean completes(NodeIdentity identity, NetAddress claimed, PrivateKey key) throws Exception {
        Handshake seoul = new Handshake(Handshake.Role.ACCEPTOR, SEOUL, null, SECRET, nonce(2), NO_CERT, NO_CERT, identity);
        Handshake peer = new Handshake(Handshake.Role.INITIATOR, claimed, SEOUL, SECRET, nonce(1), NO_CERT, NO_CERT,
                new NodeIdentity(key, Map.of()));
        Control.Proof fromSeoul = seoul.onHello(peer.hello());
        Control.Proof fromPeer = peer.onHello(seoul.hello());
        peer.onProof(fromSeoul);
        try {
            return seoul.onProof(fromPeer);
        } catch (HandshakeException e) {
            return false;
        }
    }

    /**
     * A region added with {@code cluster add ... --key}: the config does not name it, the layout does. Once the
     * layout is learned, a connection claiming its address must prove that key (an impostor holding the cluster
     * secret did get in before); a later layout without it drops the requirement again.
     */
    @Test
    void aKeyTheLayoutNames_isRequiredFromTheNextHandshake_andOnlyWhileTheLayoutNamesIt() throws Exception {
        NetAddress mumbai = NetAddress.of("10.0.0.3", 3000);
        KeyPair mumbaiKey = NodeIdentity.generate();
        NodeIdentity seoul = new NodeIdentity(SEOUL_KEY.getPrivate(), MEMBERS);
        assertTrue(completes(seoul, mumbai, null), "before: the config names no key for mumbai's address");
        seoul.learn(Map.of(mumbai, List.of(mumbaiKey.getPublic())));
        assertFalse(completes(seoul, mumbai, null), "an impostor with the secret only");
        assertFalse(completes(seoul, mumbai, NodeIdentity.generate().getPrivate()), "an impostor with another key");
        assertTrue(completes(seoul, mumbai, mumbaiKey.getPrivate()), "the node the layout names");
        assertFalse(completes(seoul, DUBLIN, null), "the config's keys still hold");
        assertTrue(seoul.keyed());
        seoul.learn(Map.of());
        assertTrue(completes(seoul, mumbai, null), "a layout without mumbai's key");
        assertFalse(completes(seoul, DUBLIN, null), "the config's keys stay whatever the layout says");
        assertFalse(new NodeIdentity(null, Map.of()).keyed());
    }

    /**
     * A rotation: the layout names dublin's new key and, until retired, its old one. Both complete while the
     * rotation runs (so dublin may switch when it likes), only the new one after; and a node that switched signs
     * with its new key from its next handshake.
     */
    @Test
    void duringARotation_bothKeysAreAccepted_thenOnlyTheNewOne() throws Exception {
        KeyPair next = NodeIdentity.generate();
        NodeIdentity seoul = new NodeIdentity(SEOUL_KEY.getPrivate(), MEMBERS);
        seoul.learn(Map.of(DUBLIN, List.of(next.getPublic(), DUBLIN_KEY.getPublic())));
        assertTrue(completes(seoul, DUBLIN, DUBLIN_KEY.getPrivate()), "the old key, still accepted");
        assertTrue(completes(seoul, DUBLIN, next.getPrivate()), "the new key");
        assertFalse(completes(seoul, DUBLIN, null));
        seoul.learn(Map.of(DUBLIN, List.of(next.getPublic())));
        assertFalse(completes(seoul, DUBLIN, DUBLIN_KEY.getPrivate()), "retired: the old key no more");
        assertTrue(completes(seoul, DUBLIN, next.getPrivate()));

        NodeIdentity dublin = new NodeIdentity(DUBLIN_KEY.getPrivate(), Map.of());
        dublin.useOwn(next.getPrivate());
        Handshake accept = new Handshake(Handshake.Role.ACCEPTOR, SEOUL, null, SECRET, nonce(2), NO_CERT, NO_CERT, seoul);
        Handshake dial = new Handshake(Handshake.Role.INITIATOR, DUBLIN, SEOUL, SECRET, nonce(1), NO_CERT, NO_CERT, dublin);
        Control.Proof fromSeoul = accept.onHello(dial.hello());
        Control.Proof fromDublin = dial.onHello(accept.hello());
        dial.onProof(fromSeoul);
        assertTrue(accept.onProof(fromDublin), "dublin signs with the key it switched to");
    }

    @Test
    void aProofWithoutSeoulsSignature_isRefusedByTheNodeThatDialledSeoul() throws Exception {
        // dublin dials seoul; someone at seoul's address without seoul's key answers
        Handshake impostor = new Handshake(Handshake.Role.ACCEPTOR, SEOUL, null, SECRET, nonce(2), NO_CERT, NO_CERT);
        Handshake dublin = new Handshake(Handshake.Role.INITIATOR, DUBLIN, SEOUL, SECRET, nonce(1), NO_CERT, NO_CERT,
                new NodeIdentity(DUBLIN_KEY.getPrivate(), MEMBERS));
        Control.Proof fromImpostor = impostor.onHello(dublin.hello());
        dublin.onHello(impostor.hello());
        assertThrows(HandshakeException.class, () -> dublin.onProof(fromImpostor));
    }

    @Test
    void proofFrames_withAndWithoutASignature_roundTrip_andACutSignatureIsMalformed() throws Exception {
        Control.Proof signed = new Control.Proof(new byte[Control.MAC_BYTES], new byte[Control.SIGNATURE_BYTES]);
        Control.Proof plain = new Control.Proof(new byte[Control.MAC_BYTES]);
        for (Control.Proof p : new Control.Proof[] {signed, plain}) {
            ByteBuffer b = ByteBuffer.allocate(Control.size(p));
            Control.write(p, b);
            b.flip();
            assertEquals(p.signature().length, ((Control.Proof) Control.read(b)).signature().length);
        }
        ByteBuffer cut = ByteBuffer.allocate(1 + Control.MAC_BYTES + 10);
        cut.put((byte) Control.PROOF).put(new byte[Control.MAC_BYTES + 10]).flip();
        assertThrows(MalformedMessageException.class, () -> Control.read(cut));
    }

    @Test
    void keysAreWrittenAndReadBack_andTheKeyFileIsOwnerOnly(@TempDir Path dir) throws Exception {
        KeyPair kp = NodeIdentity.loadOrCreate(dir.resolve("node.key"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("node.key"))));
        KeyPair again = NodeIdentity.loadOrCreate(dir.resolve("node.key"));
        assertArrayEquals(kp.getPublic().getEncoded(), again.getPublic().getEncoded());
        assertArrayEquals(kp.getPrivate().getEncoded(), again.getPrivate().getEncoded());
        String text = NodeIdentity.format(kp.getPublic());
        assertTrue(text.startsWith("ed25519:") && text.length() == 8 + 44, text);
        assertArrayEquals(kp.getPublic().getEncoded(), NodeIdentity.parse(text).getEncoded());
        assertThrows(IllegalArgumentException.class, () -> NodeIdentity.parse("ed25519:AAAA"));
        assertThrows(IllegalArgumentException.class, () -> NodeIdentity.parse("rsa:" + text.substring(8)));
        Files.writeString(dir.resolve("bad.key"), "not a key\n");
        assertThrows(IOException.class, () -> NodeIdentity.loadOrCreate(dir.resolve("bad.key")));
    }
}
