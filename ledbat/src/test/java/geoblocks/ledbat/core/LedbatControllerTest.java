package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 6817 section 2.4.2 controller behaviour, driven by a fake clock (µs passed in). */
class LedbatControllerTest {
    static final int MSS = 1400;
    static final long BASE = 5_000;       // one-way base delay, µs (any offset)
    static final long RTT = 20_000;

    static LedbatSettings settings(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        m.put("slow-start", false);
        m.put("multiplicative-decrease", false);   // the RFC 6817 controller exactly
        m.put("slow-start-reentry-rtts", 0);        // and none of the RTT-based rules
        m.put("yield-rise-ms", 0);
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return LedbatSettings.defaults(m);
    }

    static LedbatController controller(LedbatSettings s) {
        return new LedbatController(s, new BaseDelayHistory(s.baseHistoryMinutes));
    }

    /** Feeds one ACK of {@code bytes} with the given queuing delay while the window is fully used. */
    static void ack(LedbatController c, long now, long bytes, long queuingMicros) {
        c.onAck(now, bytes, BASE + queuingMicros, RTT + queuingMicros, (long) c.cwnd() + bytes);
    }

    static LedbatController withCwnd(LedbatSettings s, double target) {
        LedbatController c = controller(s);
        long now = 0;
        ack(c, now, 0, 0); // establishes the base delay
        while (c.cwnd() < target) {
            ack(c, now += 200, MSS, 0);
        }
        // tests go on from a fixed time (3 s for 100 MSS, which this reaches in about 1 s; 9 s for
        // 200 MSS, about 4 s), which must come later: the controller's clock is monotonic
        return c;
    }

    @Test
    void onAck_queueBelowTarget_growsWindowByGainOffTargetMssPerWindow() {
        LedbatController c = controller(settings());
        ack(c, 0, 0, 0);
        double before = c.cwnd();
        ack(c, 1000, MSS, 0);  // off_target = 1: cwnd += 1 * 1 * MSS * MSS / cwnd
        assertEquals(before + (double) MSS * MSS / before, c.cwnd(), 1e-6);
    }

    @Test
    void onAck_queueAboveTarget_shrinksWindowInProportionToOffTarget() {
        LedbatSettings s = settings();
        LedbatController a = withCwnd(s, 100 * MSS);
        LedbatController b = withCwnd(s, 100 * MSS);
        double start = a.cwnd();
        assertEquals(start, b.cwnd(), 1e-9);
        // fill the current-delay filter with the new delay, then one measured ACK each
        for (int i = 0; i < s.currentFilter; i++) {
            a.onAck(2_000_000 + i, 0, BASE + 150_000, -1, 0);
            b.onAck(2_000_000 + i, 0, BASE + 200_000, -1, 0);
        }
        ack(a, 2_100_000, MSS, 150_000);   // off_target = -0.5
        ack(b, 2_100_000, MSS, 200_000);   // off_target = -1.0
        double da = start - a.cwnd();
        double db = start - b.cwnd();
        assertTrue(da > 0, "cwnd must shrink above target");
        assertEquals(2.0, db / da, 1e-6);
        assertEquals(0.5 * MSS * MSS / start, da, 1e-6);
    }

    @Test
    void onAck_tinyOffTarget_stillMovesWindow_noIntegerFreeze() {
        LedbatController c = withCwnd(settings(), 50 * MSS);
        for (int i = 0; i < 8; i++) {
            c.onAck(3_000_000 + i, 0, BASE + 99_000, -1, 0);
        }
        double before = c.cwnd();
        ack(c, 3_100_000, 100, 99_000);     // off_target = 0.01, 100 bytes
        assertTrue(c.cwnd() > before);
    }

