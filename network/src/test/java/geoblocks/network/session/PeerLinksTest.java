package geoblocks.network.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.net.NetAddress;
import geoblocks.network.frame.Control;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The link table against a recording Io. Connections are Strings: "out" is the one this side
 * dialled, "in" the one the peer dialled.
 */
class PeerLinksTest {
    static final NetAddress SMALL = NetAddress.of("10.0.0.1", 1000);
    static final NetAddress LARGE = NetAddress.of("10.0.0.2", 2000);

    /** Records every call as a line, in order. */
    static final class RecordingIo implements PeerLinks.Io<String, String> {
        final List<String> calls = new ArrayList<>();

        @Override
        public void connect(NetAddress peer) {
            calls.add("connect " + peer);
        }

        @Override
        public void send(String conn, String msg) {
            calls.add("send " + conn + " " + msg);
        }

        @Override
        public void sendControl(String conn, Control c) {
            calls.add("control " + conn + " " + c.getClass().getSimpleName());
        }

        @Override
        public void close(String conn) {
            calls.add("close " + conn);
        }

        @Override
        public void failed(NetAddress peer, String why, List<String> droppedMsgs) {
            calls.add("failed " + peer + " " + why + " " + droppedMsgs.size());
        }

        @Override
        public void dropped(NetAddress peer) {
            calls.add("dropped " + peer);
        }

        /** The calls since the last take. */
        List<String> take() {
            List<String> c = new ArrayList<>(calls);
            calls.clear();
            return c;
        }
    }

    private final RecordingIo io = new RecordingIo();
    private final PeerLinks<String, String> small = new PeerLinks<>(SMALL, io);

    @Test
    void send_withoutConnection_dialsOnceAndQueues() {
        small.send(LARGE, "m1");
        small.send(LARGE, "m2");
        small.dial(LARGE);
        assertEquals(List.of("connect " + LARGE), io.take());
        assertNull(small.activeFor(LARGE));
    }

    @Test
    void established_drainsTheQueueInOrder_thenSendsDirectly() {
        small.send(LARGE, "m1");
        small.send(LARGE, "m2");
        small.send(LARGE, "m3");
        io.take();
        small.established("out", LARGE, true);
        assertEquals(List.of("send out m1", "send out m2", "send out m3"), io.take());
        small.send(LARGE, "m4");
        assertEquals(List.of("send out m4"), io.take());
        assertEquals("out", small.activeFor(LARGE));
        assertEquals(LARGE, small.peerOf("out"));
    }

    @Test
    void inboundConnection_servesSendsWithoutDialling() {
        small.established("in", LARGE, false);
        small.send(LARGE, "m1");
        assertEquals(List.of("send in m1"), io.take());
    }

    /** Both ends keep the connection dialled by the smaller address, whichever is established first. */
    @ParameterizedTest(name = "self smaller: {0}, outbound first: {1}")
    @CsvSource({"true, true", "true, false", "false, true", "false, false"})
    void simultaneousDial_keepsTheConnectionDialledByTheSmallerAddress(boolean selfSmaller, boolean outFirst) {
        NetAddress self = selfSmaller ? SMALL : LARGE;
        NetAddress peer = selfSmaller ? LARGE : SMALL;
        PeerLinks<String, String> links = new PeerLinks<>(self, io);
        links.dial(peer);
        io.take();
        if (outFirst) {
            links.established("out", peer, true);
            links.established("in", peer, false);
        } else {
            links.established("in", peer, false);
            links.established("out", peer, true);
        }
        String winner = selfSmaller ? "out" : "in";
        String loser = selfSmaller ? "in" : "out";
        assertEquals(List.of("control " + loser + " Retire"), io.take());
        assertEquals(winner, links.activeFor(peer));
        links.send(peer, "m1");
        assertEquals(List.of("send " + winner + " m1"), io.take());
    }

    @Test
    void simultaneousDial_sameIp_portBreaksTheTie() {
        NetAddress low = NetAddress.of("127.0.0.1", 40000);
        NetAddress high = NetAddress.of("127.0.0.1", 50000);
        PeerLinks<String, String> links = new PeerLinks<>(high, io);
        links.established("out", low, true);
        links.established("in", low, false);
        assertEquals(List.of("control out Retire"), io.take());
        assertEquals("in", links.activeFor(low));
    }

    @Test
    void compare_ordersIpBytesUnsigned_thenPort() {
        assertTrue(PeerLinks.compare(NetAddress.of("10.0.0.3", 1), NetAddress.of("10.0.0.200", 1)) < 0);
        assertTrue(PeerLinks.compare(NetAddress.of("10.0.0.3", 9), NetAddress.of("10.0.0.3", 10)) < 0);
        assertTrue(PeerLinks.compare(NetAddress.of("10.0.0.3", 10), NetAddress.of("10.0.0.3", 10)) == 0);
    }

