package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link HoldPacer}: trickle, share of the foreground, aging, bursts. Fake clock (µs). */
class HoldPacerTest {
    static final int MSS = 1400;
    static final long MS = 1_000;
    static final long S = 1_000_000;

    static HoldPacer pacer() {
        return new HoldPacer(MSS, 200 * MS, 0.03, 10 * S);
    }

    /** Sends full segments whenever allowed, every 5 ms from {@code from} to {@code to}; returns the bytes. */
    static long send(HoldPacer p, long from, long to) {
        long bytes = 0;
        for (long now = from; now < to; now += 5 * MS) {
            while (p.held(now) && p.mayStart(now)) {
                p.sent(now, MSS);
                bytes += MSS;
            }
        }
        return bytes;
    }

    @Test
    void aNewHold_tricklesOneSegmentPerTrickle_theFirstATrickleAfterItsStart() {
        HoldPacer p = pacer();
        p.hold(0, 2 * S, 0);
        assertTrue(p.held(0));
        assertFalse(p.mayStart(0), "nothing at once");
        assertFalse(p.mayStart(195 * MS));
        assertTrue(p.mayStart(205 * MS), "the first segment a trickle after the start");
        long bytes = send(p, 0, 2 * S);
        assertEquals(9, bytes / MSS, "one segment per 200 ms over 2 s (at 0.2, 0.4, ... 1.8 s)");
        assertFalse(p.held(2 * S));
    }

    @Test
    void heldForAForeground_theBackgroundKeepsItsShareOfIt() {
        HoldPacer p = pacer();
        p.hold(0, 4 * S, 2_500_000); // 20 Mbit/s of foreground
        assertEquals(75_000, p.rate(0), 1e-6, "3 % of 2.5 MB/s");
        long bytes = send(p, 0, 4 * S);
        assertTrue(Math.abs(bytes - 300_000) <= 2 * MSS, "75 kB/s over 4 s: " + bytes);
        p.hold(4 * S, 6 * S, 0); // the foreground's rate is not known in this report: the trickle
        assertEquals(MSS * 5.0, p.rate(4 * S), 1e-6);
    }

    @Test
    void aHoldThatLasts_agesItsFloorDoublesEveryAge_soItStarvesNothing() {
        HoldPacer p = pacer();
        long[] perAge = new long[4];
        for (int age = 0; age < 4; age++) {
            long from = age * 10 * S;
            for (long t = from; t < from + 10 * S; t += 1 * S) { // light foreground, reported every second
                p.hold(t, t + 2 * S, 1_000);
                perAge[age] += send(p, t, t + 1 * S);
            }
        }
        assertEquals(7_000 * 10, perAge[0], 2 * MSS, "the trickle for the first age");
        for (int age = 1; age < 4; age++) {
            assertEquals(2.0 * perAge[age - 1], perAge[age], 3 * MSS, "age " + age + " doubles: " + perAge[age]);
        }
        assertEquals(8 * 7_000.0, p.rate(30 * S), 1e-6);
    }

    @Test
    void aHoldThatEndedLongAgo_startsAfresh_aRunningOneKeepsItsAge() {
        HoldPacer p = pacer();
        p.hold(0, 2 * S, 0);
        p.hold(1 * S, 12 * S, 0); // extends: the same hold
        assertEquals(2 * 7_000.0, p.rate(11 * S), 1e-6, "aged once by 11 s");
        assertFalse(p.forgotten(21_999 * MS), "kept for an age after its end");
        assertTrue(p.forgotten(22 * S));
        p.hold(23 * S, 25 * S, 0); // an age after its end: a new hold
        assertEquals(7_000.0, p.rate(24 * S), 1e-6, "a new hold starts at the trickle");
        assertFalse(p.mayStart(23 * S), "and one segment in debt");
        p.hold(24 * S, 23 * S, 0);
        assertTrue(p.held(24_999 * MS) && !p.held(25 * S), "an earlier end does not shorten the hold");
    }

    @Test
    void foregroundThatComesAndGoes_keepsAgingTheHold_theBackgroundIsNotStarvedByPauses() {
        HoldPacer p = pacer();
        assertTrue(p.forgotten(0), "never held");
        // requests of 2 s with pauses of 3 s between them, for 60 s: holds of 2 s with breaks
        for (long t = 0; t < 60 * S; t += 5 * S) {
            p.hold(t, t + 2 * S, 1_000);
            assertFalse(p.mayStart(t), "each hold starts one segment in debt");
        }
        assertEquals(32 * 7_000.0, p.rate(55 * S), 1e-6, "the age runs from the first hold: 5 doublings by 55 s");
        long bytes = send(p, 55 * S, 57 * S);
        assertEquals(2 * 32 * 7_000, bytes, 2 * MSS, "2 s at 32 trickles");
    }

    @Test
    void noBurstAfterAPause_atMostTenMillisecondsOfTheRate() {
        HoldPacer p = pacer();
        p.hold(0, 10 * S, 10_000_000); // 300 kB/s share
        int burst = 0;
        long now = 5 * S; // nothing sent for 5 s (no data): the bucket did not fill for 5 s
        while (p.mayStart(now)) {
            p.sent(now, MSS);
            burst++;
        }
        assertEquals(3, burst, "10 ms of 300 kB/s is about two segments and a bit");
    }

    @Test
    void withoutAging_theFloorStaysTheTrickle() {
        HoldPacer p = new HoldPacer(MSS, 200 * MS, 0.03, 0);
        p.hold(0, 100 * S, 0);
        assertEquals(7_000.0, p.rate(99 * S), 1e-6);
    }

    @Test
    void badSettings_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HoldPacer(0, 200 * MS, 0.03, 0));
        assertThrows(IllegalArgumentException.class, () -> new HoldPacer(MSS, 0, 0.03, 0));
        assertThrows(IllegalArgumentException.class, () -> new HoldPacer(MSS, 200 * MS, 1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> new HoldPacer(MSS, 200 * MS, Double.NaN, 0));
        assertThrows(IllegalArgumentException.class, () -> new HoldPacer(MSS, 200 * MS, 0.03, -1));
    }
}