    @Test
    void onAck_gainDecrease_yieldsFasterWithoutChangingIncrease() {
        LedbatController rfc = withCwnd(settings(), 100 * MSS);
        LedbatController fast = withCwnd(settings("gain-decrease", 10), 100 * MSS);
        double start = rfc.cwnd();
        for (int i = 0; i < 8; i++) {
            rfc.onAck(2_000_000 + i, 0, BASE + 200_000, -1, 0);
            fast.onAck(2_000_000 + i, 0, BASE + 200_000, -1, 0);
        }
        ack(rfc, 2_100_000, MSS, 200_000);
        ack(fast, 2_100_000, MSS, 200_000);
        assertEquals(10.0, (start - fast.cwnd()) / (start - rfc.cwnd()), 1e-6);
    }

    @Test
    void onAck_appLimited_capsWindowAtFlightPlusAllowedIncrease() {
        LedbatController c = controller(settings());
        c.onAck(0, 0, BASE, RTT, 0);
        for (int i = 1; i < 1000; i++) {
            c.onAck(i * 1000L, MSS, BASE, RTT, 2 * MSS);  // only 2 MSS ever in flight
        }
        assertEquals(3.0 * MSS, c.cwnd(), 1e-9);
    }

    @Test
    void onAck_hugeQueue_minimumWindowHolds() {
        LedbatController c = withCwnd(settings(), 10 * MSS);
        for (int i = 0; i < 10_000; i++) {
            ack(c, 4_000_000 + i * 100L, MSS, 5_000_000);
        }
        assertEquals(2.0 * MSS, c.cwnd(), 1e-9);
        c.onLoss(9_000_000);
        assertEquals(2.0 * MSS, c.cwnd(), 1e-9);
    }

    @Test
    void onLoss_halvesWindowAtMostOncePerRtt() {
        LedbatController c = withCwnd(settings(), 64 * MSS);
        double w = c.cwnd();
        long now = 10_000_000;
        assertTrue(c.onLoss(now));
        assertEquals(w / 2, c.cwnd(), 1e-9);
        long srtt = c.rto().srtt();
        assertFalse(c.onLoss(now + srtt - 1));
        assertEquals(w / 2, c.cwnd(), 1e-9);
        assertTrue(c.onLoss(now + srtt));
        assertEquals(w / 4, c.cwnd(), 1e-9);
    }

    @Test
    void onTimeout_windowToOneMss_ctoDoubles() {
        LedbatController c = withCwnd(settings(), 30 * MSS);
        long cto = c.rto().cto();
        c.onTimeout(5_000_000);
        assertEquals(MSS, c.cwnd(), 1e-9);
        assertEquals(2 * cto, c.rto().cto());
        c.onTimeout(6_000_000);
        assertEquals(4 * cto, c.rto().cto());
    }

    @Test
    void onTimeout_beforeAnyRttSample_keepsSlowStartUnbounded() {
        LedbatController c = controller(settings("slow-start", true));
        c.onTimeout(1_000_000);                       // the first packets were never acknowledged
        assertEquals(MSS, c.cwnd(), 1e-9);
        assertTrue(c.inSlowStart());
        double w = c.cwnd();
        for (int i = 0; i < 6; i++) {                 // then the path answers: doubling per RTT-worth of ACKs
            c.onAck(2_000_000 + i * 1000, (long) w, BASE, RTT, (long) w);
            w = c.cwnd();
        }
        assertTrue(c.inSlowStart(), "no threshold from a timeout without an RTT sample");
        assertEquals(64 * MSS, c.cwnd(), 1e-9);
    }

    @Test
    void onTimeout_afterRttSamples_capsSlowStartAtHalfTheWindow() {
        LedbatController c = withCwnd(settings("slow-start", true), 40 * MSS);
        c.onTimeout(5_000_000);
        double w = c.cwnd();
        for (int i = 0; i < 8; i++) {
            c.onAck(6_000_000 + i * 1000, (long) w, BASE, RTT, (long) w);
            w = c.cwnd();
        }
        assertFalse(c.inSlowStart());
        assertTrue(c.cwnd() <= 20 * MSS + 2 * MSS, "slow start stopped near half the old window: " + c.cwnd());
    }