    /** self = SMALL: "in" (dialled by LARGE) carried m1 before "out" won; m2, m3 wait for the ack. */
    private void loserCarriedData() {
        small.send(LARGE, "m1");
        small.established("in", LARGE, false);
        small.established("out", LARGE, true);
        assertEquals(List.of("connect " + LARGE, "send in m1", "control in Retire"), io.take());
        small.send(LARGE, "m2");
        small.send(LARGE, "m3");
    }

    @Test
    void retiredConnectionThatCarriedData_holdsNewMessagesUntilRetireAck_thenSendsInOrderOnWinner() {
        loserCarriedData();
        assertEquals(List.of(), io.take(), "held while m1 may still be in flight on the retired connection");
        small.onRetire("in");
        assertEquals(List.of("control in RetireAck"), io.take(), "the peer's RETIRE alone does not release");
        small.onRetireAck("in");
        assertEquals(List.of("send out m2", "send out m3", "close in"), io.take());
        small.send(LARGE, "m4");
        assertEquals(List.of("send out m4"), io.take());
    }

    @Test
    void retiredConnection_closesOnlyAfterRetireSentReceivedAndAcked_ackFirst() {
        loserCarriedData();
        small.onRetireAck("in");
        assertEquals(List.of("send out m2", "send out m3"), io.take(), "not closed: no RETIRE from the peer yet");
        small.onRetire("in");
        assertEquals(List.of("control in RetireAck", "close in"), io.take());
        assertEquals(List.of("out"), small.connections());
    }

    @Test
    void retiredConnectionWithoutData_doesNotHoldMessages() {
        small.established("in", LARGE, false);
        small.established("out", LARGE, true);
        io.take();
        small.send(LARGE, "m1");
        assertEquals(List.of("send out m1"), io.take());
        small.onRetire("in");
        small.onRetireAck("in");
        assertEquals(List.of("control in RetireAck", "close in"), io.take());
    }

    @Test
    void peerRetiresFirst_weAckAndRetireToo() {
        // LARGE's view: it dialled "out", SMALL dialled "in"; SMALL's RETIRE on "out" can arrive
        // before LARGE has seen "in" established
        PeerLinks<String, String> large = new PeerLinks<>(LARGE, io);
        large.established("out", SMALL, true);
        large.onRetire("out");
        assertEquals(List.of("control out RetireAck", "control out Retire"), io.take());
        large.established("in", SMALL, false);
        large.send(SMALL, "m1");
        assertEquals(List.of("send in m1"), io.take());
        large.onRetireAck("out");
        assertEquals(List.of("close out"), io.take());
    }

    @Test
    void connectFailure_dropsTheQueue_andReportsOnce() {
        small.send(LARGE, "m1");
        small.send(LARGE, "m2");
        small.send(LARGE, "m3");
        io.take();
        small.closed("dial1", LARGE, "connection refused");
        small.closed("dial1", LARGE, "connection refused");
        assertEquals(List.of("failed " + LARGE + " connection refused 3"), io.take());
        small.send(LARGE, "m4");
        assertEquals(List.of("connect " + LARGE), io.take(), "a later send dials again");
        small.established("out", LARGE, true);
        assertEquals(List.of("send out m4"), io.take(), "m1..m3 are gone");
    }

    @Test
    void connectFailure_whileAnInboundConnectionServes_dropsNothing() {
        small.send(LARGE, "m1");
        small.established("in", LARGE, false);
        io.take();
        small.closed("dial1", LARGE, "connection refused");
        assertEquals(List.of(), io.take());
        small.send(LARGE, "m2");
        assertEquals(List.of("send in m2"), io.take());
    }

    @Test
    void closingTheLastConnection_reportsDropped_andDialsOnlyWhenMessagesWait() {
        small.established("out", LARGE, true);
        small.send(LARGE, "m1");
        io.take();
        small.closed("out", null, "reset");
        assertEquals(List.of("dropped " + LARGE), io.take());
        assertNull(small.activeFor(LARGE));
        small.send(LARGE, "m2");
        assertEquals(List.of("connect " + LARGE), io.take());
    }

    @Test
    void closingTheLastConnection_withHeldMessages_redialsAndDeliversThem() {
        loserCarriedData();
        small.closed("out", null, "reset");
        assertEquals(List.of(), io.take(), "the retiring connection still exists");
        small.closed("in", null, "reset");
        assertEquals(List.of("dropped " + LARGE, "connect " + LARGE), io.take());
        small.established("out2", LARGE, true);
        assertEquals(List.of("send out2 m2", "send out2 m3"), io.take());
    }

