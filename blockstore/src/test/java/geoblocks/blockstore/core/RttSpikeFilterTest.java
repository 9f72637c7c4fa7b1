package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The windowed-minimum base, the spike line and level shifts; time is a nanos counter the test advances. */
class RttSpikeFilterTest {
    private static final long S = 1_000_000_000L;
    private final RttSpikeFilter f = new RttSpikeFilter(60 * S, 3);

    @Test
    void new_badWindowOrShift_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new RttSpikeFilter(0, 3));
        assertThrows(IllegalArgumentException.class, () -> new RttSpikeFilter(S, 0));
        assertThrows(IllegalArgumentException.class, () -> f.onSample(-0.1, 0));
        assertThrows(IllegalArgumentException.class, () -> f.onSample(Double.NaN, 0));
    }

    @Test
    void firstSample_isTheBase_nothingIsASpikeBefore() {
        assertTrue(Double.isNaN(f.baseMs()));
        assertEquals(Double.POSITIVE_INFINITY, f.spikeLineMs());
        assertTrue(f.onSample(150, 0), "nothing to measure the first sample against");
        assertEquals(150, f.baseMs());
        assertEquals(301, f.spikeLineMs());
    }

    @Test
    void onSample_lanLink_spikeAboveTwiceBasePlusAMillisecond_isRejected() {
        f.onSample(0.05, 0);
        assertEquals(1.1, f.spikeLineMs(), 1e-9);
        assertTrue(f.onSample(0.3, S), "0.3 ms on a 0.05 ms link is jitter, not a spike");
        assertFalse(f.onSample(8, 2 * S), "8 ms is a probe that waited in a queue");
        assertTrue(f.onSample(0.06, 3 * S));
        assertFalse(f.onSample(150, 4 * S), "one alone is a spike, however large");
        assertEquals(0.05, f.baseMs());
    }

    @Test
    void fallingRtt_movesTheBaseAtOnce() {
        f.onSample(80, 0);
        assertTrue(f.onSample(0.05, S));
        assertEquals(0.05, f.baseMs());
        assertTrue(f.isSpike(80));
    }

    @Test
    void spikesInARow_areALevelShift_theBaseRestartsFromTheirSmallest() {
        f.onSample(0.05, 0);
        assertFalse(f.onSample(52, S));
        assertFalse(f.onSample(50, 2 * S));
        assertTrue(f.onSample(51, 3 * S), "the third in a row: the path changed");
        assertEquals(50, f.baseMs());
        assertTrue(f.onSample(53, 4 * S));
        assertFalse(f.onSample(500, 5 * S), "spikes are measured against the new base");
    }

    @Test
    void aSampleUnderTheLine_breaksTheRun() {
        f.onSample(0.05, 0);
        assertFalse(f.onSample(20, S));
        assertFalse(f.onSample(20, 2 * S));
        assertTrue(f.onSample(0.05, 3 * S));
        assertFalse(f.onSample(20, 4 * S), "a new run starts from one");
        assertEquals(0.05, f.baseMs());
    }

    @Test
    void base_expiresAfterItsWindow() {
        f.onSample(1, 0);
        f.onSample(2.5, 30 * S);
        assertEquals(1, f.baseMs());
        f.onSample(2.6, 61 * S);
        assertEquals(2.5, f.baseMs(), "the 1 ms sample is older than the window");
        f.onSample(2.7, 91 * S);
        assertEquals(2.6, f.baseMs());
    }
}