    @Test
    void slowStart_doublesUntilThreeQuartersOfTarget() {
        LedbatController c = controller(settings("slow-start", true));
        c.onAck(0, 0, BASE, RTT, 0);
        double w = c.cwnd();
        c.onAck(1000, (long) w, BASE, RTT, (long) w);
        assertEquals(2 * w, c.cwnd(), 1e-9);
        assertTrue(c.inSlowStart());
        for (int i = 0; i < 8; i++) {
            c.onAck(2000 + i, 0, BASE + 80_000, -1, 0);   // 80 ms > 75 ms = 3/4 TARGET
        }
        c.onAck(3000, MSS, BASE + 80_000, RTT, (long) c.cwnd());
        assertFalse(c.inSlowStart());
    }

    @Test
    void multiplicativeDecrease_rfcIncreaseButDecreaseProportionalToWindow() {
        LedbatSettings s = settings("multiplicative-decrease", true);
        LedbatController small = withCwnd(s, 20 * MSS);
        LedbatController big = withCwnd(s, 200 * MSS);
        double ws = small.cwnd();
        double wb = big.cwnd();
        for (int i = 0; i < 8; i++) {
            small.onAck(9_000_000 + i, 0, BASE + 120_000, -1, 0);
            big.onAck(9_000_000 + i, 0, BASE + 120_000, -1, 0);
        }
        ack(small, 9_100_000, MSS, 120_000);   // delay/target - 1 = 0.2: GAIN - 0.2 W per RTT, spread per ACK
        ack(big, 9_100_000, MSS, 120_000);
        assertEquals(0.2 * MSS - (double) MSS * MSS / ws, ws - small.cwnd(), 1e-6);
        assertEquals(0.2 * MSS - (double) MSS * MSS / wb, wb - big.cwnd(), 1e-6); // per RTT ~ 0.2 W
        LedbatController grow = withCwnd(s, 20 * MSS);
        double g = grow.cwnd();
        ack(grow, 9_100_000, MSS, 0);
        assertEquals(g + (double) MSS * MSS / g, grow.cwnd(), 1e-6);   // increase unchanged (RFC)
    }

    @Test
    void ledbatPlusPlus_decreaseIsMultiplicativeAndCappedAtHalfPerRtt() {
        LedbatSettings s = settings("mode", "ledbat++", "target-ms", 60);
        LedbatController c = controller(s);
        c.onAck(0, 0, BASE, RTT, 0);
        for (long now = 1000; c.cwnd() < 100 * MSS; now += 1000) {
            c.onAck(now, MSS, BASE, RTT, (long) c.cwnd() + MSS);
        }
        double w = c.cwnd();
        // one RTT worth of ACKs at a queuing delay of 5 x target: the decrease is capped at W/2
        long now = 5_000_000;
        for (int i = 0; i < 8; i++) {
            c.onAck(now++, 0, -1, RTT + 300_000, 0);
        }
        double acked = 0;
        while (acked < w) {
            c.onAck(now++, MSS, -1, RTT + 300_000, (long) c.cwnd() + MSS);
            acked += MSS;
        }
        assertTrue(c.cwnd() < w * 0.75, "multiplicative decrease expected, cwnd " + c.cwnd() + " of " + w);
        assertTrue(c.cwnd() >= w / 2 * 0.99 - MSS, "decrease must be capped near W/2 per RTT: " + c.cwnd());
    }

