package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** RFC 6298 sections 2 and 5.5. */
class RtoEstimatorTest {

    @Test
    void firstSample_setsSrttAndHalfVariance() {
        RtoEstimator r = new RtoEstimator(1_000_000, 200_000, 60_000_000);
        r.sample(100_000);
        assertEquals(100_000, r.srtt());
        assertEquals(50_000, r.rttvar());
        assertEquals(300_000, r.cto());   // 100 + 4 x 50 ms
    }

    @Test
    void laterSamples_smoothWithOneEighthAndOneQuarter() {
        RtoEstimator r = new RtoEstimator(1_000_000, 1_000, 60_000_000);
        r.sample(100_000);
        r.sample(200_000);
        assertEquals((3 * 50_000 + 100_000) / 4, r.rttvar());
        assertEquals((7 * 100_000 + 200_000) / 8, r.srtt());
    }

    @Test
    void cto_clampedToMinimumAndMaximum() {
        RtoEstimator r = new RtoEstimator(1_000_000, 200_000, 2_000_000);
        r.sample(1_000);
        assertEquals(200_000, r.cto());
        r.backOff();
        r.backOff();
        r.backOff();
        r.backOff();
        assertEquals(2_000_000, r.cto());
    }

    @Test
    void constructor_invertedClamps_rejected() {
        assertThrows(IllegalArgumentException.class, () -> new RtoEstimator(1_000_000, 2_000_000, 1_000_000));
    }
}
