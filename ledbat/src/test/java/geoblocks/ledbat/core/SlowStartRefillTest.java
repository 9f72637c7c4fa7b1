package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SlowStartRefillTest {
    static final long RTT = 100_000;   // µs
    static final long QUIET = 1_000;   // 1 ms: near zero (5 ms)

    /** Feeds ACKs every 10 ms on a quiet queue from {@code now} until a re-entry is due; returns its target. */
    static double untilDue(SlowStartRefill r, long[] now, double cwnd, long limitMicros) {
        long end = now[0] + limitMicros;
        for (; now[0] < end; now[0] += 10_000) {
            double back = r.due(now[0], RTT, cwnd, QUIET);
            if (back > 0) {
                return back;
            }
        }
        return 0;
    }

    @Test
    void due_afterAYield_twoQuietRttsPastTheHoldOff_backToTheWindowGivenUp() {
        SlowStartRefill r = new SlowStartRefill(2, 5_000);
        r.yielded(0, 800_000, true);
        long[] now = {10_000};
        assertEquals(0, untilDue(r, now, 80_000, 8 * RTT - 20_000), "not within 4 x 2 RTTs of the yield");
        assertEquals(800_000, untilDue(r, now, 80_000, 3 * RTT), 1e-9);
        assertEquals(1, r.reentries());
        assertEquals(0, r.due(now[0] + 10_000, RTT, 80_000, QUIET), "running, not owed twice");
    }

    @Test
    void due_notWhileTheQueueStays_norWithCwndAboveHalfTheOwedWindow_norWithNothingOwed() {
        SlowStartRefill r = new SlowStartRefill(2, 5_000);
        long[] now = {0};
        assertEquals(0, untilDue(r, now, 10_000, 20 * RTT), "nothing owed");
        r.yielded(now[0], 800_000, true);
        now[0] += 8 * RTT;
        for (long end = now[0] + 20 * RTT; now[0] < end; now[0] += 10_000) {
            assertEquals(0, r.due(now[0], RTT, 80_000, 6_000), "a 6 ms queue is not near zero");
        }
        assertEquals(0, untilDue(r, now, 400_000, 20 * RTT), "cwnd at half the owed window");
        r.yielded(now[0], 2_000, false);   // a minimal window given up: no hold-off, nothing more owed
        assertEquals(800_000, untilDue(r, now, 80_000, 3 * RTT), 1e-9);
    }

    @Test
    void cutShortReentry_stillOwesItsTarget_aCompletedOneOwesNothing() {
        SlowStartRefill r = new SlowStartRefill(2, 5_000);
        r.yielded(0, 800_000, true);
        long[] now = {8 * RTT};
        assertEquals(800_000, untilDue(r, now, 80_000, 3 * RTT), 1e-9);
        r.exitKept(120_000);   // a newcomer's queue ended the re-entry at 120 KB
        r.slowStartEnded();
        assertEquals(800_000, untilDue(r, now, 50_000, 3 * RTT), 1e-9, "the 800 KB are still owed");
        r.slowStartEnded();    // this one reached its target
        assertEquals(0, untilDue(r, now, 50_000, 20 * RTT), "nothing owed after a completed refill");
    }
}