    @Test
    void ledbatPlusPlus_periodicSlowdown_holdsMinCwndTwoRttsThenRecovers() {
        LedbatSettings s = settings("mode", "ledbat++", "slow-start", true, "target-ms", 60);
        LedbatController c = controller(s);
        long now = 0;
        c.onAck(now, 0, -1, RTT, 0);
        while (c.inSlowStart()) {      // slow start until the queue reaches 3/4 TARGET (45 ms)
            long q = c.cwnd() > 40 * MSS ? 50_000 : 0;
            c.onAck(now += 1000, MSS, -1, RTT + q, (long) c.cwnd());
        }
        double before = c.cwnd();
        long exit = now;
        long srtt = c.rto().srtt();
        assertEquals(0, c.slowdowns());
        c.onAck(exit + 2 * srtt - 1, MSS, -1, srtt, (long) c.cwnd());
        assertEquals(0, c.slowdowns());                                  // the first comes 2 RTTs after exit
        long start = exit + 2 * srtt + 1;
        c.onAck(start, MSS, -1, srtt, (long) c.cwnd());
        assertEquals(1, c.slowdowns());
        assertEquals(2.0 * MSS, c.cwnd(), 1e-9);
        long hold = 2 * c.rto().srtt();
        c.onAck(start + hold - 1, MSS, -1, srtt, 2 * MSS);                // still holding for 2 RTTs
        assertEquals(2.0 * MSS, c.cwnd(), 1e-9);
        now = start + hold;
        c.onAck(now, MSS, -1, srtt, 2 * MSS);                             // hold over: slow start back
        assertTrue(c.inSlowStart());
        while (c.inSlowStart()) {
            c.onAck(now += 1000, MSS, -1, srtt, (long) c.cwnd());
        }
        assertEquals(before, c.cwnd(), MSS);                                // back to the cwnd before
        long recovered = now;
        long duration = recovered - start;
        c.onAck(recovered + 9 * duration - 1000, MSS, -1, RTT, (long) c.cwnd());
        assertEquals(1, c.slowdowns());                                      // not yet: 9 x duration
        c.onAck(recovered + 9 * duration + 1000, MSS, -1, RTT, (long) c.cwnd());
        assertEquals(2, c.slowdowns());
    }

    // --- the RTT-based rules: slow-start re-entry, yielding to a rising queue, restart ----------

    /** A controller in congestion avoidance at about {@code w} bytes, fed ACKs every ms at queue {@code q}. */
    static long steady(LedbatController c, long now, long until, long q) {
        for (; now < until; now += 1000) {
            ack(c, now, MSS, q);
        }
        return now;
    }

    static LedbatSettings rules(Object... kv) {
        Object[] base = {"slow-start", true, "multiplicative-decrease", true, "slow-start-reentry-rtts", 2,
            "yield-rise-ms", 5, "yield-factor", 0.1};
        Object[] all = Arrays.copyOf(base, base.length + kv.length);
        System.arraycopy(kv, 0, all, base.length, kv.length);
        return settings(all);
    }

    /** Slow start from the first ACK, an ACK per ms on an empty queue for {@code rampMillis} ms; returns the time. */
    static long rampSlowStart(LedbatController c, long rampMillis) {
        c.onAck(0, 0, BASE, RTT, 0);
        long now = 1000;
        for (; now <= rampMillis * 1000; now += 1000) {
            ack(c, now, MSS, 0);
        }
        return now;
    }

    /** Slow start from the first ACK until the queue reaches 80 ms (> 3/4 TARGET); returns the time. */
    static long slowStartToExit(LedbatController c, long rampMillis) {
        long now = rampSlowStart(c, rampMillis);
        for (int i = 0; c.inSlowStart(); i++) {
            assertTrue(i < 100, "slow start did not end");
            ack(c, now += 1000, MSS, 80_000);
        }
        return now;
    }

    @Test
    void slowStartExit_keepsTheFlightThatHoldsTheMeasuredQueue_butAtLeastHalf() {
        // one MSS acknowledged per ms (1.4 bytes/µs) for 400 ms: slow start reaches ~400 MSS
        LedbatController c = controller(rules());
        long now = rampSlowStart(c, 400);
        double atExit = 0;
        while (c.inSlowStart()) {
            atExit = c.cwnd();
            ack(c, now += 1000, MSS, 80_000);
        }
        // a queue above 3/4 TARGET for a quarter RTT (25 ms) ends slow start; the window becomes
        // rate 1.4 B/µs x (base RTT 20 ms + 3/4 TARGET) = 133 KB, but never less than half the ~600 KB
        assertTrue(atExit > 2 * 150_000, "slow start reached " + atExit);
        assertEquals(Math.max(1.4 * (RTT + 75_000), (atExit + MSS) / 2), c.cwnd(), 0.02 * atExit);
        // ten times the rate: 1.4 MB would hold the queue, more than the window: it stays
        LedbatController f = controller(rules());
        f.onAck(0, 0, BASE, RTT, 0);
        now = 100;
        for (int i = 0; i < 400; i++, now += 100) {            // 14 bytes/µs
            ack(f, now, MSS, 0);
        }
        double before = 0;
        while (f.inSlowStart()) {
            before = f.cwnd();
            ack(f, now += 100, MSS, 80_000);
        }
        assertTrue(before < 14.0 * (RTT + 80_000));
        assertEquals(before, f.cwnd(), 1e-6);
    }

