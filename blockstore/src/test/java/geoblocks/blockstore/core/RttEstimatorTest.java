package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Median filtering and up/down of one peer; time is a plain nanos counter the test advances. */
class RttEstimatorTest {
    private static final long MS = 1_000_000L;
    private static final long DOWN_AFTER = 5_000 * MS;

    private static RttEstimator estimator() {
        return new RttEstimator(10, DOWN_AFTER);
    }

    @Test
    void new_badWindowOrDownAfter_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(0, DOWN_AFTER));
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(10, 0));
        assertThrows(IllegalArgumentException.class, () -> new RttEstimator(10, -1));
    }

    @Test
    void onSample_negativeOrNaN_isRejected() {
        RttEstimator e = estimator();
        assertThrows(IllegalArgumentException.class, () -> e.onSample(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> e.onSample(Double.NaN, 0));
        assertEquals(0, e.sampleCount());
    }

    @Test
    void estimate_noSamples_isNaN() {
        assertTrue(Double.isNaN(estimator().estimateMs()));
    }

    @Test
    void isUp_needsThreeSamples() {
        RttEstimator e = estimator();
        assertFalse(e.isUp(0));
        e.onSample(100, 0);
        assertFalse(e.isUp(0));
        e.onSample(100, 1000 * MS);
        assertFalse(e.isUp(1000 * MS));
        e.onSample(100, 2000 * MS);
        assertTrue(e.isUp(2000 * MS));
        assertEquals(3, e.minSamples());
    }

    @Test
    void minSamples_smallWindow_isWindow() {
        RttEstimator one = new RttEstimator(1, DOWN_AFTER);
        assertEquals(1, one.minSamples());
        one.onSample(5, 0);
        assertTrue(one.isUp(0));
        RttEstimator two = new RttEstimator(2, DOWN_AFTER);
        two.onSample(5, 0);
        assertFalse(two.isUp(0));
        two.onSample(5, 0);
        assertTrue(two.isUp(0));
    }

    @Test
    void estimate_isMedian_oddAndEvenCounts() {
        RttEstimator e = estimator();
        e.onSample(300, 0);
        assertEquals(300, e.estimateMs());
        e.onSample(100, 0);
        assertEquals(200, e.estimateMs());
        e.onSample(200, 0);
        assertEquals(200, e.estimateMs());
        e.onSample(1000, 0);
        assertEquals(250, e.estimateMs());
    }

    @Test
    void estimate_oneHugeOutlierFirst_isIgnored() {
        RttEstimator e = estimator();
        e.onSample(10_000, 0);
        e.onSample(252, 0);
        e.onSample(253, 0);
        assertEquals(253, e.estimateMs());
    }

    @Test
    void isUp_goesDownAfterDownAfterWithoutReplies() {
        RttEstimator e = estimator();
        long t = 7_000 * MS;
        for (int i = 0; i < 3; i++) {
            e.onSample(100, t);
        }
        assertTrue(e.isUp(t + DOWN_AFTER));
        assertFalse(e.isUp(t + DOWN_AFTER + 1));
        assertFalse(e.isUp(t + 60_000 * MS));
    }

    @Test
    void isUp_replyAfterBeingDown_isUpAgain() {
        RttEstimator e = estimator();
        for (int i = 0; i < 3; i++) {
            e.onSample(100, 0);
        }
        long later = 3 * DOWN_AFTER;
        assertFalse(e.isUp(later));
        e.onSample(110, later);
        assertTrue(e.isUp(later));
    }

    @Test
    void isUp_negativeClockValues_work() {
        // System.nanoTime() has an arbitrary origin and may be negative
        RttEstimator e = estimator();
        long t = -9_000_000_000_000L;
        for (int i = 0; i < 3; i++) {
            e.onSample(50, t + i * MS);
        }
        assertTrue(e.isUp(t + 2 * MS + DOWN_AFTER));
        assertFalse(e.isUp(t + 2 * MS + DOWN_AFTER + 1));
    }

    @Test
    void window_forgetsOldSamples() {
        RttEstimator e = new RttEstimator(5, DOWN_AFTER);
        for (int i = 0; i < 5; i++) {
            e.onSample(300, 0);
        }
        e.onSample(100, 0);
        e.onSample(100, 0);
        assertEquals(300, e.estimateMs());
        e.onSample(100, 0);
        assertEquals(100, e.estimateMs()); // 3 of the 5 retained samples are new
        e.onSample(100, 0);
        e.onSample(100, 0);
        assertEquals(100, e.estimateMs());
        assertEquals(5, e.sampleCount());
    }

    @Test
    void sampleCount_capsAtWindow() {
        RttEstimator e = new RttEstimator(3, DOWN_AFTER);
        for (int i = 0; i < 10; i++) {
            e.onSample(i, 0);
        }
        assertEquals(3, e.sampleCount());
        assertEquals(8, e.estimateMs());
    }

    /**
     * Two peers, Mumbai (~160 ms) and Dublin (~252 ms) as seen from Seoul; one of Mumbai's samples is
     * a huge outlier (SPEC.md saw first samples far off). At every point where both are up, the
     * table built from the estimators (as RttMonitor builds it) says Mumbai is closest.
     */
    @Test
    void oneOutlier_atAnyPosition_neverFlipsClosestOrFarthest() {
        for (int outlierAt = 0; outlierAt < 12; outlierAt++) {
            RttEstimator mumbai = estimator();
            RttEstimator dublin = estimator();
            long now = 0;
            for (int i = 0; i < 12; i++) {
                now += 1000 * MS;
                mumbai.onSample(i == outlierAt ? 5_000 : 160 + (i % 3), now);
                dublin.onSample(252 + (i % 2), now);
                RttTable t = table(now, Map.of("mumbai", mumbai, "dublin", dublin));
                if (i >= 2) {
                    assertEquals(Optional.of("mumbai"), t.closest(), "outlier at " + outlierAt + ", sample " + i);
                    assertEquals(Optional.of("dublin"), t.farthest(), "outlier at " + outlierAt + ", sample " + i);
                } else {
                    assertEquals(Optional.empty(), t.closest());
                }
            }
        }
    }

    @Test
    void silentPeer_isReportedDownInTable() {
        RttEstimator mumbai = estimator();
        RttEstimator dublin = estimator();
        for (int i = 0; i < 3; i++) {
            mumbai.onSample(160, 0);
            dublin.onSample(252, 0);
        }
        long now = DOWN_AFTER + 1;
        dublin.onSample(252, now);
        RttTable t = table(now, Map.of("mumbai", mumbai, "dublin", dublin));
        assertEquals(Set.of("mumbai"), t.down());
        assertEquals(Optional.of("dublin"), t.closest());
        assertEquals(Optional.of("dublin"), t.farthest());
    }

    /** Builds a table from estimators the way RttMonitor does. */
    private static RttTable table(long now, Map<String, RttEstimator> estimators) {
        Map<String, Double> up = new LinkedHashMap<>();
        Set<String> down = new TreeSet<>();
        estimators.forEach((r, e) -> {
            if (e.isUp(now)) {
                up.put(r, e.estimateMs());
            } else {
                down.add(r);
            }
        });
        return new RttTable("seoul", up, down);
    }

    private static RttEstimator filtered() {
        return new RttEstimator(10, DOWN_AFTER, new RttSpikeFilter(60_000 * MS, 3));
    }

    /**
     * Issue 42: after start a 0.05 ms link's first answers took 78-154 ms. The plain median reads 140 ms until
     * low samples are most of the window; with the filter, the first low sample puts the spikes above the line.
     */
    @Test
    void filtered_spikesBeforeTheBaseWasKnown_leaveTheEstimate() {
        RttEstimator plain = estimator();
        RttEstimator e = filtered();
        double[] samples = {154, 140, 0.05, 0.06};
        for (int i = 0; i < samples.length; i++) {
            plain.onSample(samples[i], i * 1000 * MS);
            e.onSample(samples[i], i * 1000 * MS);
        }
        assertEquals(70.03, plain.estimateMs(), 1e-9, "the plain median: half the window is spikes");
        assertEquals(0.055, e.estimateMs(), 1e-9);
        assertTrue(e.isUp(3000 * MS), "spikes are answers too: the peer is up");
    }

    @Test
    void filtered_lanLinkWithQueueingSpikes_readsUnderAMillisecond() {
        RttEstimator e = filtered();
        double[] samples = {0.05, 6.5, 0.07, 3.2, 0.05, 8.1, 0.06, 0.3, 5.0, 0.05};
        for (int i = 0; i < samples.length; i++) {
            e.onSample(samples[i], i * 1000 * MS);
        }
        assertTrue(e.estimateMs() < 1, "read " + e.estimateMs() + " ms");
        assertEquals(0.055, e.estimateMs(), 1e-9, "the median of 0.05, 0.05, 0.05, 0.06, 0.07, 0.3");
    }

    @Test
    void filtered_aPathWhoseRttRose_isFollowed() {
        RttEstimator e = filtered();
        for (int i = 0; i < 10; i++) {
            e.onSample(0.05, i * 1000 * MS);
        }
        for (int i = 10; i < 20; i++) {
            e.onSample(50, i * 1000 * MS);
        }
        assertEquals(50, e.estimateMs(), "a level shift, not spikes");
    }

    @Test
    void filtered_onlySpikesRetained_keepsThemAll() {
        RttEstimator e = new RttEstimator(2, DOWN_AFTER, new RttSpikeFilter(60_000 * MS, 3));
        e.onSample(0.05, 0);
        e.onSample(9, 1000 * MS);
        e.onSample(10, 2000 * MS);
        assertEquals(9.5, e.estimateMs(), "never NaN while samples are retained");
    }
}
