package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetBurst;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerUnreachable;
import geoblocks.net.WireStats;
import geoblocks.network.NetworkSettings;
import geoblocks.network.PooledBytes;
import geoblocks.network.TailMsg;
import io.netty.buffer.Unpooled;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;

/**
 * Real sockets on 127.0.0.1: three networks, two sharing the cluster secret (a, b) and one with
 * another secret (x). Both security modes are covered: a and b run TLS, so do x's attempts.
 */
class LoopbackNetworkTest {
    static final String SECRET = "loopback-test-secret-0123";
    static Pair.Side a;
    static Pair.Side b;
    static Pair.Side x;
    /** Two sides in one process that reach each other through LocalLinks (and others by sockets). */
    static final LocalLinks LINKS = new LocalLinks();
    static Pair.Side l1;
    static Pair.Side l2;
    /** Registers the test family as bursting: its endpoint unpacks NetBursts and counts them. */
    static Pair.Side bursting;
    /** Two sides on plain TCP (security auth, as the built-in loopback cluster runs). */
    static Pair.Side p1;
    static Pair.Side p2;

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings tls = NetworkSettings.from(ConfigFactory.load()).withSecurity("tls");
        a = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, tls);
        b = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, tls);
        x = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), "some-other-secret-456789", tls);
        l1 = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, tls).withLocalLinks(LINKS);
        l2 = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, tls).withLocalLinks(LINKS);
        bursting = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, tls).bursting();
        NetworkSettings auth = NetworkSettings.from(ConfigFactory.load()).withSecurity("auth");
        p1 = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, auth);
        p2 = new Pair.Side(NetAddress.of("127.0.0.1", freePort()), SECRET, auth);
        Pair.start(List.of(a, b, x, l1, l2, bursting, p1, p2));
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Waits up to 30 s (a loaded 2-core machine can take over 10 s to start TLS listeners); returns at the event. */
    @SuppressWarnings("unchecked")
    static <T> T waitFor(Pair.Side s, Class<T> type) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            KompicsEvent e = s.control.poll(100, TimeUnit.MILLISECONDS);
            if (type.isInstance(e)) {
                return (T) e;
            }
        }
        return null;
    }

    static TestMsg receive(Pair.Side s) throws InterruptedException {
        return (TestMsg) s.received.poll(10, TimeUnit.SECONDS);
    }

    @Test
    void tcp_blockSizedMessages_arriveIntactAndInOrder() throws Exception {
        Random r = new Random(1);
        byte[][] sent = new byte[20][];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = new byte[i % 2 == 0 ? 1 << 20 : r.nextInt(5000)];
            r.nextBytes(sent[i]);
            a.send(new TestMsg(new NetHeader(a.self, b.self, Transport.TCP), i, sent[i]));
        }
        for (int i = 0; i < sent.length; i++) {
            TestMsg m = receive(b);
            assertNotNull(m, "message " + i);
            assertEquals(i, m.seq);
            assertArrayEquals(sent[i], m.payload);
            assertEquals(a.self, m.getHeader().source());
        }
    }

    @Test
    void localLinks_deliverTheSameObjectsInOrder_andOtherPeersStillBySocket() throws Exception {
        assertEquals(2, LINKS.size(), "both in-process sides registered when they listened");
        List<TestMsg> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            TestMsg m = new TestMsg(new NetHeader(l1.self, l2.self, Transport.TCP), 9000 + i, new byte[] {(byte) i});
            sent.add(m);
            l1.send(m);
        }
        for (TestMsg expected : sent) {
            TestMsg m = receive(l2);
            assertNotNull(m, "message " + expected.seq);
            assertTrue(m == expected, "in-process delivery hands over the sent object, not a decoded copy");
        }
        byte[] payload = {7, 7, 7};
        l1.send(new TestMsg(new NetHeader(l1.self, a.self, Transport.TCP), 9500, payload));
        TestMsg overTcp = a.await(9500);
        assertNotNull(overTcp, "a side outside LocalLinks is reached by socket");
        assertTrue(overTcp.payload != payload, "decoded from the wire");
        assertArrayEquals(payload, overTcp.payload);
    }

    @Test
    void simultaneousDial_bothDirectionsDeliverEverythingInOrder() throws Exception {
        Pair.Side c = b;
        Pair.Side d = a;
        for (int i = 0; i < 200; i++) {
            c.send(new TestMsg(new NetHeader(c.self, d.self, Transport.TCP), 1000 + i, new byte[] {(byte) i}));
            d.send(new TestMsg(new NetHeader(d.self, c.self, Transport.TCP), 1000 + i, new byte[] {(byte) i}));
        }
        for (Pair.Side s : List.of(c, d)) {
            long expect = 1000;
            while (expect < 1200) {
                TestMsg m = receive(s);
                assertNotNull(m, "message " + expect + " at " + s.self);
                if (m.seq < 1000) {
                    continue; // from another test's traffic
                }
                assertEquals(expect++, m.seq);
            }
        }
    }

    @Test
    void udp_datagramsArriveAuthenticated() throws Exception {
        for (int i = 0; i < 50; i++) {
            b.send(new TestMsg(new NetHeader(b.self, a.self, Transport.UDP), 5000 + i, new byte[1400]));
        }
        int got = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got < 45 && System.nanoTime() < end) {
            TestMsg m = (TestMsg) a.received.poll(100, TimeUnit.MILLISECONDS);
            if (m != null && m.seq >= 5000) {
                assertEquals(1400, m.payload.length);
                got++;
            }
        }
        assertTrue(got >= 45, "received " + got + " of 50 datagrams on loopback");
    }

    @Test
    void udpBurst_everyPartIsSentAndArrives() throws Exception {
        List<TestMsg> parts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            parts.add(new TestMsg(new NetHeader(a.self, b.self, Transport.UDP), 7000 + i, new byte[1400]));
        }
        a.send(new NetBurst(new NetHeader(a.self, b.self, Transport.UDP), parts));
        Map<Long, TestMsg> got = b.collect(7000, 40);
        assertTrue(got.size() >= 38, "received " + got.size() + " of the 40 parts of a burst on loopback");
    }

    @Test
    void udpBurst_ofMixedSizes_everyPartArrivesIntact() throws Exception {
        // runs of equal sizes are sealed into one buffer each (GSO); shorter datagrams end a run
        int[] sizes = {1400, 1400, 1400, 900, 1400, 1400, 200, 200, 200, 1400, 1400, 1400, 1400, 17};
        Random random = new Random(11);
        List<TestMsg> parts = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            byte[] payload = new byte[sizes[i]];
            random.nextBytes(payload);
            parts.add(new TestMsg(new NetHeader(a.self, b.self, Transport.UDP), 7100 + i, payload));
        }
        a.send(new NetBurst(new NetHeader(a.self, b.self, Transport.UDP), parts));
        Map<Long, TestMsg> got = b.collect(7100, sizes.length);
        assertTrue(got.size() >= sizes.length - 1, "received " + got.size() + " of " + sizes.length);
        for (var e : got.entrySet()) {
            assertArrayEquals(parts.get((int) (e.getKey() - 7100)).payload, e.getValue().payload, "part " + e.getKey());
        }
    }

    @Test
    void burstingFamily_arrivesInBurstsFromOnePeer_andEveryPartIsThere() throws Exception {
        List<TestMsg> parts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            parts.add(new TestMsg(new NetHeader(a.self, bursting.self, Transport.UDP), 7200 + i, new byte[1400]));
        }
        a.send(new NetBurst(new NetHeader(a.self, bursting.self, Transport.UDP), parts));
        Map<Long, TestMsg> got = bursting.collect(7200, 40);
        for (TestMsg m : got.values()) {
            assertEquals(a.self, m.getHeader().source());
        }
        assertTrue(got.size() >= 38, "received " + got.size() + " of the 40 parts");
        assertTrue(bursting.bursts.get() >= 1, "the parts came in bursts (" + bursting.bursts.get() + ")");
        for (KompicsEvent e : b.received) {
            assertTrue(!(e instanceof NetBurst), "a side whose family is not bursting got a burst");
        }
    }

    @Test
    void wrongSecret_isRefused_andNothingIsDelivered() throws Exception {
        long before = WireStats.unauthenticatedCount();
        x.send(new TestMsg(new NetHeader(x.self, a.self, Transport.TCP), 9999, new byte[10]));
        NetworkException e = waitFor(x, NetworkException.class);
        assertNotNull(e, "the sender learns its message could not be delivered");
        assertTrue(e.message.contains("secret") || e.message.contains("closed"), e.message);
        assertTrue(WireStats.unauthenticatedCount() > before, "refusal counted");
        Thread.sleep(200);
        for (KompicsEvent m : a.received) {
            assertTrue(((TestMsg) m).seq != 9999, "message from x delivered");
        }
    }

    @Test
    void unreachablePeer_reportsNetworkException() throws Exception {
        NetAddress nobody = NetAddress.of("127.0.0.1", freePort());
        TestMsg m = new TestMsg(new NetHeader(b.self, nobody, Transport.TCP), 1, new byte[1]);
        b.send(m);
        NetworkException e = waitFor(b, NetworkException.class);
        assertNotNull(e);
        assertEquals(nobody.asSocket(), e.peer.asSocket());
        PeerUnreachable why = Assertions.assertInstanceOf(
                PeerUnreachable.class, e.getCause(), "typed: the connection could not be made");
        assertEquals(nobody, why.peer());
        assertEquals(List.of(m), why.unsent(), "the queued message was never sent, and the sender is told which");
    }

    /**
     * A Netty buffer of {@code n} seeded random bytes, as a node reads a block for a client. Not from
     * the pool: Netty recycles pooled buffer objects, so a released one may show another owner's
     * count by the time a test looks; an unpooled one shows 0 for good once released.
     */
    static PooledBytes pooled(int n, long seed) {
        byte[] fill = new byte[n];
        new Random(seed).nextBytes(fill);
        return new PooledBytes(Unpooled.directBuffer(n, n).writeBytes(fill));
    }

    /** Waits up to 10 s for {@code done}. */
    static boolean eventually(BooleanSupplier done) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        return done.getAsBoolean();
    }

    @Test
    void pooledTails_overPlainTcpAndTls_arriveIntactAsViewsOfTheFrame_andEveryBufferGoesBack() throws Exception {
        for (Pair.Side[] pair : List.of(new Pair.Side[] {p1, p2}, new Pair.Side[] {a, b})) {
            Pair.Side from = pair[0];
            Pair.Side to = pair[1];
            List<PooledBytes> sent = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                // a block, a small tail that is copied into its frame, and one just long enough to go as it is
                int n = i % 3 == 0 ? 1 << 20 : i % 3 == 1 ? 100 : 8192;
                PooledBytes data = pooled(n, i);
                sent.add(data);
                from.send(new TailMsg(new NetHeader(from.self, to.self, Transport.TCP), i, data));
            }
            for (int i = 0; i < sent.size(); i++) {
                TailMsg m = to.tails.poll(10, TimeUnit.SECONDS);
                assertNotNull(m, "message " + i + " to " + to.self);
                assertEquals(i, m.seq);
                byte[] expected = new byte[sent.get(i).length()];
                new Random(i).nextBytes(expected);
                assertArrayEquals(expected, m.data.toArray(), "message " + i + ": the bytes sent");
                assertTrue(m.data instanceof PooledBytes, "received bytes are a view of the frame, not a copy");
                PooledBytes kept = (PooledBytes) m.data;
                assertEquals(1, kept.buf().refCnt(), "the message holds a reference of its own to its view");
                kept.release(); // as its consumer does (the view is a recycled pool object: not looked at after)
                assertTrue(kept.released());
            }
            for (int i = 0; i < sent.size(); i++) {
                PooledBytes data = sent.get(i);
                assertTrue(data.released(), "the network released message " + i + "'s reference");
                int message = i;
                assertTrue(eventually(() -> data.buf().refCnt() == 0),
                        "message " + message + "'s buffer went back to the pool once written");
            }
        }
    }

    @Test
    void pooledTail_toAnUnreachablePeer_isReleasedWhenItsQueueIsDropped() throws Exception {
        NetAddress nobody = NetAddress.of("127.0.0.1", freePort());
        PooledBytes data = pooled(64 << 10, 7);
        p1.send(new TailMsg(new NetHeader(p1.self, nobody, Transport.TCP), 1, data));
        NetworkException e = waitFor(p1, NetworkException.class);
        assertNotNull(e);
        assertEquals(nobody.asSocket(), e.peer.asSocket());
        assertTrue(eventually(() -> data.buf().refCnt() == 0), "the dropped message's buffer went back to the pool");
        assertTrue(data.released());
    }
}