    @Test
    void slowStartReentry_afterTheWindowCollapsedBelowHalfOfWhatSlowStartKept() {
        LedbatController c = controller(rules("yield-rise-ms", 0));
        long now = slowStartToExit(c, 200);
        double kept = c.cwnd();
        now = steady(c, now, now + 100_000, 80_000);           // the overshoot drains (no decrease yet)
        now = steady(c, now, now + 1_000_000, 300_000);        // then a long high queue: multiplicative decrease
        assertTrue(c.cwnd() < kept / 2, "collapsed to " + c.cwnd() + " of " + kept);
        for (int i = 0; c.slowStartReentries() == 0; i++) {
            assertTrue(i < 100, "no re-entry on an empty queue after a collapse");
            ack(c, now += 1000, MSS, 0);
        }
        assertTrue(c.inSlowStart());
        for (now += 1000; c.inSlowStart(); now += 1000) {
            ack(c, now, (long) (c.cwnd() / 8), 0);
        }
        assertEquals(kept, c.cwnd(), 1, "refilled to the window slow start kept");
    }

    @Test
    void slowStartExit_notOnTheMomentaryQueueOfABurst() {
        LedbatController c = controller(rules());
        c.onAck(0, 0, BASE, RTT, 0);
        long now = 1000;
        for (int round = 0; round < 20; round++) {              // a 15 ms spike of 90 ms every 100 ms
            for (int i = 0; i < 100; i++) {
                ack(c, now += 1000, MSS, i < 15 ? 90_000 : 0);
            }
        }
        assertTrue(c.inSlowStart(), "a burst's queue that drains within a quarter RTT is no full link");
    }

    /** Slow start, congestion avoidance at 20 ms, then a flow arrives (+20 ms) and we yield; returns the time. */
    static long yieldToANewFlow(LedbatController c) {
        long now = slowStartToExit(c, 200);
        now = steady(c, now, now + 1_000_000, 20_000);
        return arrive(c, now);
    }

    /** A flow arrives (+20 ms over a 20 ms queue) until we yield; returns the time. */
    static long arrive(LedbatController c, long now) {
        for (int i = 0; c.yields() == 0; i++) {
            assertTrue(i < 200, "no yield");
            ack(c, now += 1000, MSS, 40_000);
        }
        return now;
    }

    @Test
    void slowStartReentry_afterAYieldAndTwoRttsOfNearEmptyQueue_backToTheWindowBefore() {
        LedbatController c = controller(rules());
        long now = slowStartToExit(c, 200);
        now = steady(c, now, now + 1_000_000, 20_000);
        double before = c.cwnd();
        now = arrive(c, now);
        assertEquals(0.1 * before, c.cwnd(), 0.05 * before);
        now = steady(c, now, now + 800_000, 60_000);          // the other flow keeps a queue: no re-entry
        assertFalse(c.inSlowStart());
        long quiet = now + 1000;                               // it leaves: RTT = 21 ms from here
        long rtt = RTT + 1_000;
        ack(c, quiet, MSS, 1_000);
        now = quiet;
        while (now < quiet + 2 * rtt - 1000) {
            ack(c, now += 1000, MSS, 1_000);                  // 1 ms: at most near-zero-delay-ms (5)
            assertFalse(c.inSlowStart(), "re-entered after only " + (now - quiet) + " µs");
        }
        ack(c, quiet + 2 * rtt, MSS, 1_000);
        assertTrue(c.inSlowStart(), "two RTTs of a near-empty queue: slow start again");
        assertEquals(1, c.slowStartReentries());
        assertTrue(c.cwnd() >= before / LedbatController.RESTART_DIVISOR - 1,
                "restarts from 1/8 of the window before the yield: " + c.cwnd() + " of " + before);
        double w = c.cwnd();
        ack(c, quiet + 2 * rtt + 1000, (long) w, 0);
        assertEquals(2 * w, c.cwnd(), 1, "slow start: cwnd grows by what is acknowledged");
        for (now = quiet + 2 * rtt + 2000; c.inSlowStart(); now += 1000) {
            ack(c, now, (long) (c.cwnd() / 8), 0);
        }
        assertEquals(before, c.cwnd(), MSS, "slow start ends at the window held before the yield");
    }

