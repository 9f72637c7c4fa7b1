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

    @Test
    void linuxRule_addsTheMinimumWhenFourRttvarIsBelowIt_inNanoseconds() {
        long ms = 1_000_000;
        RtoEstimator linux = new RtoEstimator(1_000 * ms, 200 * ms, 60_000 * ms, ms, RtoEstimator.Rule.LINUX);
        RtoEstimator rfc = new RtoEstimator(1_000 * ms, 200 * ms, 60_000 * ms, ms, RtoEstimator.Rule.RFC_6298);
        for (int i = 0; i < 30; i++) { // a steady 10 ms path: RTTVAR falls towards 0
            linux.sample(10 * ms);
            rfc.sample(10 * ms);
        }
        assertEquals(10 * ms, linux.srtt());
        assertEquals(210 * ms, linux.cto(), "SRTT + max(rto_min, 4 RTTVAR)");
        assertEquals(200 * ms, rfc.cto(), "max(min, SRTT + max(G, 4 RTTVAR))");
        linux.backOff();
        assertEquals(420 * ms, linux.cto());
    }

    @Test
    void granularity_isTheFloorOfFourRttvar_andMustBePositive() {
        RtoEstimator r = new RtoEstimator(5_000, 1, 60_000, 300, RtoEstimator.Rule.RFC_6298);
        for (int i = 0; i < 30; i++) {
            r.sample(1_000);
        }
        assertEquals(1_300, r.cto(), "SRTT + G once 4 RTTVAR is below G");
        assertThrows(IllegalArgumentException.class, () -> new RtoEstimator(5_000, 1, 60_000, 0, RtoEstimator.Rule.RFC_6298));
    }
}