    @Test
    void closingOneOfTwoConnections_movesToTheOther_withoutDropped() {
        small.established("in", LARGE, false);
        small.established("out", LARGE, true);
        io.take();
        small.closed("out", null, "reset");
        assertEquals(List.of(), io.take());
        small.send(LARGE, "m1");
        assertEquals(List.of("connect " + LARGE), io.take(),
                "the retired connection carries nothing: queue and dial");
    }

    /** Two link tables joined by in-memory FIFO connections ("conn>receiver" queues). */
    static final class TwoSides {
        final Map<String, ArrayDeque<Object>> wires = new TreeMap<>();
        final Map<String, PeerLinks<String, String>> links = new HashMap<>();
        final Map<String, List<String>> received = new HashMap<>();
        final List<String> closes = new ArrayList<>();

        TwoSides() {
            side("A", SMALL, "B");
            side("B", LARGE, "A");
        }

        private void side(String name, NetAddress self, String other) {
            received.put(name, new ArrayList<>());
            links.put(name, new PeerLinks<>(self, new PeerLinks.Io<>() {
                public void connect(NetAddress peer) {}

                public void send(String conn, String msg) {
                    wire(conn, other).add(msg);
                }

                public void sendControl(String conn, Control c) {
                    wire(conn, other).add(c);
                }

                public void close(String conn) {
                    closes.add(name + " " + conn);
                }

                public void failed(NetAddress peer, String why, List<String> droppedMsgs) {
                    throw new AssertionError("failed " + why);
                }

                public void dropped(NetAddress peer) {
                    throw new AssertionError("dropped " + peer);
                }
            }));
        }

        ArrayDeque<Object> wire(String conn, String receiver) {
            return wires.computeIfAbsent(conn + ">" + receiver, k -> new ArrayDeque<>());
        }

        /** Delivers frames, one per connection direction in turn, until all are empty. */
        void deliverAll() {
            boolean moved = true;
            while (moved) {
                moved = false;
                for (var e : new ArrayList<>(wires.entrySet())) {
                    Object f = e.getValue().poll();
                    if (f == null) {
                        continue;
                    }
                    moved = true;
                    // PeerLinks compares handles by identity (they are Channels in production)
                    String conn = e.getKey().substring(0, e.getKey().indexOf('>')).intern();
                    String to = e.getKey().substring(e.getKey().indexOf('>') + 1);
                    if (f instanceof String m) {
                        received.get(to).add(m);
                    } else if (f instanceof Control.Retire) {
                        links.get(to).onRetire(conn);
                    } else {
                        links.get(to).onRetireAck(conn);
                    }
                }
            }
        }
    }

    private static List<String> numbered(String prefix, int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(prefix + i);
        }
        return l;
    }

    /**
     * "AB" is dialled by A (the smaller address, so it wins), "BA" by B; both carried data before
     * the tie-break. {@code lateB}: B sees A's RETIRE on "BA" before "AB" is established on its side.
     */
    @ParameterizedTest(name = "B establishes the winner after A's RETIRE arrived: {0}")
    @ValueSource(booleans = {false, true})
    void bothSides_simultaneousDialWithTrafficBothWays_deliverEverythingOnceInOrder(boolean lateB) {
        TwoSides t = new TwoSides();
        PeerLinks<String, String> a = t.links.get("A");
        PeerLinks<String, String> b = t.links.get("B");
        for (int i = 0; i < 5; i++) {
            a.send(LARGE, "a" + i);
            b.send(SMALL, "b" + i);
        }
        a.established("BA", LARGE, false);
        b.established("BA", SMALL, true);
        a.established("AB", LARGE, true);
        for (int i = 5; i < 10; i++) {
            a.send(LARGE, "a" + i);
        }
        for (int i = 5; i < 8; i++) {
            b.send(SMALL, "b" + i);
        }
        if (lateB) {
            t.deliverAll();
            b.send(SMALL, "b8");
            b.established("AB", SMALL, false);
        } else {
            b.established("AB", SMALL, false);
            b.send(SMALL, "b8");
        }
        b.send(SMALL, "b9");
        t.deliverAll();

        assertEquals(numbered("a", 10), t.received.get("B"));
        assertEquals(numbered("b", 10), t.received.get("A"));
        assertEquals(List.of("A BA", "B BA"), t.closes.stream().sorted().toList());
        assertEquals(List.of("AB"), a.connections());
        assertEquals(List.of("AB"), b.connections());
        assertEquals("AB", a.activeFor(LARGE));
        assertEquals("AB", b.activeFor(SMALL));
    }

    @Test
    void retireEventsForUnknownConnections_areIgnored() {
        small.onRetire("nobody");
        small.onRetireAck("nobody");
        small.closed("nobody", null, "x");
        assertEquals(List.of(), io.take());
    }
}
