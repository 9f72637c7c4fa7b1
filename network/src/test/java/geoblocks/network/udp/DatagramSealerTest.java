package geoblocks.network.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.network.udp.DatagramAuthException.Reason;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DatagramSealerTest {

    private static final int KEY_ID = 0x0A0B0C0D;
    private static final byte[] SALT = {1, 2, 3, 4};

    private static byte[] key(int first) {
        byte[] k = new byte[32];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (first + i);
        }
        return k;
    }

    private static DatagramSealer sealer(boolean encrypt) {
        return new DatagramSealer(key(0), SALT, KEY_ID, encrypt);
    }

    private static byte[] body(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 3);
        }
        return b;
    }

    private static ByteBuffer buffer(int capacity, boolean direct) {
        return direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** Seals {@code body} under {@code seq} into a flipped heap buffer holding just the datagram. */
    private static ByteBuffer seal(DatagramSealer s, long seq, byte[] body) {
        ByteBuffer out = ByteBuffer.allocate(body.length + DatagramSealer.OVERHEAD);
        assertEquals(body.length + DatagramSealer.OVERHEAD, s.seal(seq, ByteBuffer.wrap(body), out));
        return out.flip();
    }

    private static Reason refusal(DatagramSealer receiver, ByteBuffer datagram) {
        ByteBuffer out = ByteBuffer.allocate(datagram.remaining());
        int pos = datagram.position();
        DatagramAuthException e = assertThrows(DatagramAuthException.class, () -> receiver.open(datagram, out));
        assertEquals(pos, datagram.position(), "datagram position restored");
        assertEquals(0, out.position(), "out position restored");
        return e.reason();
    }

    @ParameterizedTest(name = "encrypt={0} direct={1}")
    @CsvSource({"true,false", "true,true", "false,false", "false,true"})
    void open_sealedDatagram_roundTripsBodyAndSeq(boolean encrypt, boolean direct) throws Exception {
        DatagramSealer tx = sealer(encrypt);
        DatagramSealer rx = sealer(encrypt);
        ByteBuffer wire = buffer(2048, direct);
        ByteBuffer plain = buffer(2048, direct);
        for (long seq = 0; seq < 5; seq++) {
            byte[] body = body(1400 - (int) seq);
            ByteBuffer in = buffer(body.length, direct).put(body).flip();
            wire.clear();
            assertEquals(body.length + 28, tx.seal(seq, in, wire));
            assertEquals(in.limit(), in.position(), "body consumed");
            wire.flip();
            plain.clear();
            assertEquals(seq, rx.open(wire, plain));
            assertEquals(wire.limit(), wire.position(), "datagram consumed");
            assertArrayEquals(body, bytes(plain.flip()));
        }
        assertEquals(4, tx.lastSealedSeq());
        assertEquals(4, rx.highestOpenedSeq());
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_emptyBody_roundTrips(boolean encrypt) throws Exception {
        ByteBuffer wire = seal(sealer(encrypt), 0, new byte[0]);
        assertEquals(DatagramSealer.OVERHEAD, wire.remaining());
        ByteBuffer out = ByteBuffer.allocate(0);
        assertEquals(0, sealer(encrypt).open(wire, out));
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_slicedAndLittleEndianBuffers_roundTrip(boolean encrypt) throws Exception {
        byte[] body = body(100);
        ByteBuffer in = ByteBuffer.allocate(300).position(17).slice().put(body).flip();
        ByteBuffer wire = ByteBuffer.allocate(400).position(33).slice().order(ByteOrder.LITTLE_ENDIAN);
        sealer(encrypt).seal(7, in, wire);
        wire.flip();
        assertEquals(KEY_ID, DatagramSealer.peekKeyId(wire), "header is big endian regardless of order");
        assertEquals(7, DatagramSealer.peekSeq(wire));
        ByteBuffer out = ByteBuffer.allocate(300).position(5).slice();
        assertEquals(7, sealer(encrypt).open(wire, out));
        assertArrayEquals(body, bytes(out.flip()));
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_readOnlyBuffers_roundTrip(boolean encrypt) throws Exception {
        byte[] body = body(300);
        ByteBuffer wire = ByteBuffer.allocate(400);
        sealer(encrypt).seal(3, ByteBuffer.wrap(body).asReadOnlyBuffer(), wire);
        ByteBuffer readOnly = wire.flip().asReadOnlyBuffer();
        ByteBuffer out = ByteBuffer.allocateDirect(300);
        assertEquals(3, sealer(encrypt).open(readOnly, out));
        assertArrayEquals(body, bytes(out.flip()));
        if (!encrypt) {
            ByteBuffer again = wire.duplicate().position(0).asReadOnlyBuffer();
            assertEquals(3, sealer(false).verify(again));
            assertArrayEquals(body, bytes(again));
        }
    }

    @Test
    void seal_encrypting_bodyIsNotThePlaintext() {
        byte[] body = body(64);
        ByteBuffer wire = seal(sealer(true), 1, body);
        byte[] onWire = Arrays.copyOfRange(wire.array(), 12, 12 + 64);
        assertFalse(Arrays.equals(body, onWire));
    }

    @Test
    void seal_authOnly_bodyIsThePlaintext() {
        byte[] body = body(64);
        ByteBuffer wire = seal(sealer(false), 1, body);
        assertArrayEquals(body, Arrays.copyOfRange(wire.array(), 12, 12 + 64));
        assertEquals(64 + 28, wire.remaining());
    }

    @Test
    void seal_writesHeaderBigEndian() throws Exception {
        ByteBuffer wire = seal(sealer(true), 0x0102030405060708L, body(3));
        assertArrayEquals(new byte[] {0x0A, 0x0B, 0x0C, 0x0D, 1, 2, 3, 4, 5, 6, 7, 8},
                Arrays.copyOfRange(wire.array(), 0, 12));
        assertEquals(KEY_ID, DatagramSealer.peekKeyId(wire));
        assertEquals(0x0102030405060708L, DatagramSealer.peekSeq(wire));
        assertEquals(0, wire.position(), "peek does not move the buffer");
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_anyFlippedBit_isRejected(boolean encrypt) {
        byte[] wire = seal(sealer(encrypt), 1000, body(32)).array();
        for (int bit = 0; bit < wire.length * 8; bit++) {
            byte[] bad = wire.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            Reason r = refusal(sealer(encrypt), ByteBuffer.wrap(bad));
            int at = bit / 8;
            Reason expected = at < 4 ? Reason.UNKNOWN_KEY_ID
                    : at == 4 && bit % 8 == 7 ? Reason.REPLAY // sign bit: negative seq
                    : Reason.BAD_TAG;
            assertEquals(expected, r, "bit " + bit);
        }
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_flippedBitInSeqBodyOrTag_isRejectedAsBadTag(boolean encrypt) {
        for (int at : new int[] {11, 12 + 10, 12 + 32 + 15}) { // seq, body, tag
            ByteBuffer wire = seal(sealer(encrypt), 1, body(32));
            wire.put(at, (byte) (wire.get(at) ^ 0x10));
            assertEquals(Reason.BAD_TAG, refusal(sealer(encrypt), wire), "byte " + at);
        }
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_wrongKey_isRejected(boolean encrypt) {
        ByteBuffer wire = seal(sealer(encrypt), 1, body(50));
        DatagramSealer other = new DatagramSealer(key(1), SALT, KEY_ID, encrypt);
        assertEquals(Reason.BAD_TAG, refusal(other, wire));
    }

    @Test
    void open_wrongSalt_isRejected() {
        ByteBuffer wire = seal(sealer(true), 1, body(50));
        DatagramSealer other = new DatagramSealer(key(0), new byte[] {1, 2, 3, 5}, KEY_ID, true);
        assertEquals(Reason.BAD_TAG, refusal(other, wire));
    }

    @Test
    void open_otherMode_isRejected() {
        ByteBuffer wire = seal(sealer(true), 1, body(50));
        assertEquals(Reason.BAD_TAG, refusal(sealer(false), wire));
    }

    @Test
    void open_keyIdMismatch_isRejected() {
        ByteBuffer wire = seal(new DatagramSealer(key(0), SALT, 99, true), 1, body(50));
        assertEquals(Reason.UNKNOWN_KEY_ID, refusal(sealer(true), wire));
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_truncatedDatagram_isRejected(boolean encrypt) throws Exception {
        ByteBuffer wire = seal(sealer(encrypt), 1, body(50));
        assertEquals(Reason.BAD_TAG, refusal(sealer(encrypt), wire.duplicate().limit(wire.limit() - 1)));
        assertEquals(Reason.TOO_SHORT, refusal(sealer(encrypt), wire.duplicate().limit(27)));
        assertEquals(Reason.TOO_SHORT, refusal(sealer(encrypt), ByteBuffer.allocate(0)));
        DatagramAuthException e = assertThrows(DatagramAuthException.class,
                () -> DatagramSealer.peekKeyId(ByteBuffer.allocate(27)));
        assertTrue(e.getMessage().contains("27"), e.getMessage());
        assertThrows(DatagramAuthException.class, () -> DatagramSealer.peekSeq(ByteBuffer.allocate(5)));
    }

    @ParameterizedTest(name = "encrypt={0}")
    @ValueSource(booleans = {true, false})
    void open_replayedDatagram_isRejected(boolean encrypt) throws Exception {
        DatagramSealer rx = sealer(encrypt);
        ByteBuffer wire = seal(sealer(encrypt), 42, body(10));
        rx.open(wire.duplicate(), ByteBuffer.allocate(10));
        assertEquals(Reason.REPLAY, refusal(rx, wire));
    }

    @Test
    void open_outOfOrderWithinWindow_isAccepted() throws Exception {
        DatagramSealer tx = sealer(true);
        ByteBuffer d1 = seal(tx, 1, body(10));
        ByteBuffer d2 = seal(tx, 2, body(10));
        ByteBuffer d3 = seal(tx, 3, body(10));
        DatagramSealer rx = sealer(true);
        assertEquals(3, rx.open(d3, ByteBuffer.allocate(10)));
        assertEquals(1, rx.open(d1, ByteBuffer.allocate(10)));
        assertEquals(2, rx.open(d2, ByteBuffer.allocate(10)));
    }

    @Test
    void open_forgedDatagram_doesNotAdvanceReplayWindow() throws Exception {
        ByteBuffer good = seal(sealer(true), 1, body(10));
        ByteBuffer forged = seal(new DatagramSealer(key(9), SALT, KEY_ID, true), 1_000_000, body(10));
        DatagramSealer rx = sealer(true);
        assertEquals(Reason.BAD_TAG, refusal(rx, forged));
        assertEquals(-1, rx.highestOpenedSeq());
        assertEquals(1, rx.open(good, ByteBuffer.allocate(10)));
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void verify_authOnly_narrowsBufferToBodyWithoutCopy(boolean direct) throws Exception {
        byte[] body = body(1400);
        ByteBuffer wire = buffer(2000, direct).position(100);
        sealer(false).seal(5, ByteBuffer.wrap(body), wire);
        wire.limit(wire.position()).position(100);
        assertEquals(5, sealer(false).verify(wire));
        assertEquals(112, wire.position());
        assertEquals(112 + 1400, wire.limit());
        assertArrayEquals(body, bytes(wire));
    }

    @Test
    void verify_tamperedOrEncrypting_isRejected() {
        ByteBuffer wire = seal(sealer(false), 5, body(20));
        wire.put(20, (byte) (wire.get(20) ^ 1));
        DatagramAuthException e = assertThrows(DatagramAuthException.class, () -> sealer(false).verify(wire));
        assertEquals(Reason.BAD_TAG, e.reason());
        assertEquals(0, wire.position());
        assertEquals(48, wire.limit());
        assertThrows(IllegalStateException.class, () -> sealer(true).verify(wire));
    }

    @Test
    void seal_reusedOrSmallerSeq_throws() {
        DatagramSealer tx = sealer(true);
        seal(tx, 10, body(5));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> seal(tx, 10, body(5)));
        assertTrue(e.getMessage().contains("10"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> seal(tx, 3, body(5)));
        seal(tx, 11, body(5));
    }

    @Test
    void seal_negativeSeqOrSmallOut_throws() {
        DatagramSealer tx = sealer(true);
        assertThrows(IllegalArgumentException.class, () -> tx.seal(-1, ByteBuffer.allocate(1), ByteBuffer.allocate(64)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> tx.seal(0, ByteBuffer.allocate(10), ByteBuffer.allocate(37)));
        assertTrue(e.getMessage().contains("38"), e.getMessage());
        assertEquals(-1, tx.lastSealedSeq(), "refused seal burns no sequence number");
    }

    @Test
    void constructor_badKeyOrSaltLength_throws() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatagramSealer(new byte[16], SALT, 1, true));
        assertTrue(e.getMessage().contains("16"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DatagramSealer(key(0), new byte[12], 1, true));
        assertThrows(IllegalArgumentException.class, () -> new DatagramSealer(null, SALT, 1, true));
    }
}
