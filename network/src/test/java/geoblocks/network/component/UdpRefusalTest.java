package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import geoblocks.network.udp.DatagramSealer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;

/**
 * Datagrams a running node must refuse, from a raw DatagramSocket (garbage, too short, unknown key
 * id) and from a hand-written peer holding real session keys (replayed, tampered, forged source,
 * undecodable): each is counted and not delivered, and the node's real peer still gets datagrams
 * through afterwards.
 */
class UdpRefusalTest {
    static final String SECRET = "udp-refusal-test-secret-42";
    static final int CODEC_ID = 42;
    static Pair.Side node;
    static Pair.Side peer;
    static RawUdpPeer raw;
    static final AtomicLong seq = new AtomicLong(1);

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings auth = NetworkSettings.from(ConfigFactory.load()).withSecurity("auth");
        node = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, auth);
        peer = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, auth);
        Pair.start(List.of(node, peer));
        // authenticate node and peer over TCP first: a datagram sent in the first instants of a
        // new session can overtake the receiver's key installation (see realPeerStillGetsThrough)
        exchangeTcp(peer, node);
        exchangeTcp(node, peer);
        raw = new RawUdpPeer();
        node.send(udp(node.self, raw.self, 1, new byte[] {1})); // makes the node dial the raw peer
        raw.acceptSession(node.self, SECRET);
        assertEquals(1, decode(raw.receive()).seq, "the datagram that waited for the session");
    }

    @AfterAll
    static void stop() throws Exception {
        raw.close();
        Kompics.shutdown();
    }

    @BeforeEach
    void nothingPending() {
        node.received.clear();
    }

    /**
     * After every refusal: a legitimate datagram from the node's real peer still arrives. (Over a
     * session set up in start(): the very first datagrams of a new session can arrive before the
     * receiver has processed the sender's PROOF and installed its key, and are then dropped as
     * "unknown key id"; UDP callers retransmit, but a test must not depend on winning that race.)
     */
    @AfterEach
    void realPeerStillGetsThrough() throws Exception {
        long n = 1_000 + seq.getAndIncrement();
        peer.send(udp(peer.self, node.self, n, new byte[100]));
        TestMsg m = awaitMessage(node, n);
        assertNotNull(m, "datagram " + n + " from the real peer");
        assertEquals(peer.self, m.getHeader().source());
    }

    private static void exchangeTcp(Pair.Side from, Pair.Side to) throws InterruptedException {
        long n = seq.getAndIncrement();
        from.send(new TestMsg(new NetHeader(from.self, to.self, Transport.TCP), n, new byte[1]));
        assertNotNull(awaitMessage(to, n), "TCP message " + n + " to " + to.self);
    }

    static TestMsg udp(NetAddress from, NetAddress to, long n, byte[] payload) {
        return new TestMsg(new NetHeader(from, to, Transport.UDP), n, payload);
    }

    static TestMsg decode(byte[] body) throws Exception {
        assertEquals(CODEC_ID, body[0] & 0xFF);
        return TestMsg.CODEC.decode(ByteBuffer.wrap(body, 1, body.length - 1));
    }

    private static TestMsg awaitMessage(Pair.Side at, long n) throws InterruptedException {
        return at.await(n);
    }

    private static void sendRaw(byte[] datagram) throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            s.send(new DatagramPacket(datagram, datagram.length, node.self.asSocket()));
        }
    }

    /** Waits until the counter rose by one (the refusal was processed), then checks nothing arrived. */
    private static void assertRefused(LongSupplier counter, long before) throws InterruptedException {
        long now = RawPeer.awaitCount(counter, before + 1);
        assertEquals(before + 1, now, "counted once");
        assertTrue(node.received.isEmpty(), "nothing delivered: " + node.received);
    }

    @Test
    void garbage_isCountedUnauthenticated_andNotDelivered() throws Exception {
        long before = WireStats.unauthenticatedCount();
        byte[] garbage = new byte[200];
        new Random(7).nextBytes(garbage);
        sendRaw(garbage);
        assertRefused(WireStats::unauthenticatedCount, before);
    }

    @Test
    void datagramShorterThanTheHeaderAndTag_isCountedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        sendRaw(new byte[DatagramSealer.OVERHEAD - 1]);
        assertRefused(WireStats::unauthenticatedCount, before);
    }

    @Test
    void emptyDatagram_isCountedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        sendRaw(new byte[0]);
        assertRefused(WireStats::unauthenticatedCount, before);
    }

    @Test
    void randomKeyId_isCountedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        ByteBuffer d = ByteBuffer.allocate(DatagramSealer.OVERHEAD + 40);
        d.putInt(0x5EED_1D00).putLong(0);
        sendRaw(d.array());
        assertRefused(WireStats::unauthenticatedCount, before);
    }

    @Test
    void nodeDatagram_opensWithTheKeysTheRawPeerDerived() throws Exception {
        node.send(udp(node.self, raw.self, 42, new byte[] {4, 2}));
        TestMsg m = decode(raw.receive());
        assertEquals(42, m.seq);
        assertEquals(node.self, m.getHeader().source());
        assertArrayEquals(new byte[] {4, 2}, m.payload);
    }

    @Test
    void replayedDatagram_isDeliveredOnce_andTheCopyCountedUnauthenticated() throws Exception {
        byte[] d = raw.seal(CODEC_ID, udp(raw.self, node.self, 500, new byte[] {5}));
        raw.sendTo(node.self, d);
        assertNotNull(awaitMessage(node, 500), "the original is delivered");
        long before = WireStats.unauthenticatedCount();
        raw.sendTo(node.self, d);
        assertRefused(WireStats::unauthenticatedCount, before);
    }

    @Test
    void tamperedDatagram_isRefused_andDoesNotBurnItsSequenceNumber() throws Exception {
        byte[] d = raw.seal(CODEC_ID, udp(raw.self, node.self, 501, new byte[] {5}));
        byte[] tampered = d.clone();
        tampered[DatagramSealer.HEADER_BYTES + 3] ^= 1;
        long before = WireStats.unauthenticatedCount();
        raw.sendTo(node.self, tampered);
        assertRefused(WireStats::unauthenticatedCount, before);
        raw.sendTo(node.self, d);
        assertNotNull(awaitMessage(node, 501), "the genuine datagram with that sequence number still opens");
    }

    @Test
    void sealedDatagramClaimingAnotherSource_isCountedMalformed() throws Exception {
        long before = WireStats.malformedCount();
        raw.sendTo(node.self, raw.seal(CODEC_ID, udp(peer.self, node.self, 502, new byte[] {5})));
        assertRefused(WireStats::malformedCount, before);
    }

    @Test
    void sealedDatagramWithUnknownCodec_isCountedMalformed() throws Exception {
        long before = WireStats.malformedCount();
        raw.sendTo(node.self, raw.seal(7, udp(raw.self, node.self, 503, new byte[] {5})));
        assertRefused(WireStats::malformedCount, before);
    }

    @Test
    void oversizeDatagramBeforeTheSession_isRefusedAtSend_andTheSessionSurvives() throws Exception {
        try (RawUdpPeer fresh = new RawUdpPeer()) {
            node.control.clear();
            node.send(udp(node.self, fresh.self, 600, new byte[70_000]));
            node.send(udp(node.self, fresh.self, 601, new byte[] {6}));
            fresh.acceptSession(node.self, SECRET);

            NetworkException e = LoopbackNetworkTest.waitFor(node, NetworkException.class);
            assertNotNull(e, "the sender learns the datagram was too large");
            assertTrue(e.message.contains("does not fit in a datagram"), e.message);
            assertEquals(601, decode(fresh.receive()).seq, "the datagram queued behind it is sent");

            node.send(new TestMsg(new NetHeader(node.self, fresh.self, Transport.TCP), 602, new byte[] {6}));
            assertEquals(602, fresh.tcp.readMessage(CODEC_ID).seq, "the TCP session is still up");
        }
    }
}
