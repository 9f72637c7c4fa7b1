package geoblocks.network.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.ClusterVersion;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.VersionRange;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ControlTest {
    private static final NetAddress V4 = NetAddress.of("10.1.2.3", 47101);
    private static final NetAddress V6 = NetAddress.of("2001:db8::7", 65535);

    private static byte[] seq(int n, int first) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (first + i);
        }
        return b;
    }

    /** The body exactly as Control.write lays it out, checked against Control.size. */
    private static byte[] encode(Control c) {
        ByteBuffer out = ByteBuffer.allocate(Control.size(c) + 8);
        Control.write(c, out);
        assertEquals(Control.size(c), out.position(), "size() matches what write() wrote");
        return Arrays.copyOf(out.array(), out.position());
    }

    private static Control read(byte[] body) throws MalformedMessageException {
        return Control.read(ByteBuffer.wrap(body));
    }

    private static String refusal(byte[] body) {
        return assertThrows(MalformedMessageException.class, () -> read(body)).getMessage();
    }

    @Test
    void hello_ipv4_roundTrips() throws Exception {
        Control.Hello h = (Control.Hello) read(encode(Control.Hello.of(V4, seq(16, 100), new ClusterVersion(0, 3))));
        assertEquals(Control.VERSION, h.version());
        assertEquals(V4, h.address());
        assertArrayEquals(seq(16, 100), h.nonce());
    }

    @Test
    void hello_ipv6_roundTrips() throws Exception {
        Control.Hello h = (Control.Hello) read(encode(Control.Hello.of(V6, seq(16, -8), new ClusterVersion(0, 3))));
        assertEquals(V6, h.address());
        assertArrayEquals(seq(16, -8), h.nonce());
    }

    @Test
    void proof_roundTrips() throws Exception {
        Control.Proof p = (Control.Proof) read(encode(new Control.Proof(seq(32, 200))));
        assertArrayEquals(seq(32, 200), p.mac());
    }

    @Test
    void retireAndRetireAck_roundTripAsOneByte() throws Exception {
        byte[] retire = encode(new Control.Retire());
        byte[] ack = encode(new Control.RetireAck());
        assertArrayEquals(new byte[] {Control.RETIRE}, retire);
        assertArrayEquals(new byte[] {Control.RETIRE_ACK}, ack);
        assertInstanceOf(Control.Retire.class, read(retire));
        assertInstanceOf(Control.RetireAck.class, read(ack));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 99, 255})
    void read_unknownType_namesTheType(int type) {
        String m = refusal(new byte[] {(byte) type});
        assertTrue(m.contains("unknown control frame type " + type), m);
    }

    @Test
    void read_emptyBody_isMalformed() {
        String m = refusal(new byte[0]);
        assertTrue(m.contains("control type"), m);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void read_helloFromBeforeVersionRanges_isRefusedSayingSo(int version) {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        body[1] = (byte) version;
        String m = refusal(body);
        assertTrue(m.contains("hello version " + version + " from a geoblocks build before version ranges"), m);
        assertTrue(m.contains("speaks " + Control.LAYOUT_RANGES + " and later"), m);
    }

    /** The HELLO layout 2, byte for byte: every later version starts alike, so this pins what they all share. */
    @Test
    void hello_layout2_goldenBytes() throws Exception {
        TreeMap<Integer, VersionRange> offered = new TreeMap<>();
        offered.put(100, new VersionRange(3, 4));
        offered.put(110, VersionRange.only(2));
        byte[] body = encode(new Control.Hello(2, V4, seq(16, 0), VersionRange.only(2), offered));
        String hex = HexFormat.of().formatHex(body);
        assertEquals("01" + "02" + "04" + "0a010203" + "b7fd" + "000102030405060708090a0b0c0d0e0f" + "0202" + "02"
                + "640304" + "6e0202", hex);
        Control.Hello h = (Control.Hello) read(body);
        assertEquals(offered, h.protocols());
        assertEquals(VersionRange.only(2), h.transport());
    }

    /**
     * The HELLO layout 3, byte for byte: layout 2's fields, then the sender's release line (0.3) and build. Every
     * later layout starts alike.
     */
    @Test
    void hello_layout3_goldenBytes() throws Exception {
        TreeMap<Integer, VersionRange> offered = new TreeMap<>();
        offered.put(100, new VersionRange(3, 5));
        offered.put(110, VersionRange.only(2));
        byte[] body = encode(new Control.Hello(3, V4, seq(16, 0), VersionRange.only(2), offered,
                new ClusterVersion(0, 3), "0.3.0 (commit 1a2b)"));
        String hex = HexFormat.of().formatHex(body);
        assertEquals("01" + "03" + "04" + "0a010203" + "b7fd" + "000102030405060708090a0b0c0d0e0f" + "0202" + "02"
                + "640305" + "6e0202" + "0003" + "13" + HexFormat.of().formatHex(
                        "0.3.0 (commit 1a2b)".getBytes(StandardCharsets.US_ASCII)), hex);
        Control.Hello h = (Control.Hello) read(body);
        assertEquals(new ClusterVersion(0, 3), h.release());
        assertEquals("0.3.0 (commit 1a2b)", h.build());
        assertEquals(offered, h.protocols());
    }

    /** A layout 2 HELLO (release 0.2.x) names no release: its sender runs 0.2. */
    @Test
    void read_helloOfLayout2_namesNoRelease_andRuns0_2() throws Exception {
        Control.Hello h = (Control.Hello) read(encode(new Control.Hello(2, V4, seq(16, 0), Control.TRANSPORT,
                new TreeMap<>())));
        assertEquals(null, h.release());
        assertEquals("", h.build());
        assertEquals(ClusterVersion.V0_2, h.releaseLine());
    }

    @Test
    void read_helloWithABuildNotPrintable_orTooLong_isRefused() {
        byte[] body = encode(new Control.Hello(3, V4, seq(16, 0), Control.TRANSPORT, new TreeMap<>(),
                new ClusterVersion(0, 3), "ab"));
        body[body.length - 1] = 0x07;
        assertTrue(refusal(body).contains("hello build must be printable ASCII, has byte 7"));
        body[body.length - 3] = (byte) 65;
        assertTrue(refusal(body).contains("hello build length 65 exceeds 64"));
        assertThrows(IllegalArgumentException.class, () -> new Control.Hello(3, V4, seq(16, 0), Control.TRANSPORT,
                new TreeMap<>(), new ClusterVersion(0, 3), "x".repeat(65)));
        assertThrows(IllegalArgumentException.class, () -> new Control.Hello(3, V4, seq(16, 0), Control.TRANSPORT,
                new TreeMap<>()), "layout 3 names a release");
    }

    /** A later layout (5 on) may append fields: this reader takes what it knows and skips the rest. */
    @ParameterizedTest
    @ValueSource(ints = {5, 255})
    void read_helloOfLaterLayout_skipsAppendedFields(int version) throws Exception {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        body[1] = (byte) version;
        byte[] longer = Arrays.copyOf(body, body.length + 5);
        Control.Hello h = (Control.Hello) read(longer);
        assertEquals(version, h.version());
        assertEquals(V4, h.address());
        assertEquals(Control.TRANSPORT, h.transport());
        assertEquals(new ClusterVersion(0, 3), h.release());
    }

    /** Layout 4, a client by access key: layout 3's fields, then the key id; a layout 3 HELLO is unchanged. */
    @Test
    void helloWithAccessKey_roundTrips_andIsLayout4() throws Exception {
        Control.Hello h = new Control.Hello(Control.LAYOUT_KEY, V4, seq(16, 0), Control.TRANSPORT, new TreeMap<>(),
                new ClusterVersion(0, 3), "b", "GBKEY");
        byte[] body = encode(h);
        Control.Hello back = (Control.Hello) read(body);
        assertEquals("GBKEY", back.keyId());
        assertEquals(Control.LAYOUT_KEY, back.version());
        byte[] layout3 = encode(new Control.Hello(Control.VERSION, V4, seq(16, 0), Control.TRANSPORT, new TreeMap<>(),
                new ClusterVersion(0, 3), "b"));
        assertEquals(layout3.length + 1 + "GBKEY".length(), body.length);
        assertArrayEquals(withVersion(layout3, 4), Arrays.copyOf(body, layout3.length),
                "layout 3's bytes, then the key id's length and the id");
        assertEquals("", ((Control.Hello) read(layout3)).keyId());
        assertThrows(IllegalArgumentException.class, () -> new Control.Hello(Control.VERSION, V4, seq(16, 0),
                Control.TRANSPORT, new TreeMap<>(), new ClusterVersion(0, 3), "b", "GBKEY"), "layout 3 names no key");
        assertThrows(IllegalArgumentException.class, () -> new Control.Hello(Control.LAYOUT_KEY, V4, seq(16, 0),
                Control.TRANSPORT, new TreeMap<>(), new ClusterVersion(0, 3), "b", "GB KEY"));
        body[body.length - 2] = 0x07;
        assertThrows(MalformedMessageException.class, () -> read(body));
    }

    private static byte[] withVersion(byte[] body, int version) {
        byte[] b = body.clone();
        b[1] = (byte) version;
        return b;
    }

    @Test
    void read_helloWithRangeUpsideDown_namesIt() {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        body[body.length - 6] = 5; // transport min above its max (2); the release fields (3 bytes) after them
        String m = refusal(body);
        assertTrue(m.contains("hello transport versions: min 5 above max 2"), m);
    }

    @Test
    void read_helloWithoutVersion_isMalformed() {
        String m = refusal(new byte[] {Control.HELLO});
        assertTrue(m.contains("hello version"), m);
    }

    @Test
    void read_helloCutInsideAddress_namesTheAddress() {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        String m = refusal(Arrays.copyOf(body, 2 + 1 + 3)); // type, version, ip length, 3 of 6 bytes
        assertTrue(m.contains("truncated address"), m);
    }

    @Test
    void read_helloWithBadIpLength_namesTheLength() {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        body[2] = 5;
        String m = refusal(body);
        assertTrue(m.contains("ip length must be 4 or 16, was 5"), m);
    }

    @Test
    void read_helloWithShortNonce_namesTheNonceAndItsLength() {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        String m = refusal(Arrays.copyOf(body, body.length - 1 - 3 - 3)); // release, ranges (3 bytes each), a nonce byte cut
        assertTrue(m.contains("truncated hello nonce"), m);
        assertTrue(m.contains("need 16 bytes, have 15"), m);
    }

    @Test
    void read_truncatedProof_namesBothLengths() {
        byte[] body = encode(new Control.Proof(seq(32, 0)));
        String m = refusal(Arrays.copyOf(body, 1 + 31));
        assertTrue(m.contains("truncated proof"), m);
        assertTrue(m.contains("need 32 bytes, have 31"), m);
    }

    @Test
    void read_helloWithTrailingBytes_namesTheCount() {
        byte[] body = encode(Control.Hello.of(V4, seq(16, 0), new ClusterVersion(0, 3)));
        String m = refusal(Arrays.copyOf(body, body.length + 3));
        assertTrue(m.contains("type " + Control.HELLO + " has 3 extra bytes"), m);
    }

    @Test
    void read_proofWithTrailingBytes_isACutSignature_orExtraBytes_namingTheCount() {
        byte[] body = encode(new Control.Proof(seq(32, 0)));
        String m = refusal(Arrays.copyOf(body, body.length + 1));
        assertTrue(m.contains("proof signature") && m.contains("have 1"), m);
        m = refusal(Arrays.copyOf(body, body.length + Control.SIGNATURE_BYTES + 2));
        assertTrue(m.contains("type " + Control.PROOF + " has 2 extra bytes"), m);
    }

    @ParameterizedTest
    @ValueSource(ints = {Control.RETIRE, Control.RETIRE_ACK})
    void read_retireWithTrailingBytes_namesTypeAndCount(int type) {
        String m = refusal(new byte[] {(byte) type, 0, 0});
        assertTrue(m.contains("type " + type + " has 2 extra bytes"), m);
    }

    @Test
    void read_consumesExactlyTheBody() throws Exception {
        ByteBuffer in = ByteBuffer.wrap(encode(new Control.Proof(seq(32, 0))));
        Control.read(in);
        assertFalse(in.hasRemaining());
    }
}
