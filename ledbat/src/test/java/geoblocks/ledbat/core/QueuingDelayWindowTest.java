package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The queue's level, rise and noise, driven by a fake clock (µs passed in). */
class QueuingDelayWindowTest {
    static final long RTT = 100_000;

    /** Feeds a sample every millisecond from {@code from} until {@code until} at {@code delay}; returns the time. */
    static long feed(QueuingDelayWindow w, long from, long until, long delay) {
        long now = from;
        for (; now < until; now += 1000) {
            w.add(now, delay, RTT, Long.MAX_VALUE);
        }
        return now;
    }

    @Test
    void rise_isTheNewLevelAboveTheLevelBeforeTheNewcomer_notAboveTheLastRound() {
        QueuingDelayWindow w = new QueuingDelayWindow();
        long now = feed(w, 0, 1_000_000, 50_000);
        assertEquals(0, w.rise());
        // a slow start's rounds: +6 ms for an RTT, then +12 ms
        now = feed(w, now, now + RTT, 56_000);
        assertEquals(6_000, w.rise());
        feed(w, now, now + RTT / 2, 62_000);
        assertEquals(12_000, w.rise(), "the sum of the rounds, not the last round's 6 ms");
    }

    @Test
    void rise_notMovedByDipsOrSpikesShorterThanHalfAQuarterRtt() {
        QueuingDelayWindow w = new QueuingDelayWindow();
        long now = feed(w, 0, 1_000_000, 50_000);
        for (int k = 0; k < 12; k++) {
            // our sender stalls: the queue drains by 30 ms for 10 ms, then a 10 ms burst 30 ms above
            now = feed(w, now, now + 10_000, 20_000);
            now = feed(w, now, now + 10_000, 80_000);
            now = feed(w, now, now + 80_000, 50_000);
            assertEquals(0, w.rise(), "at " + now);
        }
        assertEquals(0.0, w.noisePeakBefore(), "no noise either");
    }

    @Test
    void noise_isTheLargestRiseAsItStoodBeforeTheReferenceWindow_decaying() {
        QueuingDelayWindow w = new QueuingDelayWindow();
        long now = feed(w, 0, 1_000_000, 50_000);
        now = feed(w, now, now + RTT / 2, 60_000);               // a 10 ms excursion for half an RTT
        assertEquals(10_000, w.rise());
        long excursion = now;
        now = feed(w, now, now + RTT, 50_000);
        assertEquals(0.0, w.noisePeakBefore(), "within the reference window the excursion is not noise yet");
        now = feed(w, now, excursion + QueuingDelayWindow.REFERENCE_RTTS * RTT + RTT / 2, 50_000);
        double noise = w.noisePeakBefore();
        assertTrue(noise > 7_000 && noise < 10_000, "noise after 3 RTTs: " + noise);
        feed(w, now, now + 40 * RTT, 50_000);
        assertTrue(w.noisePeakBefore() < 100, "decays: " + w.noisePeakBefore());
    }

    @Test
    void noise_aRiseCountsOnlyUpToTheCallersCap() {
        QueuingDelayWindow capped = new QueuingDelayWindow();
        QueuingDelayWindow open = new QueuingDelayWindow();
        long now = 0;
        for (; now < 1_000_000; now += 1000) {                    // a slow start's queue: +200 ms
            long q = now < 500_000 ? 50_000 : 250_000;
            capped.add(now, q, RTT, 8_000);
            open.add(now, q, RTT, Long.MAX_VALUE);
        }
        for (; now < 1_400_000; now += 1000) {
            capped.add(now, 50_000, RTT, Long.MAX_VALUE);
            open.add(now, 50_000, RTT, Long.MAX_VALUE);
        }
        assertTrue(capped.noisePeakBefore() <= 8_000, "capped: " + capped.noisePeakBefore());
        assertTrue(open.noisePeakBefore() > 100_000, "uncapped: " + open.noisePeakBefore());
    }

    @Test
    void minOver_isTheSlidingMinimum() {
        QueuingDelayWindow w = new QueuingDelayWindow();
        w.add(0, 30, RTT, Long.MAX_VALUE);
        w.add(1000, 10, RTT, Long.MAX_VALUE);
        w.add(2000, 20, RTT, Long.MAX_VALUE);
        assertEquals(10, w.minOver(2000, 1500));
        assertEquals(20, w.minOver(2000, 500));
        assertEquals(20, w.minOver(2000, 0), "the newest sample counts always");
    }
}
