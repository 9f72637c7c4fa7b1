package geoblocks.ledbat.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.Transport;

/** Round trips, every truncation, bad fields and random bytes. */
class LedbatCodecTest {
    static final NetHeader H = new NetHeader(NetAddress.of("10.0.0.1", 4000), NetAddress.of("10.0.0.2", 5000),
            Transport.UDP);
    static final LedbatCodec C = LedbatCodec.INSTANCE;

    static byte[] encode(LedbatPacket p) {
        ByteBuffer b = ByteBuffer.allocate(C.encodedSize(p));
        C.encode(p, b);
        assertEquals(b.capacity(), b.position(), "encodedSize must be exact");
        return b.array();
    }

    static DataPacket data() {
        byte[] arr = new byte[1500];
        new Random(1).nextBytes(arr);
        return new DataPacket(H, 77, LedbatCodec.MAX_SEQ - 5, -987_654_321L, -9001, true, true, arr, 50, LedbatCodec.MAX_PAYLOAD);
    }

    static AckPacket ack() {
        return new AckPacket(H, 77, 42, 1_000_001, -5_000, 3, 9, new byte[] {1, 2, (byte) 0x80});
    }

    @Test
    void dataPacket_roundTrip_keepsEveryField() throws Exception {
        DataPacket d = data();
        DataPacket back = (DataPacket) C.decode(ByteBuffer.wrap(encode(d)));
        assertEquals(H, back.getHeader());
        assertEquals(77, back.flowId());
        assertEquals(-9001, back.streamId());
        assertEquals(d.seq(), back.seq());
        assertEquals(d.timestampMicros(), back.timestampMicros());
        assertTrue(back.fin());
        assertTrue(back.ackNow());
        assertArrayEquals(d.payload(), back.payload());
        assertEquals(d.wireSize(), encode(d).length);
        assertTrue(d.wireSize() + 1 <= 1500, "a full DATA datagram must stay under 1500 bytes: " + d.wireSize());
        // sealed by GeoNetwork (DatagramSealer.OVERHEAD = 28) plus IPv4 (20) and UDP (8) headers: one 1,500-byte MTU
        assertTrue(1 + d.wireSize() + 28 + 28 <= 1500, "a full sealed DATA packet must fit a 1500-byte MTU: "
                + (1 + d.wireSize() + 56));
    }

    @Test
    void dataPart_roundTripsItsPlaceInTheSegment_andOneOutsideItIsMalformed() throws Exception {
        byte[] arr = new byte[1400];
        new Random(3).nextBytes(arr);
        DataPacket part = new DataPacket(H, 77, 42, 5, 9, true, false, arr, 1000, 400, 1000, 1400);
        byte[] bytes = encode(part);
        assertEquals(LedbatCodec.dataSize(H, 400) + LedbatCodec.PART_FIELDS, bytes.length);
        DataPacket back = (DataPacket) C.decode(ByteBuffer.wrap(bytes));
        assertTrue(back.part());
        assertEquals(1000, back.partOffset());
        assertEquals(1400, back.segmentLength());
        assertArrayEquals(Arrays.copyOfRange(arr, 1000, 1400), back.payload());
        assertTrue(back.fin());
        // the segment length says 1,300: 1,000 + 400 does not fit
        int at = LedbatCodec.dataSize(H, 0) + 2;   // after the length: part offset, then segment length
        bytes[at] = (byte) (1300 >> 8);
        bytes[at + 1] = (byte) 1300;
        assertThrows(MalformedMessageException.class, () -> C.decode(ByteBuffer.wrap(bytes)));
        assertThrows(IllegalArgumentException.class, () -> new DataPacket(H, 1, 0, 0, 1, false, false, arr, 0, 400, 1100, 1400));
    }

    @Test
    void probe_paddedToASize_roundTripsWithThatSize_andItsAckNamesIt() throws Exception {
        ProbePacket p = ProbePacket.ofSize(H, 12345, 1442);
        assertEquals(1442, p.wireSize());
        byte[] bytes = encode(p);
        for (int i = LedbatCodec.probeFixedSize(H); i < bytes.length; i++) {
            assertEquals(0, bytes[i], "padding is zeros at " + i);
        }
        ProbePacket back = (ProbePacket) C.decode(ByteBuffer.wrap(bytes));
        assertEquals(12345, back.probeId());
        assertEquals(1442, back.wireSize());
        assertTrue(back.alone(), "a probe travels in a datagram of its own");
        ProbeAck a = (ProbeAck) C.decode(ByteBuffer.wrap(encode(new ProbeAck(H.reply(), 12345, back.wireSize()))));
        assertEquals(12345, a.probeId());
        assertEquals(1442, a.probeSize());
        assertEquals(H.reply(), a.getHeader());
    }