    @Test
    void slowStartReentry_cutShortByANewFlow_stillRefillsTheWindowBeforeTheFirstYield() {
        LedbatController c = controller(rules());
        long now = slowStartToExit(c, 200);
        now = steady(c, now, now + 1_000_000, 20_000);
        double before = c.cwnd();
        now = arrive(c, now);
        now = steady(c, now, now + 800_000, 60_000);          // the first flow's queue
        for (int i = 0; c.slowStartReentries() == 0; i++) {   // it leaves: re-entry from 1/8
            assertTrue(i < 200, "no re-entry after the first flow left");
            ack(c, now += 1000, MSS, 1_000);
        }
        assertTrue(c.inSlowStart());
        // a second flow arrives while the re-entered slow start is still far from its target: its
        // queue (80 ms, past 3/4 TARGET) ends that slow start at a fraction of the window before
        for (int i = 0; c.inSlowStart(); i++) {
            assertTrue(i < 100, "slow start did not end on the newcomer's queue");
            ack(c, now += 1000, MSS, 80_000);
        }
        double cutShort = c.cwnd();
        assertTrue(cutShort < before / 2, "cut short at " + cutShort + " of " + before);
        now = steady(c, now, now + 100_000, 80_000);           // the exit's overshoot drains
        now = steady(c, now, now + 1_000_000, 300_000);        // the newcomer stays: multiplicative decrease
        assertTrue(c.cwnd() < cutShort, "decreased under the newcomer's queue: " + c.cwnd());
        // it leaves: slow start again, and this time all the way back to the window before the first yield
        for (int i = 0; c.slowStartReentries() == 1; i++) {
            assertTrue(i < 200, "no re-entry after the second flow left");
            ack(c, now += 1000, MSS, 1_000);
        }
        assertTrue(c.inSlowStart());
        for (now += 1000; c.inSlowStart(); now += 1000) {
            ack(c, now, (long) (c.cwnd() / 8), 0);
        }
        assertEquals(before, c.cwnd(), MSS, "refilled to the window before the first yield, not to "
                + cutShort + " where the cut-short slow start ended");
    }

    @Test
    void slowStartReentry_notWhileTheQueueStays_notWhenOff_notWithoutAYieldOrCollapse() {
        LedbatController c = controller(rules());
        long now = yieldToANewFlow(c);
        steady(c, now, now + 2_000_000, 6_000);                // 6 ms > near-zero-delay-ms for 50+ RTTs
        assertFalse(c.inSlowStart());
        assertEquals(0, c.slowStartReentries());

        LedbatController off = controller(rules("slow-start-reentry-rtts", 0));
        now = yieldToANewFlow(off);
        steady(off, now, now + 2_000_000, 0);
        assertEquals(0, off.slowStartReentries());

        // an empty queue alone is no reason: slow start again only to refill room a yield gave away
        // or a window that fell below half of what slow start kept
        LedbatController calm = controller(rules("yield-rise-ms", 0));
        now = slowStartToExit(calm, 200);
        steady(calm, now, now + 2_000_000, 0);
        assertFalse(calm.inSlowStart());
        assertEquals(0, calm.slowStartReentries());
    }

