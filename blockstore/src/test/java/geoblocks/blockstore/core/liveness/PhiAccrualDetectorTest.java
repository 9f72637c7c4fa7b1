package geoblocks.blockstore.core.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PhiAccrualDetectorTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    /** The node's defaults: probe-interval 1 s, down-after 5 s, failure-detector defaults. */
    private static final DetectorSettings SETTINGS = DetectorSettings.DEFAULTS;

    private static PhiAccrualDetector detector() {
        return new PhiAccrualDetector(SETTINGS, 1 * S, 5 * S);
    }

    @Test
    void neverHeard_isDown() {
        PhiAccrualDetector d = detector();
        assertFalse(d.isUp(0));
        assertEquals(Double.POSITIVE_INFINITY, d.phi(0));
    }

    @Test
    void regularPeer_fallsSilent_isDownAtDownAfter() {
        PhiAccrualDetector d = detector();
        long t = 0;
        for (int i = 0; i < 120; i++, t += S) {
            d.heard(t);
            assertTrue(d.isUp(t + S - 1), "up between heartbeats, at " + t);
        }
        long last = t - S;
        assertTrue(d.isUp(last + 5 * S - 1), "silent for less than down-after: still up");
        assertFalse(d.isUp(last + 5 * S), "a regular peer silent for down-after is down");
    }

    /**
     * A busy peer whose probe answers come late and irregularly (gaps of 0.5 to 8 s, no other
     * traffic): a fixed 5 s timeout would call it down again and again; the detector learns the
     * spread and never does. Once it falls silent it is still down within max-silence.
     */
    @Test
    void busyPeer_lateIrregularAnswers_isNeverDown_butSilenceStillCounts() {
        PhiAccrualDetector d = detector();
        Random random = new Random(42);
        long t = 0;
        d.heard(t);
        // warm-up: the window (100 gaps) fills with the busy peer's gaps
        for (int i = 0; i < 100; i++) {
            t += 500 * MS + (long) (random.nextDouble() * 7_500) * MS;
            d.heard(t);
        }
        int longGaps = 0;
        for (int i = 0; i < 1_000; i++) {
            long gap = 500 * MS + (long) (random.nextDouble() * 7_500) * MS;
            if (gap > 5 * S) {
                longGaps++;
            }
            for (long at = t; at < t + gap; at += 100 * MS) {
                assertTrue(d.isUp(at), "busy peer called down " + (at - t) / MS + " ms after its last message");
            }
            t += gap;
            d.heard(t);
        }
        assertTrue(longGaps > 100, "the run has gaps a 5 s timeout would not tolerate: " + longGaps);
        long last = t;
        assertFalse(d.isUp(last + SETTINGS.maxSilenceMs() * MS), "silent for max-silence: down");
        long downAt = firstDown(d, last);
        assertTrue(downAt > 8 * S && downAt <= SETTINGS.maxSilenceMs() * MS,
                "down after " + downAt / MS + " ms of silence");
    }

    /** A peer whose probe answers stop while its other messages (data, acknowledgements) flow is up. */
    @Test
    void busyPeer_noProbeAnswers_otherTrafficFlowing_isUp() {
        PhiAccrualDetector d = detector();
        long t = 0;
        for (int i = 0; i < 10; i++, t += S) {
            d.heard(t); // probe answers
        }
        for (long end = t + 120 * S; t < end; t += 50 * MS) {
            d.heard(t); // only file-protocol / LEDBAT messages, every 50 ms
            assertTrue(d.isUp(t + 49 * MS));
        }
        long last = t - 50 * MS;
        assertTrue(d.isUp(last + 5 * S - 1));
        assertFalse(d.isUp(last + 5 * S), "silent for down-after after a stream of messages: down");
    }

    @Test
    void spreadOfMaxSilence_stillDownAtMaxSilence() {
        PhiAccrualDetector d = detector();
        long t = 0;
        for (int i = 0; i < 200; i++) {
            d.heard(t);
            t += (i % 2 == 0 ? 1 : 29) * S;
        }
        long last = t - 29 * S;
        assertTrue(d.isUp(last + 29 * S), "phi tolerates the learnt 29 s gaps");
        assertFalse(d.isUp(last + SETTINGS.maxSilenceMs() * MS), "but not max-silence");
    }

    @Test
    void staleHeartbeat_isIgnored() {
        PhiAccrualDetector d = detector();
        d.heard(10 * S);
        d.heard(9 * S);
        assertEquals(10 * S, d.lastHeardNanos());
        assertEquals(1 * S, d.meanGapNanos(), 1, "no gap added");
    }

    @Test
    void badSettings_areRefusedWithTheValue() {
        assertThrows(IllegalArgumentException.class, () -> new DetectorSettings(0, 500, 100, 30_000));
        assertThrows(IllegalArgumentException.class, () -> new DetectorSettings(8, 0, 100, 30_000));
        assertThrows(IllegalArgumentException.class, () -> new DetectorSettings(8, 500, 1, 30_000));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PhiAccrualDetector(new DetectorSettings(8, 500, 100, 4_000), S, 5 * S));
        assertTrue(e.getMessage().contains("5000 ms"), e.getMessage());
    }

    private static long firstDown(PhiAccrualDetector d, long last) {
        for (long s = 0; ; s += 10 * MS) {
            if (!d.isUp(last + s)) {
                return s;
            }
        }
    }
}
