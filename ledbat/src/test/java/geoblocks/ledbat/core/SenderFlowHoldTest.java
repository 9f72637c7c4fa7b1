package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A flow held for the application's own foreground traffic ({@link SenderFlow#holdWith}): new data
 * only as its {@link HoldPacer} allows (a trickle, or a share of the foreground's rate),
 * retransmissions as usual, the window kept for the hold's end. Fake clock (µs).
 */
class SenderFlowHoldTest {
    static final int MSS = 1400;
    static final long MS = 1_000;
    static final long OWD = 10 * MS;
    static final byte[] NO_SACK = new byte[0];

    /** Sends what the flow allows at {@code now} and acknowledges all of it {@code 2 * OWD} later; returns the time then. */
    static long roundTrip(SenderFlow f, long now) {
        List<Segment> sent = SenderFlowTest.pump(f, now);
        if (sent.isEmpty()) {
            return now;
        }
        long next = sent.get(sent.size() - 1).seq() + 1;
        long at = now + 2 * OWD;
        assertTrue(f.onAck(at, next, NO_SACK, 0, now, OWD, 0, 0));
        return at;
    }

    /** Holds {@code f} from {@code now} until {@code until} for foreground of {@code fgRate} bytes/s; returns its pacer. */
    static HoldPacer hold(SenderFlow f, long now, long until, long fgRate) {
        HoldPacer p = HoldPacer.of(SenderFlowTest.settings());
        p.hold(now, until, fgRate);
        f.holdWith(p);
        return p;
    }

    static SenderFlow busyFlow() {
        SenderFlow f = SenderFlowTest.flow(SenderFlowTest.settings());
        f.offer(f.open(1), new byte[50 * 1024 * 1024]);
        return f;
    }

    @Test
    void heldFlow_sendsOnlyATrickle_otherFlowsDoNot() {
        SenderFlow held = busyFlow();
        SenderFlow other = busyFlow();
        long t = 0;
        for (int i = 0; i < 8; i++) { // grow both windows first (slow start), with data left to send
            t = roundTrip(held, t);
            roundTrip(other, t - 2 * OWD);
        }
        long trickle = SenderFlowTest.settings().holdTrickleMicros;
        assertEquals(200 * MS, trickle, "the default trickle: one segment per 200 ms");
        hold(held, t, t + 2_000 * MS, 0);
        assertTrue(held.held(t));
        assertNull(held.nextToSend(t), "held: nothing new at once");
        long end = t + 2_000 * MS;
        int heldSegments = 0;
        long otherBytes = 0;
        for (long now = t; now < end; now += 5 * MS) {
            if (held.sendDue(now)) {
                List<Segment> s = SenderFlowTest.pump(held, now);
                heldSegments += s.size();
                if (!s.isEmpty()) {
                    assertTrue(held.onAck(now + 2 * OWD, s.get(s.size() - 1).seq() + 1, NO_SACK, 0, now, OWD, 0, 0));
                }
            }
            for (Segment s : SenderFlowTest.pump(other, now)) {
                otherBytes += s.length();
            }
            other.onAck(now + 1, other.window().nextSeq(), NO_SACK, 0, now, OWD, 0, 0);
        }
        assertTrue(held.window().hasWork(), "data left to send");
        assertTrue(heldSegments >= 8 && heldSegments <= 10, "one segment per 200 ms over 2 s: " + heldSegments);
        assertTrue(otherBytes > 100L * MSS, "the flow to another peer keeps sending: " + otherBytes + " bytes");
    }

    @Test
    void afterTheHold_theFlowResumesWithTheWindowItHad() {
        SenderFlow f = busyFlow();
        long t = 0;
        for (int i = 0; i < 8; i++) {
            t = roundTrip(f, t);
        }
        double before = f.controller().cwnd();
        assertTrue(before > 10 * MSS, "a grown window: " + before);
        hold(f, t, t + 1_000 * MS, 0);
        long now = t;
        while (now + 5 * MS < t + 1_000 * MS) {
            now += 5 * MS;
            if (f.sendDue(now)) {
                now = roundTrip(f, now);
            }
        }
        now = t + 1_000 * MS;
        assertEquals(before, f.controller().cwnd(), 1.0, "the trickle's ACKs did not shrink the window");
        assertFalse(f.held(now));
        assertTrue(f.sendDue(now), "the hold ended: the timer should pump once");
        assertFalse(f.sendDue(now), "once");
        List<Segment> burst = SenderFlowTest.pump(f, now);
        assertTrue(burst.size() * (double) MSS >= before - MSS, "the whole window at once: " + burst.size() + " segments");
    }

    @Test
    void aLaterRequestExtendsTheHold_aPastOneIsIgnored() {
        SenderFlow f = busyFlow();
        HoldPacer p = hold(f, 0, 1_000 * MS, 0);
        p.hold(500 * MS, 1_500 * MS, 0);
        p.hold(600 * MS, 900 * MS, 0);
        assertTrue(f.held(1_499 * MS));
        assertFalse(f.held(1_500 * MS));
        SenderFlow g = busyFlow();
        hold(g, 100 * MS, 100 * MS, 0);
        assertFalse(g.held(100 * MS));
        assertFalse(g.sendDue(100 * MS), "never held: nothing for the timer");
    }

    /** Sends what a held flow may over {@code micros} from {@code t} (ACKed at once); returns the bytes. */
    static long heldBytes(SenderFlow f, long t, long micros) {
        long bytes = 0;
        for (long now = t; now < t + micros; now += 5 * MS) {
            if (f.sendDue(now)) {
                List<Segment> s = SenderFlowTest.pump(f, now);
                for (Segment seg : s) {
                    bytes += seg.length();
                }
                if (!s.isEmpty()) {
                    assertTrue(f.onAck(now + 1, s.get(s.size() - 1).seq() + 1, NO_SACK, 0, now, OWD, 0, 0));
                }
            }
        }
        return bytes;
    }

    @Test
    void heldForAHeavyForeground_theFlowKeepsItsShare_notATrickle() {
        SenderFlow f = busyFlow();
        long t = 0;
        for (int i = 0; i < 8; i++) {
            t = roundTrip(f, t);
        }
        long fg = 2_500_000; // the foreground moves 20 Mbit/s with the peer
        hold(f, t, t + 2_000 * MS, fg);
        long bytes = heldBytes(f, t, 2_000 * MS);
        double share = SenderFlowTest.settings().holdShare;
        assertEquals(0.01, share, 1e-9, "the default share");
        assertTrue(Math.abs(bytes - share * fg * 2) <= 2 * MSS, "1 % of 2.5 MB/s over 2 s: " + bytes + " bytes");
    }

    @Test
    void aFlowOpenedDuringAHold_isHeldByTheSamePacer() {
        SenderFlow first = busyFlow();
        HoldPacer p = hold(first, 0, 2_000 * MS, 0);
        SenderFlow second = busyFlow();
        second.holdWith(p);
        assertTrue(second.held(1 * MS));
        assertNull(second.nextToSend(1 * MS), "held from its start: nothing at once");
        assertTrue(heldBytes(second, 0, 2_000 * MS) <= 10L * MSS, "a trickle");
    }

    @Test
    void retransmissionsGoWhileHeld_soTheFlowDoesNotTimeOut() {
        SenderFlow f = busyFlow();
        List<Segment> first = SenderFlowTest.pump(f, 0);
        assertEquals(2, first.size());
        hold(f, 0, 60_000 * MS, 0);
        long cto = f.controller().rto().cto();
        assertEquals(SenderFlow.Tick.RETRANSMIT, f.onTick(cto));
        Segment again = f.nextToSend(cto);
        assertTrue(again != null && again.isRetransmission(), "the lost segment goes again while held");
        f.armTimer(cto);
        // its ACK arrives: progress, so no further timeout counts against the flow
        assertTrue(f.onAck(cto + 2 * OWD, 2, NO_SACK, 0, cto, OWD, 0, 0));
        assertEquals(0, f.consecutiveTimeouts());
    }

    @Test
    void heldWithASmallWindow_thePacerNotTheWindowSetsTheRate_andTheWindowWaitsForTheHoldsEnd() {
        SenderFlow f = busyFlow(); // a window of 2 segments (never grown): 2 x 1400 B per 20 ms RTT is 140 kB/s
        double before = f.controller().cwnd();
        assertEquals(2.0 * MSS, before, 1.0);
        long fg = 50_000_000; // 1 % of it: 500 kB/s
        hold(f, 0, 2_000 * MS, fg);
        ArrayDeque<long[]> acks = new ArrayDeque<>(); // {at, cumulative ack, sent at}
        long bytes = 0;
        for (long now = 0; now < 2_000 * MS; now += 1 * MS) {
            while (!acks.isEmpty() && acks.peekFirst()[0] <= now) {
                long[] a = acks.pollFirst();
                assertTrue(f.onAck(a[0], a[1], NO_SACK, 0, a[2], OWD, 0, 0));
            }
            if (f.sendDue(now)) {
                for (Segment seg : SenderFlowTest.pump(f, now)) {
                    bytes += seg.length();
                    acks.addLast(new long[] {now + 2 * OWD, seg.seq() + 1, now});
                }
            }
        }
        assertTrue(Math.abs(bytes - 1_000_000) <= 30_000, "the pacer's 500 kB/s over 2 s, not the window's 140: " + bytes);
        assertEquals(before, f.controller().cwnd(), 1.0, "the window itself waits for the hold's end");
    }
}
