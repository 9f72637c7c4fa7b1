package geoblocks.blockstore.wire;

import static geoblocks.blockstore.wire.WireTesting.V4;
import static geoblocks.blockstore.wire.WireTesting.V6;
import static geoblocks.blockstore.wire.WireTesting.decode;
import static geoblocks.blockstore.wire.WireTesting.decodeOrMalformed;
import static geoblocks.blockstore.wire.WireTesting.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.DiskSpace;
import geoblocks.blockstore.core.RoundTrip;
import geoblocks.blockstore.core.RttRow;
import geoblocks.blockstore.core.placement.NodeLoad;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetHeader;
import geoblocks.net.VersionRange;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RttProbeCodecTest {
    private static final RttProbe.Codec CODEC = RttProbe.CODEC;

    private static List<RttProbe> samples() {
        return List.of(new RttProbe(V4, false, 1, 123_456_789L), new RttProbe(V4, true, Long.MAX_VALUE, Long.MIN_VALUE),
                new RttProbe(V6, false, 0, -1), new RttProbe(V6, true, -7, 0));
    }

    @Test
    void roundTrip_pingsAndPongs_equalOriginalAndSizeMatches() throws MalformedMessageException {
        for (RttProbe p : samples()) {
            byte[] wire = encode(CODEC, p);
            assertEquals(Wire.headerSize(p.getHeader()) + 17, wire.length);
            assertEquals(wire.length, p.wireSize());
            ByteBuffer in = ByteBuffer.wrap(wire);
            RttProbe back = CODEC.decode(in);
            assertEquals(0, in.remaining());
            assertEquals(p.getHeader(), back.getHeader());
            assertEquals(p.isPong(), back.isPong());
            assertEquals(p.seq(), back.seq());
            assertEquals(p.sentNanos(), back.sentNanos());
        }
    }

    @Test
    void echo_swapsAddressesKeepsSeqAndTime() {
        RttProbe ping = new RttProbe(V4, false, 42, 99);
        RttProbe pong = ping.echo();
        assertTrue(pong.isPong());
        assertFalse(ping.isPong());
        assertEquals(new NetHeader(V4.destination(), V4.source(), V4.protocol()), pong.getHeader());
        assertEquals(42, pong.seq());
        assertEquals(99, pong.sentNanos());
    }

    @Test
    void decode_everyStrictTruncation_throwsMalformed() {
        for (RttProbe p : samples()) {
            byte[] wire = encode(CODEC, p);
            for (int len = 0; len < wire.length; len++) {
                int cut = len;
                assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, cut), "cut to " + cut);
            }
        }
    }

    @Test
    void decode_pongFlagAboveOne_throwsMalformed() {
        byte[] wire = encode(CODEC, samples().get(0));
        int at = Wire.headerSize(V4);
        for (int v : new int[] {2, 0x80, 0xff}) {
            byte[] bad = wire.clone();
            bad[at] = (byte) v;
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, bad, bad.length));
            assertTrue(e.getMessage().contains("0x" + Integer.toHexString(v)), e.getMessage());
        }
    }

    @Test
    void decode_randomAndMutatedBytes_onlyMalformed() {
        Random r = new Random(77);
        byte[] valid = encode(CODEC, samples().get(0));
        for (int i = 0; i < 3000; i++) {
            byte[] junk = new byte[r.nextInt(80)];
            r.nextBytes(junk);
            decodeOrMalformed(CODEC, junk);
            byte[] bad = valid.clone();
            bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            decodeOrMalformed(CODEC, bad);
        }
    }

    @Test
    void load_roundTrips_andANoLoadProbeKeepsItsSize() throws MalformedMessageException {
        NodeLoad load = new NodeLoad(
                new DiskSpace(Long.MAX_VALUE, 5L << 30, 256L << 20), 123_456_789);
        for (RttProbe p : List.of(new RttProbe(V4, false, 3, 9, load), new RttProbe(V6, false, 4, 8).echo(load))) {
            byte[] wire = encode(CODEC, p);
            assertEquals(Wire.headerSize(p.getHeader()) + 17 + 32, wire.length);
            assertEquals(wire.length, p.wireSize());
            ByteBuffer in = ByteBuffer.wrap(wire);
            RttProbe back = CODEC.decode(in);
            assertEquals(0, in.remaining());
            assertEquals(load, back.load());
            assertEquals(p.isPong(), back.isPong());
        }
        assertEquals(null, CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, true, 1, 2)))).load());
    }

    @Test
    void load_truncatedOrNegative_throwsMalformed() {
        byte[] wire = encode(CODEC, new RttProbe(V4, false, 3, 9, NodeLoad.UNKNOWN));
        int end = Wire.headerSize(V4) + 17;
        for (int len = end + 1; len < wire.length; len++) {
            int cut = len;
            assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, cut), "cut to " + cut);
        }
        byte[] negative = wire.clone();
        ByteBuffer.wrap(negative).putLong(end + 8, -1); // disk free
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> decode(CODEC, negative, negative.length));
        assertTrue(e.getMessage().contains("free -1"), e.getMessage());
    }

    @Test
    void fitted_dropsTheRow_onlyWhenTheDatagramWouldExceed1200Bytes() {
        NodeLoad load = NodeLoad.UNKNOWN;
        RttProbe small = new RttProbe(V4, false, 3, 9, load, ROW);
        assertTrue(small.fitted() == small, "an ordinary row fits");
        Map<String, Long> big = new TreeMap<>();
        for (int i = 0; i < RttRow.MAX_PEERS; i++) {
            big.put(String.format("%02d", i) + "x".repeat(RttRow.MAX_ID_BYTES - 2), 1000L + i);
        }
        RttProbe full = new RttProbe(V6, false, 3, 9, load, new RttRow(big));
        assertTrue(full.wireSize() + Wire.DATAGRAM_OVERHEAD > RttProbe.MAX_DATAGRAM, "the full row is too big");
        RttProbe fitted = full.fitted();
        assertEquals(null, fitted.row());
        assertEquals(load, fitted.load());
        assertEquals(full.getHeader(), fitted.getHeader());
        assertTrue(fitted.wireSize() + Wire.DATAGRAM_OVERHEAD <= RttProbe.MAX_DATAGRAM);
    }

    private static final RttRow ROW = new RttRow(Map.of("dublin", 252_000L, "mumbai", 160_500L,
            "saopaulo", RttRow.DOWN, "a-" + "x".repeat(30), RttRow.MAX_MICROS));

    @Test
    void row_roundTripsInPingsAndPongs_andSizeMatches() throws MalformedMessageException {
        NodeLoad load = NodeLoad.UNKNOWN;
        for (RttProbe p : List.of(new RttProbe(V4, false, 3, 9, load, ROW), new RttProbe(V6, false, 4, 8).echo(load, ROW),
                new RttProbe(V4, true, 5, 7, load, new RttRow(Map.of())))) {
            byte[] wire = encode(CODEC, p);
            assertEquals(wire.length, p.wireSize());
            ByteBuffer in = ByteBuffer.wrap(wire);
            RttProbe back = CODEC.decode(in);
            assertEquals(0, in.remaining());
            assertEquals(p.row(), back.row());
            assertEquals(load, back.load());
            assertEquals(p.isPong(), back.isPong());
        }
        assertEquals(Wire.headerSize(V4) + 17 + 32 + 1 + (1 + 6 + 4) * 2 + (1 + 8 + 4) + (1 + 32 + 4),
                new RttProbe(V4, false, 3, 9, load, ROW).wireSize());
    }

    @Test
    void olderProbes_withoutARow_stillDecode() throws MalformedMessageException {
        NodeLoad load = new NodeLoad(new DiskSpace(100, 50, 10), 7);
        RttProbe withLoad = CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, false, 3, 9, load))));
        assertEquals(load, withLoad.load());
        assertNull(withLoad.row());
        RttProbe bare = CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, true, 3, 9))));
        assertNull(bare.load());
        assertNull(bare.row());
    }

    @Test
    void row_withoutALoad_isRefusedBySender() {
        assertThrows(IllegalArgumentException.class, () -> new RttProbe(V4, false, 1, 2, null, ROW));
    }

    @Test
    void row_truncated_throwsMalformed() {
        byte[] wire = encode(CODEC, new RttProbe(V4, false, 3, 9, NodeLoad.UNKNOWN, ROW));
        int end = Wire.headerSize(V4) + 17 + 32;
        for (int len = end + 1; len < wire.length; len++) {
            int cut = len;
            assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, cut), "cut to " + cut);
        }
    }

    @Test
    void row_malformed_isRefusedWithTheOffendingValue() {
        byte[] wire = encode(CODEC, new RttProbe(V4, false, 3, 9, NodeLoad.UNKNOWN, new RttRow(Map.of("dublin", 1L))));
        int at = Wire.headerSize(V4) + 17 + 32;
        assertMalformed(set(wire, at, RttRow.MAX_PEERS + 1), "count 33");
        assertMalformed(set(wire, at + 1, 0), "length 0");
        assertMalformed(set(wire, at + 1, 33), "length 33");
        assertMalformed(set(wire, at + 2, 'D'), "'Dublin'");
        assertMalformed(set(wire, at + 2, 0xC3), "'?ublin'");
        byte[] twice = encode(CODEC, new RttProbe(V4, false, 3, 9, NodeLoad.UNKNOWN,
                new RttRow(Map.of("dublin", 1L, "dublix", 2L))));
        twice[at + 1 + 11 + 6] = 'n'; // second id, last letter: dublix -> dublin
        assertMalformed(twice, "'dublin' twice");
    }

    @Test
    void row_randomMutations_onlyMalformed() {
        Random r = new Random(78);
        byte[] valid = encode(CODEC, new RttProbe(V4, false, 3, 9, NodeLoad.UNKNOWN, ROW));
        for (int i = 0; i < 3000; i++) {
            byte[] bad = valid.clone();
            bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            decodeOrMalformed(CODEC, bad);
        }
    }

    private static byte[] set(byte[] wire, int at, int value) {
        byte[] b = wire.clone();
        b[at] = (byte) value;
        return b;
    }

    private static void assertMalformed(byte[] wire, String expected) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, wire.length));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /** An RTT ping and pong of version 1 (0.2.x) as they go on the wire, byte for byte: kind 0x00 and 0x01. */
    @Test
    void pingAndPong_goldenBytes() throws MalformedMessageException {
        RttProbe ping = new RttProbe(V4, false, 1, 123_456_789L);
        String hex = HexFormat.of().formatHex(encode(CODEC, ping));
        assertEquals(GOLDEN_PING, hex);
        RttProbe back = CODEC.decode(ByteBuffer.wrap(HexFormat.of().parseHex(GOLDEN_PING)));
        assertEquals(123_456_789L, back.sentNanos());
        assertEquals(GOLDEN_PONG, HexFormat.of().formatHex(encode(CODEC, new RttProbe(V4, true, 1, 123_456_789L))));
    }

    private static final String GOLDEN_PING = "047f000001b26e040a01020300010100000000000000000100000000075bcd15";
    private static final String GOLDEN_PONG = "047f000001b26e040a01020300010101000000000000000100000000075bcd15";

    /** Where the kind byte's two hex digits start. */
    private static final int K = 2 * Wire.headerSize(V4);

    /** Version 2: the kind byte carries the version (0x20 ping, 0x21 pong); everything after it is version 1's. */
    @Test
    void version2_pingAndPong_goldenBytes_andThePongAnswersAtThePingsVersion() throws MalformedMessageException {
        RttProbe ping = new RttProbe(V4, false, 1, 123_456_789L).at(2);
        String hex = HexFormat.of().formatHex(encode(CODEC, ping));
        assertEquals(GOLDEN_PING.substring(0, K) + "20" + GOLDEN_PING.substring(K + 2), hex);
        RttProbe back = CODEC.decode(ByteBuffer.wrap(HexFormat.of().parseHex(hex)));
        assertEquals(2, back.wireVersion());
        assertEquals(false, back.isPong());
        RttProbe pong = back.echo();
        assertEquals(2, pong.wireVersion(), "a pong goes at its ping's version, which the pinger reads");
        assertEquals(GOLDEN_PONG.substring(0, K) + "21" + GOLDEN_PONG.substring(K + 2),
                HexFormat.of().formatHex(encode(CODEC, new RttProbe(V4, true, 1, 123_456_789L).at(2))));
        assertEquals(1, CODEC.decode(ByteBuffer.wrap(HexFormat.of().parseHex(GOLDEN_PING))).wireVersion());
        assertEquals(new VersionRange(1, 2), CODEC.versions());
        assertThrows(IllegalArgumentException.class, () -> ping.at(3));
    }

    /** Version 2 ends with extensions framed by their length: a node skips those it does not know. */
    @Test
    void version2_unknownExtensions_areSkipped_andACutOneIsMalformed() throws MalformedMessageException {
        RttRow row = new RttRow(new TreeMap<>(Map.of("dublin", 1234L)));
        RttProbe p = new RttProbe(V4, false, 7, 99L, new NodeLoad(new DiskSpace(100, 50, 10), 5), row).at(2);
        byte[] wire = encode(CODEC, p);
        byte[] ext = HexFormat.of().parseHex("07" + "03" + "aabbcc" + "fe" + "00");
        byte[] longer = Arrays.copyOf(wire, wire.length + ext.length);
        System.arraycopy(ext, 0, longer, wire.length, ext.length);
        RttProbe back = decode(CODEC, longer, longer.length);
        assertEquals(row, back.row());
        assertEquals(7, back.seq());
        assertEquals(2, back.wireVersion());
        assertMalformed(Arrays.copyOf(longer, wire.length + 3), "RTT probe extension");
        assertMalformed(Arrays.copyOf(longer, wire.length + 1), "RTT probe extension length");
    }

    /** A version this node does not read (kind 0x30: version 3) is refused, naming the byte. */
    @Test
    void aLaterVersionsKind_isRefusedNamingIt() {
        byte[] wire = encode(CODEC, new RttProbe(V4, false, 1, 2L).at(2));
        wire[Wire.headerSize(V4)] = 0x30;
        assertMalformed(wire, "kind byte 0x30");
    }

    private static final NodeLoad LOAD = new NodeLoad(new DiskSpace(100, 50, 10), 5);
    private static final RttRow ONE = new RttRow(new TreeMap<>(Map.of("dublin", 1234L)));

    /** A version 2 ping from a node with a load and a row, as the network delivers it: read at {@code readAt}. */
    private static RttProbe deliveredPing(long sentNanos, long readAt) throws MalformedMessageException {
        byte[] wire = encode(CODEC, new RttProbe(V4, false, 7, sentNanos, LOAD, ONE).at(2));
        return CODEC.decode(ByteBuffer.wrap(wire)).stampReceived(readAt);
    }

    /** Extension 1, the hold: type 0x01, length 0x08, the nanoseconds (12,345 = 0x3039), after the row. */
    @Test
    void hold_goldenBytes_afterTheRow_andVersion2sBytesBeforeIt() throws MalformedMessageException {
        RttProbe pong = deliveredPing(99, 1_000_000).echo(LOAD, ONE).stampSent(1_000_000 + 12_345);
        assertEquals(12_345, pong.holdNanos());
        String hex = HexFormat.of().formatHex(encode(CODEC, pong));
        String without = HexFormat.of().formatHex(encode(CODEC, new RttProbe(V4, false, 7, 99, LOAD, ONE).echo(LOAD, ONE)
                .at(2)));
        assertEquals(without + "01" + "08" + "0000000000003039", hex, "version 2's bytes, then the extension");
        assertEquals(GOLDEN_HOLD_PONG, hex);
        assertEquals(hex.length() / 2, pong.wireSize());
        RttProbe back = CODEC.decode(ByteBuffer.wrap(HexFormat.of().parseHex(GOLDEN_HOLD_PONG)));
        assertEquals(12_345, back.holdNanos());
        assertEquals(ONE, back.row());
        assertEquals(LOAD, back.load());
        assertTrue(back.isPong());
        assertEquals(99, back.sentNanos());
    }

    /** Header (b to a, UDP) | 0x21 | seq 7 | sent 99 | load 100, 50, 10, 5 | row: dublin 1,234 µs | 01 08 12,345. */
    private static final String GOLDEN_HOLD_PONG = "040a0102030001047f000001b26e01" + "21" + "0000000000000007" + "0000000000000063"
            + "0000000000000064" + "0000000000000032" + "000000000000000a" + "0000000000000005" + "01" + "06" + "6475626c696e"
            + "000004d2" + "01" + "08" + "0000000000003039";

    /**
     * A node that knows no hold (0.3.0's version 2) skips it as an unknown extension; this build reads a
     * 0.3.0 pong (no extension) as saying nothing.
     */
    @Test
    void hold_absentFromAnOlderPong_saysNothing() throws MalformedMessageException {
        RttProbe older = CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, true, 7, 99, LOAD, ONE).at(2))));
        assertEquals(-1, older.holdNanos());
        assertEquals(-1, CODEC.decode(ByteBuffer.wrap(HexFormat.of().parseHex(GOLDEN_PONG))).holdNanos());
    }

    @Test
    void hold_onlyOnAStampedVersion2PingsPongWithARow() throws MalformedMessageException {
        assertEquals(0, deliveredPing(1, 2).echo(LOAD, ONE).holdNanos(), "filled in when sealed");
        RttProbe unstamped = CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, false, 7, 1, LOAD, ONE).at(2))));
        assertEquals(-1, unstamped.echo(LOAD, ONE).holdNanos(), "not read by the network: no hold to tell");
        assertEquals(-1, unstamped.echo(LOAD, ONE).stampSent(5).holdNanos());
        assertEquals(-1, deliveredPing(1, 2).echo(LOAD, null).holdNanos(), "no row: extensions cannot ride");
        assertEquals(-1, deliveredPing(1, 2).echo(LOAD, ONE).at(1).holdNanos(), "version 1 has no extensions");
        RttProbe v1 = CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, false, 7, 1, LOAD, ONE)))).stampReceived(2);
        RttProbe v1Pong = v1.echo(LOAD, ONE).stampSent(10);
        assertEquals(-1, v1Pong.holdNanos(), "a version 1 pinger gets version 1's bytes");
        assertEquals(HexFormat.of().formatHex(encode(CODEC, new RttProbe(V4, false, 7, 1, LOAD, ONE).echo(LOAD, ONE))),
                HexFormat.of().formatHex(encode(CODEC, v1Pong)));
    }

    @Test
    void hold_fittedWithoutItsRow_isDropped() throws MalformedMessageException {
        Map<String, Long> big = new TreeMap<>();
        for (int i = 0; i < RttRow.MAX_PEERS; i++) {
            big.put(String.format("%02d", i) + "x".repeat(RttRow.MAX_ID_BYTES - 2), 1000L + i);
        }
        RttProbe pong = deliveredPing(1, 2).echo(LOAD, new RttRow(big)).fitted();
        assertNull(pong.row());
        assertEquals(-1, pong.holdNanos());
        assertEquals(pong.wireSize(), encode(CODEC, pong.stampSent(50)).length);
    }

    @Test
    void stampSent_setsAPingsSendTime_keepsItsSize() {
        RttProbe ping = new RttProbe(V4, false, 7, 1, LOAD, ONE).at(2);
        RttProbe sealed = ping.stampSent(777);
        assertEquals(777, sealed.sentNanos());
        assertEquals(ping.wireSize(), sealed.wireSize());
        assertEquals(RttProbe.NOT_STAMPED, ping.receivedNanos());
        assertEquals(42, ping.stampReceived(42).receivedNanos());
        RttProbe pong = new RttProbe(V4, true, 7, 1, LOAD, ONE);
        assertTrue(pong.stampSent(5) == pong, "a pong keeps its ping's send time");
    }

    /**
     * NTP's delay: the pinger's two stamps (sealed at 1,000 ns, read at 71,000 ns) less the answering node's
     * hold (20,000 ns on its own clock, which reads 5 s ahead): 50,000 ns, whatever the handler's time.
     */
    @Test
    void roundTrip_isThePingersStampsLessThePeersHold() throws MalformedMessageException {
        RttProbe sealed = new RttProbe(V4, false, 7, 0, LOAD, ONE).at(2).stampSent(1_000);
        RttProbe atPeer = CODEC.decode(ByteBuffer.wrap(encode(CODEC, sealed))).stampReceived(5_000_000_000L);
        RttProbe pong = atPeer.echo(LOAD, ONE).stampSent(5_000_020_000L);
        RttProbe back = CODEC.decode(ByteBuffer.wrap(encode(CODEC, pong))).stampReceived(71_000);
        assertEquals(50_000, back.roundTripNanos(9_000_000));
        RttProbe unstamped = CODEC.decode(ByteBuffer.wrap(encode(CODEC, pong)));
        assertEquals(9_000_000 - 1_000 - 20_000, unstamped.roundTripNanos(9_000_000), "no read stamp: the handler's time");
        RttProbe v1 = CODEC.decode(ByteBuffer.wrap(encode(CODEC, new RttProbe(V4, true, 7, 1_000)))).stampReceived(71_000);
        assertEquals(70_000, v1.roundTripNanos(9_000_000), "an older peer's pong: nothing to take off");
    }

    /**
     * Loopback, the pinger's send stamp 0.18 ms late (its sealing quicker than the shortest of its last four) and the
     * peer's hold 0.05 ms long the same way: the stamps say -0.09 ms, which the monitor threw away, so a peer whose
     * answers all came out so was never up. Now 0, a round trip too short to tell (RoundTrip).
     */
    @Test
    void roundTrip_belowZeroByTheStampsErrors_isZero() throws MalformedMessageException {
        RttProbe sealed = new RttProbe(V4, false, 7, 0, LOAD, ONE).at(2).stampSent(180_000);
        RttProbe atPeer = CODEC.decode(ByteBuffer.wrap(encode(CODEC, sealed))).stampReceived(5_000_000_000L);
        RttProbe pong = atPeer.echo(LOAD, ONE).stampSent(5_000_110_000L);
        RttProbe back = CODEC.decode(ByteBuffer.wrap(encode(CODEC, pong))).stampReceived(200_000);
        assertEquals(0, back.roundTripNanos(9_000_000));
        RttProbe stale = CODEC.decode(ByteBuffer.wrap(encode(CODEC, pong))).stampReceived(61_000_000_000L);
        assertEquals(RoundTrip.NONE, stale.roundTripNanos(61_000_000_000L),
                "the echo of a ping a minute old measures nothing");
    }

    @Test
    void hold_malformed_isRefusedWithTheOffendingValue() throws MalformedMessageException {
        byte[] wire = encode(CODEC, deliveredPing(1, 2).echo(LOAD, ONE).stampSent(3));
        int ext = wire.length - 10;
        byte[] negative = wire.clone();
        ByteBuffer.wrap(negative).putLong(ext + 2, -5);
        assertMalformed(negative, "negative, was -5 ns");
        byte[] shortOne = Arrays.copyOf(wire, ext + 2 + 4);
        shortOne[ext + 1] = 4;
        assertMalformed(shortOne, "of 4 bytes, must be 8");
        byte[] twice = Arrays.copyOf(wire, wire.length + 10);
        System.arraycopy(wire, ext, twice, wire.length, 10);
        assertMalformed(twice, "twice");
        for (int len = ext + 1; len < wire.length; len++) {
            int cut = len;
            assertThrows(MalformedMessageException.class, () -> decode(CODEC, wire, cut), "cut to " + cut);
        }
    }

    /**
     * Behind an emulated WAN the probe is delayed before the network: its send stamp would leave that delay out, so an
     * unstamped probe keeps its monitor's send time, and its pong carries no hold (it is taken whole).
     */
    @Test
    void unstamped_keepsTheMonitorsSendTime_andItsPongNoHold() throws MalformedMessageException {
        RttRow row = new RttRow(new TreeMap<>(Map.of("dublin", 1234L)));
        RttProbe ping = new RttProbe(V4, false, 1, 1_000L, NodeLoad.UNKNOWN, row).at(2).unstamped();
        assertEquals(1_000L, ((RttProbe) ping.stampSent(9_000L)).sentNanos(), "the monitor's send time stays");
        RttProbe stampedPing = (RttProbe) new RttProbe(V4, false, 1, 1_000L).stampSent(9_000L);
        assertEquals(9_000L, stampedPing.sentNanos(), "a probe sent straight to the network takes its stamp");
        RttProbe read = ((RttProbe) decode(CODEC, encode(CODEC, ping), encode(CODEC, ping).length)).stampReceived(50_000L);
        RttProbe pong = read.echo(NodeLoad.UNKNOWN, row).unstamped();
        RttProbe sent = (RttProbe) pong.stampSent(80_000L);
        RttProbe back = decode(CODEC, encode(CODEC, sent), encode(CODEC, sent).length);
        assertEquals(encode(CODEC, new RttProbe(V4, true, 1, 1_000L, NodeLoad.UNKNOWN, row).at(2)).length,
                encode(CODEC, sent).length, "no hold extension on the wire");
        assertEquals(100_000L - 1_000L, back.stampReceived(100_000L).roundTripNanos(120_000L), "taken whole");
    }
}