    @Test
    void yield_queueRisesFasterThanWeCouldRaiseIt_cutsWindowOncePerRtt() {
        LedbatSettings s = rules("slow-start", false, "slow-start-reentry-rtts", 0);
        LedbatController c = withCwnd(s, 100 * MSS);
        long now = steady(c, 3_000_000, 3_300_000, 0);         // an empty queue, RTT 20 ms
        double w = c.cwnd();
        assertEquals(0, c.yields());
        // another flow's slow start: +10 ms, sustained for longer than a quarter RTT (RTT now 30 ms)
        long rise = now;
        while (c.yields() == 0 && now < rise + 40_000) {
            ack(c, now += 1000, MSS, 10_000);
        }
        assertEquals(1, c.yields());
        assertTrue(now - rise >= (RTT + 10_000) / 4, "must wait for a sustained rise, cut after " + (now - rise));
        assertEquals(0.1 * w, c.cwnd(), 0.02 * w);
        double cut = c.cwnd();
        long yieldAt = now;
        while (now < yieldAt + RTT + 5_000) {                  // less than an RTT (30 ms) later
            ack(c, now += 1000, MSS, 20_000 + (now - yieldAt));
        }
        assertEquals(1, c.yields(), "at most one cut per RTT");
        assertTrue(c.cwnd() < 2 * cut, "no second cut, but no jump either: " + c.cwnd());
    }

    @Test
    void yield_ignoresHiccupsShorterThanAQuarterRtt_andOurOwnGrowth() {
        LedbatSettings s = rules("slow-start", false, "slow-start-reentry-rtts", 0);
        LedbatController c = withCwnd(s, 100 * MSS);
        long now = steady(c, 3_000_000, 3_300_000, 0);
        for (int i = 0; i < 4; i++) {                          // 4 ms of samples 40 ms late (a receiver stall)
            ack(c, now += 1000, MSS, 40_000);
        }
        now = steady(c, now + 1000, now + 200_000, 0);
        for (int k = 0; k < 40; k++) {                         // the queue creeps up 1 ms per RTT
            now = steady(c, now, now + RTT + k * 1000L, k * 1000L);
        }
        assertEquals(0, c.yields());
    }

    @Test
    void yield_toANewcomersSlowStart_whoseEveryRoundAddsLessThanTheRiseButWhoseSumDoesNot() {
        LedbatSettings s = rules("slow-start", false, "slow-start-reentry-rtts", 0);
        LedbatController c = withCwnd(s, 100 * MSS);
        long now = steady(c, 3_000_000, 3_300_000, 0);
        // a newcomer doubling per RTT adds 3, then 3 more, then 6 ms (10, 20, 40 packets at a slow
        // link): no round rises by the 5 ms of yield-rise-ms over the round before, the sum does
        long start = now;
        now = steady(c, now, now + 24_000, 3_000);
        now = steady(c, now, now + 27_000, 6_000);
        assertEquals(1, c.yields(), "yielded once the queue stood 6 ms above the level before the newcomer");
        assertTrue(now - start > 24_000, "not before the sum passed 5 ms");
        now = steady(c, now, now + 10_000, 12_000);
        assertTrue(c.cwnd() < 20 * MSS, "cut to a tenth: " + c.cwnd() / MSS + " MSS");
    }

    @Test
    void yield_notToTheQueueOurOwnGrowthBuilds_onASlowLink() {
        // a link of 4 MSS per base RTT (2.2 Mbit/s at 20 ms): each MSS our window grows by adds
        // 5 ms of queue, 15 ms over the three RTTs the rise is measured against
        LedbatSettings s = rules("slow-start", false, "slow-start-reentry-rtts", 0);
        LedbatController c = withCwnd(s, 4 * MSS);
        double bdp = 4 * MSS;
        double bytesPerMicro = bdp / RTT;
        long now = 2_000_000;
        while (now < 4_000_000) {
            long q = (long) (Math.max(0, c.cwnd() - bdp) / bytesPerMicro);
            ack(c, now, MSS, q);
            now += (long) (MSS / bytesPerMicro);             // ACKs at the link's rate
        }
        long q = (long) ((c.cwnd() - bdp) / bytesPerMicro);
        assertTrue(q > 30_000, "the window grew a queue of " + q / 1000 + " ms, 5 ms per MSS");
        assertEquals(0, c.yields(), "our own growth is not another flow");
    }

