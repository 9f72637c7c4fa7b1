package geoblocks.network.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.network.udp.DatagramAuthException.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PairKeysTest {

    private static final byte[] SECRET = "fixed session secret for tests, 32b".getBytes(StandardCharsets.UTF_8);
    private static final String X = "127.0.0.1:47101";
    private static final String Y = "127.0.0.1:47102";

    private static byte[] roundTrip(DatagramSealer tx, DatagramSealer rx, long seq, String text) throws Exception {
        ByteBuffer wire = ByteBuffer.allocate(256);
        tx.seal(seq, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), wire);
        ByteBuffer out = ByteBuffer.allocate(256);
        assertEquals(seq, rx.open(wire.flip(), out));
        byte[] b = new byte[out.flip().remaining()];
        out.get(b);
        return b;
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void derive_senderOfOneEnd_opensAtReceiverOfOther(boolean encrypt) throws Exception {
        PairKeys x = PairKeys.derive(SECRET, X, Y, encrypt);
        PairKeys y = PairKeys.derive(SECRET, Y, X, encrypt);
        assertEquals(x.sender().keyId(), y.receiver().keyId());
        assertEquals(y.sender().keyId(), x.receiver().keyId());
        assertArrayEquals("x to y".getBytes(StandardCharsets.UTF_8), roundTrip(x.sender(), y.receiver(), 0, "x to y"));
        assertArrayEquals("y to x".getBytes(StandardCharsets.UTF_8), roundTrip(y.sender(), x.receiver(), 0, "y to x"));
        assertEquals(encrypt, x.sender().encrypts());
    }

    @Test
    void derive_twoDirections_differ() {
        PairKeys x = PairKeys.derive(SECRET, X, Y, true);
        assertNotEquals(x.sender().keyId(), x.receiver().keyId());
    }

    @Test
    void open_withWrongDirection_isRejected() {
        PairKeys x = PairKeys.derive(SECRET, X, Y, true);
        PairKeys y = PairKeys.derive(SECRET, Y, X, true);
        ByteBuffer wire = ByteBuffer.allocate(64);
        x.sender().seal(0, ByteBuffer.wrap(new byte[8]), wire);
        wire.flip();
        // Reflected back to its sender, or opened with the receiver's own sending direction.
        for (DatagramSealer wrong : new DatagramSealer[] {x.receiver(), y.sender()}) {
            DatagramAuthException e = assertThrows(DatagramAuthException.class,
                    () -> wrong.open(wire.duplicate(), ByteBuffer.allocate(64)));
            assertEquals(Reason.UNKNOWN_KEY_ID, e.reason());
        }
    }

    @Test
    void derive_differentSecret_cannotOpen() {
        PairKeys x = PairKeys.derive(SECRET, X, Y, true);
        PairKeys y = PairKeys.derive("another secret".getBytes(StandardCharsets.UTF_8), Y, X, true);
        ByteBuffer wire = ByteBuffer.allocate(64);
        x.sender().seal(0, ByteBuffer.wrap(new byte[8]), wire);
        assertThrows(DatagramAuthException.class, () -> y.receiver().open(wire.flip(), ByteBuffer.allocate(64)));
    }

    @Test
    void derive_isDeterministic_andMatchesHkdfLayout() {
        byte[] prk = Hkdf.extract("geoblocks-udp-v1".getBytes(StandardCharsets.UTF_8), SECRET);
        byte[] okm = Hkdf.expand(prk, ("geoblocks-udp " + X + ">" + Y).getBytes(StandardCharsets.UTF_8), 40);
        int expectedKeyId = ByteBuffer.wrap(okm, 36, 4).getInt();
        assertEquals(expectedKeyId, PairKeys.derive(SECRET, X, Y, true).sender().keyId());
        assertEquals(expectedKeyId, PairKeys.derive(SECRET, Y, X, false).receiver().keyId());
    }

    @Test
    void derive_sameOrMissingIds_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PairKeys.derive(SECRET, X, X, true));
        assertEquals(true, e.getMessage().contains(X));
        assertThrows(IllegalArgumentException.class, () -> PairKeys.derive(new byte[0], X, Y, true));
        assertThrows(IllegalArgumentException.class, () -> PairKeys.derive(SECRET, null, Y, true));
    }
}
