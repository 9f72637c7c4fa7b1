package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The spike filter under the RTT estimate at the edges a cluster meets: a peer restarted after a short or a long
 * gap, a path whose RTT rose for good, a partition that healed, a frozen peer that answers its backlog, an
 * emulated WAN. Whatever the filter does, a peer with three answers is measured (the monitor's up needs three
 * samples and its failure detector, nothing of the filter). Time is a nanos counter the test advances.
 */
class RttFilterScenariosTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final long DOWN_AFTER = 5 * S;

    private static RttEstimator filtered() {
        return new RttEstimator(10, DOWN_AFTER, RttSpikeFilter.defaults());
    }

    /** Ten answers of {@code ms}, one a second from {@code fromNanos}; returns the time of the last. */
    private static long steady(RttEstimator e, double ms, long fromNanos) {
        for (int i = 0; i < 10; i++) {
            e.onSample(ms, fromNanos + i * S);
        }
        return fromNanos + 9 * S;
    }

    /** The other nodes' view: a restarted peer's cold answers (three spikes in a row: a level shift) against its old base. */
    @Test
    void restartedPeer_afterAShortGap_coldAnswersNeverReachTheEstimate() {
        RttEstimator e = filtered();
        long t = steady(e, 0.3, 0) + 20 * S;
        double[] cold = {22, 18, 25, 0.35, 0.3, 0.32};
        for (double ms : cold) {
            e.onSample(ms, t);
            assertTrue(e.isUp(t));
            assertEquals(0.3, e.estimateMs(), 0.03, "after " + ms + " ms");
            t += S;
        }
    }

    /** The restarted node's own view: it starts with nothing and is measured after three answers, cold or not. */
    @Test
    void restartedNode_freshEstimate_isUpAfterThreeAnswers_atTheWarmLevel() {
        RttEstimator e = filtered();
        double[] cold = {25, 19, 0.6, 0.4, 0.35};
        for (int i = 0; i < cold.length; i++) {
            e.onSample(cold[i], i * S);
            assertEquals(i >= 2, e.isUp(i * S), "after " + (i + 1) + " answers");
        }
        assertEquals(0.4, e.estimateMs(), 1e-9, "the median of 0.35, 0.4, 0.6: the cold 19 and 25 ms are spikes");
    }

    /** After more than the base window the old base is gone: the first answer is the base until a lower one comes. */
    @Test
    void restartedPeer_afterALongGap_theStaleBaseExpires() {
        RttEstimator e = filtered();
        long t = steady(e, 0.3, 0) + 100 * S;
        e.onSample(25, t);
        assertEquals(0.3, e.estimateMs(), 1e-9, "25 ms is the base for now, the retained 0.3 ms samples are under its line");
        e.onSample(0.4, t + S);
        e.onSample(0.45, t + 2 * S);
        assertEquals(0.3, e.estimateMs(), 1e-9);
        assertTrue(e.isUp(t + 2 * S));
    }

    /** A path whose RTT rose for good: three in a row restart the base, the median follows once they are most of the window. */
    @Test
    void pathRose_isAdopted_withinHalfTheWindowPlusOne() {
        RttEstimator e = filtered();
        long t = steady(e, 0.3, 0);
        for (int i = 1; i <= 6; i++) {
            e.onSample(40, t + i * S);
            if (i <= 2) {
                assertEquals(0.3, e.estimateMs(), 1e-9, i + " at 40 ms are spikes");
            }
        }
        assertEquals(40, e.estimateMs(), 1e-9, "6 of 10 samples (window / 2 + 1)");
    }

    /** A rise that straddles the old line (some answers under it) is followed by the answers under the line. */
    @Test
    void pathRose_justAboveTheOldLine_isFollowedByTheAnswersUnderIt() {
        RttEstimator e = filtered();
        long t = steady(e, 0.05, 0);
        double[] risen = {1.2, 1.0, 1.3, 1.05, 1.4, 1.0, 1.2, 1.0, 1.3, 1.0};
        for (int i = 0; i < risen.length; i++) {
            e.onSample(risen[i], t + (i + 1) * S);
        }
        assertEquals(1.0, e.estimateMs(), 1e-9, "the old 0.05 ms samples left the window");
        t += 70 * S; // the 0.05 ms base leaves the base window: the line is twice the new base plus 1 ms
        e.onSample(1.1, t);
        assertEquals(1.075, e.estimateMs(), 1e-9, "every retained answer counts again");
    }

    @Test
    void partitionHealed_theFirstAnswerMakesThePeerUp_atItsOldLevel() {
        RttEstimator e = filtered();
        long t = steady(e, 0.3, 0);
        t += 40 * S;
        assertFalse(e.isUp(t), "silent for 40 s");
        e.onSample(0.31, t);
        assertTrue(e.isUp(t));
        assertEquals(0.3, e.estimateMs(), 1e-9);
    }

    /**
     * A peer frozen for 15 s answers the pings it missed, newest last (15, 14, ... 1 s: what the prober measures);
     * its first answer to a fresh ping puts the estimate back at once. The plain median reads seconds.
     */
    @Test
    void frozenPeer_answersItsBacklog_theFirstFreshAnswerRestoresTheEstimate() {
        RttEstimator e = filtered();
        RttEstimator plain = new RttEstimator(10, DOWN_AFTER);
        long t = steady(e, 0.3, 0);
        steady(plain, 0.3, 0);
        t += 16 * S;
        for (int late = 15; late >= 1; late--) {
            e.onSample(late * 1000.0, t);
            plain.onSample(late * 1000.0, t);
            t += MS;
        }
        e.onSample(0.3, t);
        plain.onSample(0.3, t);
        assertEquals(0.3, e.estimateMs(), 1e-9);
        assertTrue(plain.estimateMs() > 1000, "the plain median: " + plain.estimateMs());
    }

    /** An emulated WAN of 252 ms with a few ms of jitter and a queued probe now and then reads the emulated RTT. */
    @Test
    void emulatedWan_readsTheEmulatedRtt() {
        RttEstimator e = filtered();
        double[] samples = {252.4, 253.1, 251.9, 640, 252.2, 256.8, 252.0, 252.5, 900, 251.8, 252.3, 254.0};
        for (int i = 0; i < samples.length; i++) {
            e.onSample(samples[i], i * S);
        }
        assertEquals(252.25, e.estimateMs(), 1e-9, "the 640 and 900 ms probes are left out");
    }
}
