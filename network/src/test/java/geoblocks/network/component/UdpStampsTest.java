package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.network.NetworkSettings;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import se.sics.kompics.Kompics;
import se.sics.kompics.network.Transport;

/**
 * Real sockets on 127.0.0.1: a datagram is stamped when it is sealed for the socket and when its read
 * returns, so a receiver busy with something else does not count as time on the wire (what an RTT probe
 * needs: issue 42, "RTT that means something on a LAN").
 */
class UdpStampsTest {
    static final String SECRET = "udp-stamps-test-secret-42";
    static Pair.Side a;
    static Pair.Side b;
    private static final long MS = 1_000_000L;

    @BeforeAll
    static void start() throws Exception {
        NetworkSettings auth = NetworkSettings.from(ConfigFactory.load()).withSecurity("auth");
        a = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, auth);
        b = new Pair.Side(NetAddress.of("127.0.0.1", LoopbackNetworkTest.freePort()), SECRET, auth);
        Pair.start(List.of(a, b));
        // a session both ways first: the first datagrams of a new session can overtake its keys
        a.send(new TestMsg(new NetHeader(a.self, b.self, Transport.TCP), 1, new byte[1]));
        assertNotNull(b.await(1), "TCP a -> b");
        b.send(new TestMsg(new NetHeader(b.self, a.self, Transport.TCP), 2, new byte[1]));
        assertNotNull(a.await(2), "TCP b -> a");
    }

    @AfterAll
    static void stop() {
        Kompics.shutdown();
    }

    private static StampMsg await(Pair.Side at, long seq) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            StampMsg m = at.stamps.poll(100, TimeUnit.MILLISECONDS);
            if (m != null && m.seq == seq) {
                return m;
            }
        }
        return null;
    }

    @Test
    void datagram_stampedWhenSealedAndWhenRead_notAfterTheReceiversQueue() throws InterruptedException {
        b.stallMs = 300;
        long before = System.nanoTime();
        NetHeader h = new NetHeader(a.self, b.self, Transport.UDP);
        a.send(new StampMsg(h, 0, -1, -1)); // keeps b's endpoint busy for 300 ms
        a.send(new StampMsg(h, 1, -1, -1)); // read meanwhile, handled after
        assertNotNull(await(b, 0), "the first datagram");
        StampMsg m = await(b, 1);
        assertNotNull(m, "the second datagram");
        assertTrue(m.sentNanos >= before, "stamped by the network as it was sealed, was " + (m.sentNanos - before) + " ns");
        assertTrue(m.readNanos >= m.sentNanos, "read after it was sent (one clock): " + (m.readNanos - m.sentNanos) + " ns");
        assertTrue(m.handledNanos - m.readNanos >= 200 * MS, "read before the busy receiver's queue, "
                + (m.handledNanos - m.readNanos) / MS + " ms before its handler ran");
        assertTrue(m.readNanos - m.sentNanos < 200 * MS, "the wire time is not the receiver's stall: "
                + (m.readNanos - m.sentNanos) / MS + " ms");
    }
}
