package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.Wire;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import geoblocks.network.frame.Control;
import geoblocks.network.frame.Frames;
import geoblocks.network.session.Handshake;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * A raw socket attacks a running node in security "auth" (plain frames): every kind of bad input
 * before or during the handshake makes the node close that connection and count it, and the node
 * keeps serving its legitimate peer. A raw peer that knows the secret shows the same socket speaks
 * the protocol well enough to be accepted, so the refusals are refusals of the bad input.
 */
class TcpSessionTest {
    static final String SECRET = "tcp-session-test-secret-42";
    static final int CODEC_ID = 42;
    static Pair.Side node;
    static Pair.Side peer;
    static Pair.Side impatient;
    static final AtomicLong seq = new AtomicLong(1);

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings auth = NetworkSettings.from(ConfigFactory.load()).withSecurity("auth");
        NetworkSettings shortHandshake = new NetworkSettings(auth.implementation(), auth.transport(), 1,
                auth.maxFrameBytes(), "auth", "", "", "", auth.udpBufferBytes(), auth.udpGso(), auth.udpGro(),
                auth.udpQueue(), auth.connectTimeoutMs(), 300, auth.clients());
        node = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, auth);
        peer = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, auth);
        impatient = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, shortHandshake);
        Pair.start(List.of(node, peer, impatient));
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    /** After every attack: the node still exchanges messages with its legitimate peer, both ways. */
    @AfterEach
    void nodeStillServesItsPeer() throws Exception {
        exchange(peer, node);
        exchange(node, peer);
    }

    private static void exchange(Pair.Side from, Pair.Side to) throws InterruptedException {
        long n = seq.getAndIncrement();
        from.send(new TestMsg(new NetHeader(from.self, to.self, Transport.TCP), n, new byte[] {(byte) n}));
        TestMsg m = awaitMessage(to, n);
        assertNotNull(m, "message " + n + " from " + from.self + " to " + to.self);
        assertEquals(from.self, m.getHeader().source());
    }

    private static TestMsg awaitMessage(Pair.Side at, long n) throws InterruptedException {
        return at.await(n);
    }

    private static void assertCounted(LongSupplier counter, long before) throws InterruptedException {
        long now = RawPeer.awaitCount(counter, before + 1);
        assertTrue(now > before, "counter went from " + before + " to " + now);
    }

    private static byte[] fill(int n, int v) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) v);
        return b;
    }

    @Test
    void garbageBytes_closeTheConnection_countedMalformed() throws Exception {
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.write("GET / HTTP/1.1\r\nHost: geoblocks\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::malformedCount, before);
    }

    @Test
    void unknownControlFrame_closesTheConnection_countedMalformed() throws Exception {
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.writeFrame(0, new byte[] {77, 1, 2});
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::malformedCount, before);
    }

    @Test
    void emptyFrame_closesTheConnection_countedMalformed() throws Exception {
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.write(new byte[] {0, 0, 0, 0});
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::malformedCount, before);
    }

    @Test
    void dataFrameBeforeHandshake_closesTheConnection_countedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        NetAddress liar = NetAddress.of("127.0.0.1", 9);
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.writeMessage(CODEC_ID, new TestMsg(new NetHeader(liar, node.self, Transport.TCP), -1, new byte[8]));
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::unauthenticatedCount, before);
        assertTrue(node.received.stream().noneMatch(m -> ((TestMsg) m).seq == -1), "nothing delivered");
    }

    @Test
    void lengthFieldAboveMaxFrame_closesOnTheHeaderAlone_countedMalformed() throws Exception {
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.write(ByteBuffer.allocate(4).putInt(node.settings.maxFrameBytes() + 1).array());
            raw.awaitClosedByNode(); // no body was ever sent: the node refused on the length field
        }
        assertCounted(WireStats::malformedCount, before);
    }

    @Test
    void validHelloThenWrongProof_closesTheConnection_countedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            Control.Hello theirs = raw.readControl(Control.Hello.class);
            assertEquals(node.self, theirs.address(), "the node introduces itself by its listening address");
            raw.writeControl(Control.Hello.of(NetAddress.of("127.0.0.1", 9), fill(16, 7), new ClusterVersion(0, 3)));
            raw.readControl(Control.Proof.class);
            raw.writeControl(new Control.Proof(fill(32, 0)));
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::unauthenticatedCount, before);
    }

    @Test
    void proofBeforeHello_closesTheConnection_countedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.writeControl(new Control.Proof(fill(32, 0)));
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::unauthenticatedCount, before);
    }

    @Test
    void retireBeforeHandshake_closesTheConnection_countedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.writeControl(Control.Hello.of(NetAddress.of("127.0.0.1", 9), fill(16, 7), new ClusterVersion(0, 3)));
            raw.writeControl(new Control.Retire());
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::unauthenticatedCount, before);
    }

    @Test
    void helloClaimingTheNodesOwnAddress_closesTheConnection_countedUnauthenticated() throws Exception {
        long before = WireStats.unauthenticatedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            raw.writeControl(Control.Hello.of(node.self, fill(16, 7), new ClusterVersion(0, 3)));
            raw.awaitClosedByNode();
        }
        assertCounted(WireStats::unauthenticatedCount, before);
    }

    @Test
    void silentConnection_isClosedAfterTheHandshakeTimeout() throws Exception {
        try (RawPeer raw = new RawPeer(impatient.self)) {
            raw.readControl(Control.Hello.class);
            raw.awaitClosedByNode(); // handshake-timeout 300 ms, socket timeout 5 s
        }
    }

    @Test
    void rawPeerKnowingTheSecret_isAccepted_andItsMessageDelivered() throws Exception {
        NetAddress self = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        try (RawPeer raw = new RawPeer(node.self)) {
            handshake(raw, self);
            raw.writeMessage(CODEC_ID, new TestMsg(new NetHeader(self, node.self, Transport.TCP), 777_001, fill(100, 3)));
            TestMsg m = awaitMessage(node, 777_001);
            assertNotNull(m, "delivered");
            assertArrayEquals(fill(100, 3), m.payload);
        }
    }

    @Test
    void afterHandshake_messageClaimingAnotherSource_isDroppedButTheConnectionStays() throws Exception {
        NetAddress self = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            handshake(raw, self);
            raw.writeMessage(CODEC_ID, new TestMsg(new NetHeader(peer.self, node.self, Transport.TCP), 777_002, new byte[1]));
            raw.writeMessage(CODEC_ID, new TestMsg(new NetHeader(self, node.self, Transport.TCP), 777_003, new byte[1]));
            assertNotNull(awaitMessage(node, 777_003), "the honest message after the forged one is delivered");
        }
        assertEquals(before + 1, WireStats.malformedCount());
        assertTrue(node.received.stream().noneMatch(m -> ((TestMsg) m).seq == 777_002), "forged source delivered");
    }

    @Test
    void afterHandshake_undecodableMessage_isCountedAndDropped_butTheConnectionStays() throws Exception {
        NetAddress self = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            handshake(raw, self);
            raw.writeFrame(CODEC_ID, fill(50, 11)); // random bytes under a known codec id
            raw.writeFrame(200, new byte[] {1, 2, 3}); // an unknown codec id
            raw.writeMessage(CODEC_ID, new TestMsg(new NetHeader(self, node.self, Transport.TCP), 777_004, new byte[1]));
            assertNotNull(awaitMessage(node, 777_004), "the valid message after two bad ones is delivered");
        }
        assertEquals(before + 2, WireStats.malformedCount());
    }

    /** A control frame of a later transport version's type is skipped by its length: the connection stays. */
    @Test
    void afterHandshake_unknownControlFrameType_isSkipped_andTheConnectionStays() throws Exception {
        NetAddress self = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            handshake(raw, self);
            raw.writeFrame(Frames.CONTROL, new byte[] {9, 1, 2, 3}); // type 9, with a body
            raw.writeMessage(CODEC_ID, new TestMsg(new NetHeader(self, node.self, Transport.TCP), 777_005, new byte[1]));
            assertNotNull(awaitMessage(node, 777_005), "the message after the unknown control frame is delivered");
        }
        assertEquals(before + 1, WireStats.malformedCount());
    }

    @Test
    void afterHandshake_lengthFieldAboveMaxFrame_closesTheConnection_countedMalformed() throws Exception {
        NetAddress self = NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort());
        long before = WireStats.malformedCount();
        try (RawPeer raw = new RawPeer(node.self)) {
            handshake(raw, self);
            raw.write(new byte[] {(byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}); // 2 GiB announced
            raw.awaitClosedByNode();
        }
        assertEquals(before + 1, RawPeer.awaitCount(WireStats::malformedCount, before + 1));
    }

    @Test
    void messageFillingMaxFrameExactly_isDelivered() throws Exception {
        NetHeader h = new NetHeader(peer.self, node.self, Transport.TCP);
        int lengthField = node.settings.maxFrameBytes();
        byte[] payload = new byte[lengthField - 1 - (Wire.headerSize(h) + 8 + 4)];
        payload[payload.length - 1] = 9;
        long before = WireStats.malformedCount();
        peer.send(new TestMsg(h, 888_001, payload));
        TestMsg m = awaitMessage(node, 888_001);
        assertNotNull(m, "a frame whose length field equals max-frame is delivered");
        assertArrayEquals(payload, m.payload);
        assertEquals(before, WireStats.malformedCount());
    }

    /** Runs the handshake as an initiator that knows the secret (the node is the acceptor). */
    private static void handshake(RawPeer raw, NetAddress self) throws Exception {
        Handshake h = new Handshake(Handshake.Role.INITIATOR, self, node.self, SECRET.getBytes(StandardCharsets.UTF_8),
                fill(16, 5), new byte[0], new byte[0]);
        raw.writeControl(h.hello());
        raw.writeControl(h.onHello(raw.readControl(Control.Hello.class)));
        assertTrue(h.onProof(raw.readControl(Control.Proof.class)), "the node proved the secret");
    }
}