    @Test
    void probeAck_truncated_orWithFlags_isMalformed() {
        byte[] bytes = encode(new ProbeAck(H, 1, 1300));
        assertThrows(MalformedMessageException.class,
                () -> C.decode(ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length - 1))));
        byte[] flagged = bytes.clone();
        flagged[LedbatCodec.probeFixedSize(H) - 5] = 1;   // the flags byte, after version and type
        assertThrows(MalformedMessageException.class, () -> C.decode(ByteBuffer.wrap(flagged)));
        assertThrows(IllegalArgumentException.class, () -> new ProbePacket(H, 1, -1));
    }

    @Test
    void ackPacket_roundTrip_keepsEveryField() throws Exception {
        AckPacket a = ack();
        AckPacket back = (AckPacket) C.decode(ByteBuffer.wrap(encode(a)));
        assertEquals(77, back.flowId());
        assertEquals(42, back.cumAck());
        assertEquals(1_000_001, back.echoMicros());
        assertEquals(-5_000, back.delayMicros());
        assertEquals(3, back.duplicates());
        assertEquals(9, back.outOfOrder());
        assertArrayEquals(a.sack(), back.sack());
    }

    @Test
    void decode_everyTruncation_rejected() {
        for (LedbatPacket p : new LedbatPacket[] {data(), ack()}) {
            byte[] full = encode(p);
            for (int n = 0; n < full.length; n++) {
                ByteBuffer cut = ByteBuffer.wrap(full, 0, n).slice();
                assertThrows(MalformedMessageException.class, () -> C.decode(cut), "prefix of " + n + " bytes");
            }
        }
    }

    @Test
    void decode_oversizedPayloadLength_rejected() {
        byte[] b = encode(data());
        int lenPos = b.length - LedbatCodec.MAX_PAYLOAD - 2;
        ByteBuffer.wrap(b).putShort(lenPos, (short) (LedbatCodec.MAX_PAYLOAD + 1));
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> C.decode(ByteBuffer.wrap(b)));
        assertTrue(e.getMessage().contains("1401"), e.getMessage());
    }

    @Test
    void decode_unknownVersionTypeOrFlags_rejectedWithValue() {
        int common = Wire.headerSize(H);
        byte[] b = encode(ack());
        b[common] = 9;
        assertTrue(assertThrows(MalformedMessageException.class, () -> C.decode(ByteBuffer.wrap(b)))
                .getMessage().contains("version 9"));
        byte[] t = encode(ack());
        t[common + 1] = 7;
        assertTrue(assertThrows(MalformedMessageException.class, () -> C.decode(ByteBuffer.wrap(t)))
                .getMessage().contains("type 7"));
        byte[] f = encode(data());
        f[common + 2] = (byte) 0x40;
        assertThrows(MalformedMessageException.class, () -> C.decode(ByteBuffer.wrap(f)));
    }

    @Test
    void decode_randomBytes_neverThrowAnythingElse() {
        Random r = new Random(42);
        int decoded = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] junk = new byte[r.nextInt(200)];
            r.nextBytes(junk);
            if (i % 2 == 0 && junk.length > 20) {   // plausible header, random body
                byte[] valid = encode(ack());
                System.arraycopy(valid, 0, junk, 0, Math.min(16, valid.length));
            }
            try {
                assertInstanceOf(LedbatPacket.class, C.decode(ByteBuffer.wrap(junk)));
                decoded++;
            } catch (MalformedMessageException expected) {
                // fine: counted and dropped by the serializer
            }
        }
        assertTrue(decoded < 20_000);
    }

    @Test
    void constructors_rejectBadValues() {
        assertThrows(IllegalArgumentException.class, () -> new DataPacket(H, 1, -1, 0, 1, false, false, new byte[1], 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new DataPacket(H, 1, LedbatCodec.MAX_SEQ + 1, 0, 1, false, false,
                new byte[1], 0, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new DataPacket(H, 1, 0, 0, 1, false, false, new byte[2000], 0, 1401));
        assertThrows(IllegalArgumentException.class, () -> new DataPacket(new NetHeader(H.source(), H.destination(),
                Transport.TCP), 1, 0, 0, 1, false, false, new byte[1], 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new AckPacket(H, 1, 0, 0, 0, 0, 0, new byte[129]));
    }

    /** LEDBAT version 2's DATA and ACK datagrams, byte for byte: a change of layout takes version 3. */
    @Test
    void version2_dataAndAck_goldenBytes() throws Exception {
        DataPacket d = new DataPacket(H, 77, 5, 1_000_000L, 9, false, true, new byte[] {1, 2, 3, 4}, 0, 4);
        assertEquals(GOLDEN_DATA, HexFormat.of().formatHex(encode(d)));
        assertEquals(GOLDEN_ACK, HexFormat.of().formatHex(encode(ack())));
        DataPacket back = (DataPacket) C.decode(ByteBuffer.wrap(HexFormat.of().parseHex(GOLDEN_DATA)));
        assertArrayEquals(new byte[] {1, 2, 3, 4}, back.payload());
        assertEquals(2, LedbatCodec.VERSION);
    }

    private static final String GOLDEN_DATA = "040a0000010fa0040a0000021388000201020000004d00000000000500000000000f424000000009000401020304";
    private static final String GOLDEN_ACK = "040a0000010fa0040a0000021388000202000000004d000000000000002a00000000000f4241ffffffffffffec78000000030000000903010280";
}