    @Test
    void yield_seesANewcomersFirstRound_evenAfterOurOwnSlowStartOverfilledTheQueue() {
        LedbatController c = controller(rules("slow-start-reentry-rtts", 0));
        long now = rampSlowStart(c, 100);
        for (int i = 0; i < 40; i++) {                        // slow start overshoots to a 300 ms queue
            ack(c, now += 1000, MSS, 300_000);
        }
        assertFalse(c.inSlowStart());
        now = steady(c, now, now + 1_200_000, 20_000);       // settles: 30 RTTs (of 40 ms) of a steady queue
        assertEquals(0, c.yields());
        long arrival = now;
        while (c.yields() == 0 && now < arrival + 200_000) {  // a newcomer's first round: +8 ms
            ack(c, now += 1000, MSS, 28_000);
        }
        assertEquals(1, c.yields(), "an 8 ms rise is another flow: our own slow start added at most 40 ms to the noise");
    }

    @Test
    void slowStart_holdsTheWindowWhileTheQueueIsPastThreeQuartersOfTarget_butEndsOnlyOnItsMinimum() {
        LedbatController c = controller(rules("slow-start-reentry-rtts", 2));
        long now = rampSlowStart(c, 100);
        double w = c.cwnd();
        // the queue is past 3/4 TARGET, but a dip within the last quarter RTT keeps its minimum
        // below: slow start goes on, without growing
        ack(c, now += 1000, MSS, 10_000);
        for (int i = 0; i < 20; i++) {
            ack(c, now += 1000, MSS, 90_000);
        }
        assertTrue(c.inSlowStart(), "the quarter-RTT minimum (10 ms) has not reached 75 ms");
        // the current delay is the minimum of the last 4 samples (current-filter): the ACK at 10 ms
        // and the 3 after it grew the window, the other 17 did not
        assertEquals(w + 4 * MSS, c.cwnd(), 1e-6);
        for (int i = 0; c.inSlowStart(); i++) {
            assertTrue(i < 100, "slow start did not end");
            ack(c, now += 1000, MSS, 90_000);
        }
    }

    @Test
    void yield_notWhileSlowStartsLastDoublingSettles() {
        LedbatController c = controller(rules("slow-start-reentry-rtts", 0));
        long exit = slowStartToExit(c, 100);
        long rtt = RTT + 80_000;
        long now = exit;
        while (now < exit + (LedbatController.SETTLE_RTTS - 1) * rtt) {   // dips and rises while it settles
            ack(c, now += 1000, MSS, ((now - exit) / 20_000) % 2 == 0 ? 60_000 : 80_000);
        }
        assertEquals(0, c.yields());
    }

    @Test
    void slowStartReentry_notWithinTheHoldOffAfterTheYield() {
        LedbatController c = controller(rules());
        long y = yieldToANewFlow(c);
        // the queue is empty again at once, but the newcomer may still be ramping up into the room
        // we made: no re-entry for 4 x slow-start-reentry-rtts RTTs after the yield
        long now = steady(c, y + 1000, y + 8 * RTT - 1000, 0);
        assertEquals(0, c.slowStartReentries(), "re-entered during the hold-off");
        for (int i = 0; c.slowStartReentries() == 0; i++) {
            assertTrue(i < 12 * RTT / 1000, "no re-entry after the hold-off");
            ack(c, now += 1000, MSS, 0);
        }
        assertTrue(now >= y + 8 * RTT + 2 * RTT, "hold-off, then two RTTs of an empty queue: " + (now - y));
    }

    @Test
    void ledbatPlusPlus_isTheDraftsController_withoutTheRttBasedRules() {
        LedbatController c = controller(rules("mode", "ledbat++", "target-ms", 60));
        long now = 0;
        c.onAck(now, 0, -1, RTT, 0);
        for (int i = 0; i < 3000; i++) {
            long q = (i / 200) % 2 == 0 ? 0 : 30_000;          // rises and empty queues alike
            c.onAck(now += 1000, MSS, -1, RTT + q, (long) c.cwnd());
        }
        assertEquals(0, c.yields());
        assertEquals(0, c.slowStartReentries());
    }
}
