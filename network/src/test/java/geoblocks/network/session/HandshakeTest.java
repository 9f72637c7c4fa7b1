package geoblocks.network.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import geoblocks.net.VersionRange;
import geoblocks.network.frame.Control;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class HandshakeTest {
    private static final NetAddress I = NetAddress.of("10.0.0.1", 1000);
    private static final NetAddress A = NetAddress.of("10.0.0.2", 2000);
    private static final NetAddress OTHER = NetAddress.of("10.0.0.3", 3000);
    private static final byte[] SECRET = "cluster-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final byte[] WRONG = "another-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NO_CERT = new byte[0];

    private static byte[] fill(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static Handshake initiator(byte[] secret, byte[] nonce) {
        return new Handshake(Handshake.Role.INITIATOR, I, A, secret, nonce, NO_CERT, NO_CERT);
    }

    private static Handshake acceptor(byte[] secret, byte[] nonce) {
        return new Handshake(Handshake.Role.ACCEPTOR, A, null, secret, nonce, NO_CERT, NO_CERT);
    }

    /** Both send HELLO, both answer with PROOF, both check the other's PROOF. */
    private static void run(Handshake i, Handshake a) throws HandshakeException {
        Control.Proof fromAcceptor = a.onHello(i.hello());
        Control.Proof fromInitiator = i.onHello(a.hello());
        assertTrue(i.onProof(fromAcceptor));
        assertTrue(a.onProof(fromInitiator));
    }

    private static String failure(Executable e) {
        return assertThrows(HandshakeException.class, e).getMessage();
    }

    @Test
    void sameSecret_bothSidesComplete_withEqualSessionSecrets() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake a = acceptor(SECRET, fill(16, 2));
        assertFalse(i.complete());
        run(i, a);
        assertTrue(i.complete());
        assertTrue(a.complete());
        assertEquals(A, i.peer());
        assertEquals(I, a.peer());
        assertEquals(32, i.sessionSecret().length);
        assertArrayEquals(i.sessionSecret(), a.sessionSecret());
    }

    @Test
    void differentSecret_proofFailsOnBothSides_namingTheSecret() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake a = acceptor(WRONG, fill(16, 2));
        Control.Proof fromAcceptor = a.onHello(i.hello());
        Control.Proof fromInitiator = i.onHello(a.hello());
        String m = failure(() -> i.onProof(fromAcceptor));
        assertTrue(m.contains("secret") && m.contains(A.toString()), m);
        m = failure(() -> a.onProof(fromInitiator));
        assertTrue(m.contains("secret") && m.contains(I.toString()), m);
        assertFalse(i.complete());
        assertThrows(IllegalStateException.class, i::sessionSecret);
    }

    @Test
    void initiator_refusesHelloNamingAnotherAddressThanDialled() {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake impostor = new Handshake(Handshake.Role.ACCEPTOR, OTHER, null, SECRET, fill(16, 2), NO_CERT, NO_CERT);
        String m = failure(() -> i.onHello(impostor.hello()));
        assertTrue(m.contains("dialled " + A) && m.contains(OTHER.toString()), m);
    }

    @Test
    void helloClaimingOurOwnAddress_isRefused() {
        Handshake a = acceptor(SECRET, fill(16, 2));
        Control.Hello mirror = Control.Hello.of(A, fill(16, 9), new ClusterVersion(0, 3));
        String m = failure(() -> a.onHello(mirror));
        assertTrue(m.contains("our own address"), m);
    }

    @Test
    void helloEchoingOurNonce_isRefused() {
        Handshake a = acceptor(SECRET, fill(16, 2));
        String m = failure(() -> a.onHello(Control.Hello.of(I, fill(16, 2), new ClusterVersion(0, 3))));
        assertTrue(m.contains("nonce"), m);
    }

    @Test
    void proofBeforeHello_fails() {
        Handshake a = acceptor(SECRET, fill(16, 2));
        String m = failure(() -> a.onProof(new Control.Proof(fill(32, 0))));
        assertTrue(m.contains("PROOF before HELLO"), m);
    }

    @Test
    void reflectedProof_isRefusedByTheInitiator() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake a = acceptor(SECRET, fill(16, 2));
        a.onHello(i.hello());
        Control.Proof own = i.onHello(a.hello());
        String m = failure(() -> i.onProof(own));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void reflectedProof_isRefusedByTheAcceptor() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake a = acceptor(SECRET, fill(16, 2));
        i.onHello(a.hello());
        Control.Proof own = a.onHello(i.hello());
        String m = failure(() -> a.onProof(own));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void matchingCertificateFingerprints_complete() throws Exception {
        byte[] certI = fill(32, 0x11);
        byte[] certA = fill(32, 0x22);
        Handshake i = new Handshake(Handshake.Role.INITIATOR, I, A, SECRET, fill(16, 1), certI, certA);
        Handshake a = new Handshake(Handshake.Role.ACCEPTOR, A, null, SECRET, fill(16, 2), certA, certI);
        run(i, a);
        assertArrayEquals(i.sessionSecret(), a.sessionSecret());
    }

    @Test
    void manInTheMiddleCertificates_failTheProofOnBothSides() throws Exception {
        // the relay terminates TLS on both sides: each end sees the relay's certificate, not the peer's
        byte[] certI = fill(32, 0x11);
        byte[] certA = fill(32, 0x22);
        byte[] relayTowardsI = fill(32, 0x33);
        byte[] relayTowardsA = fill(32, 0x44);
        Handshake i = new Handshake(Handshake.Role.INITIATOR, I, A, SECRET, fill(16, 1), certI, relayTowardsI);
        Handshake a = new Handshake(Handshake.Role.ACCEPTOR, A, null, SECRET, fill(16, 2), certA, relayTowardsA);
        Control.Proof fromAcceptor = a.onHello(i.hello());
        Control.Proof fromInitiator = i.onHello(a.hello());
        assertTrue(failure(() -> i.onProof(fromAcceptor)).contains("bad proof"));
        assertTrue(failure(() -> a.onProof(fromInitiator)).contains("bad proof"));
    }

    @Test
    void secondHello_fails() throws Exception {
        Handshake a = acceptor(SECRET, fill(16, 2));
        Control.Hello h = initiator(SECRET, fill(16, 1)).hello();
        a.onHello(h);
        String m = failure(() -> a.onHello(h));
        assertTrue(m.contains("second HELLO"), m);
    }

    @Test
    void secondProof_fails() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake a = acceptor(SECRET, fill(16, 2));
        Control.Proof fromAcceptor = a.onHello(i.hello());
        i.onHello(a.hello());
        i.onProof(fromAcceptor);
        String m = failure(() -> i.onProof(fromAcceptor));
        assertTrue(m.contains("second PROOF"), m);
    }

    @Test
    void recordedProof_doesNotVerifyOnAConnectionWithFreshNonces() throws Exception {
        Handshake i1 = initiator(SECRET, fill(16, 1));
        Handshake a1 = acceptor(SECRET, fill(16, 2));
        i1.onHello(a1.hello());
        Control.Proof recorded = a1.onHello(i1.hello());

        Handshake i2 = initiator(SECRET, fill(16, 3));
        i2.onHello(a1.hello()); // the attacker replays the acceptor's old HELLO and PROOF
        String m = failure(() -> i2.onProof(recorded));
        assertTrue(m.contains("bad proof"), m);
    }

    @Test
    void freshNonces_giveDifferentSessionSecrets() throws Exception {
        Handshake i1 = initiator(SECRET, fill(16, 1));
        Handshake a1 = acceptor(SECRET, fill(16, 2));
        run(i1, a1);
        Handshake i2 = initiator(SECRET, fill(16, 1));
        Handshake a2 = acceptor(SECRET, fill(16, 3));
        run(i2, a2);
        assertFalse(Arrays.equals(i1.sessionSecret(), i2.sessionSecret()));
        assertArrayEquals(i2.sessionSecret(), a2.sessionSecret());
    }

    @Test
    void sameNoncesAndSecret_giveTheSameSessionSecret() throws Exception {
        Handshake i1 = initiator(SECRET, fill(16, 1));
        Handshake a1 = acceptor(SECRET, fill(16, 2));
        run(i1, a1);
        Handshake i2 = initiator(SECRET, fill(16, 1));
        Handshake a2 = acceptor(SECRET, fill(16, 2));
        run(i2, a2);
        assertArrayEquals(i1.sessionSecret(), i2.sessionSecret());
    }

    @Test
    void constructor_refusesBadParameters_namingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> initiator(SECRET, fill(15, 1)));
        assertTrue(e.getMessage().contains("was 15"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> initiator(fill(15, 7), fill(16, 1)));
        assertTrue(e.getMessage().contains("was 15"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new Handshake(Handshake.Role.INITIATOR, I, null, SECRET, fill(16, 1), NO_CERT, NO_CERT));
        assertThrows(IllegalArgumentException.class,
                () -> new Handshake(Handshake.Role.ACCEPTOR, A, I, SECRET, fill(16, 1), NO_CERT, NO_CERT));
    }

    @Test
    void peer_beforeHello_isIllegalState() {
        assertThrows(IllegalStateException.class, () -> acceptor(SECRET, fill(16, 2)).peer());
    }

    private static SortedMap<Integer, VersionRange> offer(int id, int min, int max) {
        SortedMap<Integer, VersionRange> m = new TreeMap<>();
        m.put(id, new VersionRange(min, max));
        return m;
    }

    @Test
    void versions_bothEndsAgreeTheHighestShared_perFamily() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1)).offering(offer(100, 3, 4), id -> "file protocol");
        Handshake a = acceptor(SECRET, fill(16, 2)).offering(offer(100, 3, 3), id -> "file protocol");
        run(i, a);
        assertEquals(3, i.agreed()[100], "the new end speaks the old end's version");
        assertEquals(3, a.agreed()[100]);
        assertEquals(2, i.agreed()[0], "the transport");
        assertEquals(-1, i.agreed()[110], "a family neither offered");
    }

    @Test
    void versions_aFamilyOnlyOneEndCarries_isNotAgreed_andDoesNotStopTheConnection() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1)).offering(offer(110, 2, 2), id -> "ledbat");
        Handshake a = acceptor(SECRET, fill(16, 2));
        run(i, a);
        assertEquals(-1, i.agreed()[110]);
        assertEquals(-1, a.agreed()[110]);
    }

    @Test
    void versions_thatDoNotMeet_areRefusedOnBothSides_namingBothRanges() {
        Handshake i = initiator(SECRET, fill(16, 1)).offering(offer(100, 5, 6), id -> "file protocol");
        Handshake a = acceptor(SECRET, fill(16, 2)).offering(offer(100, 3, 4), id -> "file protocol");
        String m = failure(() -> a.onHello(i.hello()));
        assertTrue(m.contains("file protocol: this node speaks version 3-4, the peer 5-6"), m);
        assertTrue(m.contains("upgrade this node"), m);
        m = failure(() -> i.onHello(a.hello()));
        assertTrue(m.contains("file protocol: this node speaks version 5-6, the peer 3-4"), m);
        assertTrue(m.contains("upgrade the peer"), m);
    }

    @Test
    void versions_aHelloOfferingAnotherTransport_isRefused() {
        Handshake a = acceptor(SECRET, fill(16, 2));
        Control.Hello future = new Control.Hello(Control.LAYOUT_RANGES, I, fill(16, 9), VersionRange.only(7),
                new TreeMap<>());
        String m = failure(() -> a.onHello(future));
        assertTrue(m.contains("transport: this node speaks version 2, the peer 7"), m);
    }

    /** Someone in the middle who cuts a HELLO's offer (to talk both ends down to an older version) breaks the proofs. */
    @Test
    void versions_aDowngradedOffer_failsTheProof() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1)).offering(offer(100, 3, 4), id -> "file protocol");
        Handshake a = acceptor(SECRET, fill(16, 2)).offering(offer(100, 3, 4), id -> "file protocol");
        Control.Hello real = i.hello();
        Control.Hello cut = new Control.Hello(real.version(), real.address(), real.nonce(), real.transport(), offer(100, 3, 3));
        Control.Proof fromAcceptor = a.onHello(cut);
        Control.Proof fromInitiator = i.onHello(a.hello());
        assertEquals(3, a.agreed()[100], "the acceptor was talked down");
        String m = failure(() -> i.onProof(fromAcceptor));
        assertTrue(m.contains("bad proof"), m);
        m = failure(() -> a.onProof(fromInitiator));
        assertTrue(m.contains("bad proof"), m);
    }

    private static final ClusterVersion V0_3 = new ClusterVersion(0, 3);

    /** Two ends of layout 3 tell each other what they run. */
    @Test
    void releases_bothEndsLearnWhatThePeerRuns() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1)).releasing(V0_3, "0.3.0 (commit aaaa)");
        Handshake a = acceptor(SECRET, fill(16, 2)).releasing(V0_3, "0.3.1 (commit bbbb)");
        run(i, a);
        assertEquals(new PeerVersions.Release(V0_3, "0.3.1 (commit bbbb)"), i.peerRelease());
        assertEquals(new PeerVersions.Release(V0_3, "0.3.0 (commit aaaa)"), a.peerRelease());
    }

    /** A 0.2.x peer (a HELLO of layout 2, naming no release) still completes with a 0.3 end, and runs 0.2. */
    @Test
    void releases_aPeerOfLayout2_completes_andRuns0_2() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1)); // names none: layout 2, as 0.2.x writes
        Handshake a = acceptor(SECRET, fill(16, 2)).releasing(V0_3, "0.3.0 (commit bbbb)");
        assertEquals(Control.LAYOUT_RANGES, i.hello().version());
        assertEquals(Control.VERSION, a.hello().version());
        run(i, a);
        assertEquals(ClusterVersion.V0_2, a.peerRelease().line());
        assertEquals("0.2.x", a.peerRelease().describe());
        assertEquals(V0_3, i.peerRelease().line());
    }

    /** Once the cluster's version is 0.3, a 0.2 peer is refused, with why and what to do. */
    @Test
    void releases_aPeerBelowTheClusterVersion_isRefused() {
        Handshake i = initiator(SECRET, fill(16, 1));
        Handshake a = acceptor(SECRET, fill(16, 2)).releasing(V0_3, "0.3.0").requiring(V0_3);
        String m = failure(() -> a.onHello(i.hello()));
        assertTrue(m.contains("runs geoblocks 0.2.x, below the cluster's version 0.3"), m);
        assertTrue(m.contains("upgrade it to 0.3 or later"), m);
        Handshake newer = initiator(SECRET, fill(16, 3)).releasing(new ClusterVersion(0, 4), "0.4.0");
        Handshake a2 = acceptor(SECRET, fill(16, 4)).releasing(V0_3, "0.3.0").requiring(V0_3);
        Assertions.assertDoesNotThrow(() -> run(newer, a2));
    }

    /** Someone in the middle who cuts a HELLO back to layout 2 (to hide its release) breaks the proofs. */
    @Test
    void releases_aHelloCutBackToLayout2_failsTheProof() throws Exception {
        Handshake i = initiator(SECRET, fill(16, 1)).releasing(V0_3, "0.3.0");
        Handshake a = acceptor(SECRET, fill(16, 2)).releasing(V0_3, "0.3.0");
        Control.Hello real = i.hello();
        Control.Hello cut = new Control.Hello(Control.LAYOUT_RANGES, real.address(), real.nonce(), real.transport(),
                real.protocols());
        Control.Proof fromAcceptor = a.onHello(cut);
        Control.Proof fromInitiator = i.onHello(a.hello());
        assertTrue(failure(() -> i.onProof(fromAcceptor)).contains("bad proof"));
        assertTrue(failure(() -> a.onProof(fromInitiator)).contains("bad proof"));
    }
}
