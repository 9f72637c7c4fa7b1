package geoblocks.node.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.node.net.LoopbackNetworks.Side;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import se.sics.kompics.network.MessageNotify;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;

/**
 * What the node expects of any network it runs on, checked against each implementation over
 * loopback (one subclass each, as Kompics runs one NetworkTest against each of its networks):
 * TCP messages arrive intact, from the right source, in the order they were sent on a connection;
 * a message as large as the network's limit arrives; UDP datagrams arrive; the sender hears of a
 * peer nobody listens at (how differs: see {@link UnreachableReport}). Each test uses its own range
 * of sequence numbers and skips what others left behind.
 */
abstract class NetworkConformanceTest {
    private Side a;
    private Side b;

    /** The implementation under test. */
    abstract LoopbackNetworks.Kind kind();

    /** How an implementation tells a sender that a peer cannot be reached. */
    enum UnreachableReport {
        /** A NetworkException naming the peer on NetworkControl, for any send (GeoNetwork). */
        NETWORK_EXCEPTION,
        /**
         * A MessageNotify.Resp in state FAILED, for a send that asked for one, and no NetworkException
         * (Kompics' NettyNetwork 1.2.1).
         */
        FAILED_NOTIFY
    }

    /** How the implementation under test reports an unreachable peer. */
    abstract UnreachableReport unreachableReport();

    /** Largest encoded message (header included) the implementation promises to carry over TCP. */
    abstract int maxMessageBytes();

    @BeforeEach
    void sides() throws Exception {
        List<Side> pair = LoopbackNetworks.sides(kind());
        a = pair.get(0);
        b = pair.get(1);
    }

    private static NetHeader tcp(Side from, Side to) {
        return new NetHeader(from.self, to.self, Transport.TCP);
    }

    /** The next message at {@code s} with a sequence number in {@code [from, to)}, or null after 20 s. */
    private static ConformanceMsg next(Side s, long from, long to) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end) {
            ConformanceMsg m = s.receive(1);
            if (m != null && m.seq >= from && m.seq < to) {
                return m;
            }
        }
        return null;
    }

    @Test
    void tcp_aMessage_arrivesIntact_fromItsSender() throws Exception {
        byte[] payload = new byte[1000];
        new Random(1).nextBytes(payload);
        a.send(new ConformanceMsg(tcp(a, b), 100, payload));
        ConformanceMsg m = next(b, 100, 101);
        assertNotNull(m, "delivered");
        assertArrayEquals(payload, m.payload);
        assertEquals(a.self, m.getHeader().source());
        assertEquals(b.self, m.getHeader().destination());
        assertEquals(Transport.TCP, m.getHeader().protocol());
    }

    @Test
    void tcp_messagesOnOneConnection_arriveInTheOrderSent_inBothDirections() throws Exception {
        int n = 300;
        Random r = new Random(2);
        for (int i = 0; i < n; i++) {
            byte[] p = new byte[r.nextInt(3000)];
            a.send(new ConformanceMsg(tcp(a, b), 1000 + i, p));
            b.send(new ConformanceMsg(tcp(b, a), 1000 + i, p));
        }
        for (Side s : List.of(a, b)) {
            for (int i = 0; i < n; i++) {
                ConformanceMsg m = next(s, 1000, 1000 + n);
                assertNotNull(m, "message " + i + " at " + s.self);
                assertEquals(1000 + i, m.seq, "FIFO per connection at " + s.self);
            }
        }
    }

    @Test
    void tcp_aMessageAsLargeAsTheLimit_arrivesIntact() throws Exception {
        NetHeader h = tcp(a, b);
        byte[] payload = new byte[maxMessageBytes() - ConformanceMsg.overhead(h)];
        new Random(3).nextBytes(payload);
        ConformanceMsg big = new ConformanceMsg(h, 5000, payload);
        assertEquals(maxMessageBytes(), big.wireSize());
        a.send(big);
        a.send(new ConformanceMsg(h, 5001, new byte[] {1}));
        ConformanceMsg m = next(b, 5000, 5002);
        assertNotNull(m, "a " + maxMessageBytes() + "-byte message is delivered");
        assertEquals(5000, m.seq);
        assertArrayEquals(payload, m.payload);
        assertNotNull(next(b, 5001, 5002), "and the connection still carries the next");
    }

    @Test
    void udp_datagrams_arrive() throws Exception {
        int n = 50;
        for (int i = 0; i < n; i++) {
            b.send(new ConformanceMsg(new NetHeader(b.self, a.self, Transport.UDP), 7000 + i, new byte[1200]));
        }
        int got = 0;
        ConformanceMsg m;
        while (got < n && (m = next(a, 7000, 7000 + n)) != null) {
            assertEquals(Transport.UDP, m.getHeader().protocol());
            assertEquals(b.self, m.getHeader().source());
            assertEquals(1200, m.payload.length);
            got++;
        }
        assertTrue(got >= n * 9 / 10, "received " + got + " of " + n + " datagrams on loopback (UDP may drop a few)");
    }

    @Test
    void aPeerNobodyListensAt_isReportedToTheSender() throws Exception {
        NetAddress nobody = NetAddress.of("127.0.0.1", LoopbackNetworks.freePort());
        a.control.clear();
        ConformanceMsg m = new ConformanceMsg(new NetHeader(a.self, nobody, Transport.TCP), 9000, new byte[1]);
        switch (unreachableReport()) {
            case NETWORK_EXCEPTION -> {
                a.send(m);
                NetworkException e = a.awaitControl(NetworkException.class, 30);
                assertNotNull(e, "the sender hears that the message could not be delivered");
                assertEquals(nobody.asSocket(), e.peer.asSocket());
            }
            case FAILED_NOTIFY -> {
                MessageNotify.Req req = MessageNotify.create(m);
                a.send(req);
                MessageNotify.Resp r = a.notified.poll(30, TimeUnit.SECONDS);
                assertNotNull(r, "the sender hears that the message could not be delivered");
                assertEquals(req.getMsgId(), r.msgId);
                assertEquals(MessageNotify.State.FAILED, r.getState());
                assertEquals(null, a.awaitControl(NetworkException.class, 1),
                        "no NetworkException: a node on this network learns of the peer from its RTT probes and timeouts");
            }
        }
    }

}
