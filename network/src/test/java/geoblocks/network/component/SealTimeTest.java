package geoblocks.network.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SealTimeTest {
    @Test
    void expected_isZeroUntilFourWereTimed_thenTheShortestOfTheLastFour() {
        SealTime t = new SealTime();
        assertEquals(0, t.expectedNanos());
        t.took(5_000_000); // the first, cold
        t.took(400_000);
        t.took(150_000);
        assertEquals(0, t.expectedNanos(), "too few to trust: a stamp past the departure would shorten round trips");
        t.took(9_000_000); // a pause while sealing does not move the expectation
        assertEquals(150_000, t.expectedNanos());
        t.took(300_000);
        t.took(200_000);
        t.took(250_000);
        assertEquals(200_000, t.expectedNanos(), "150,000 ns is older than the last four");
    }

    @Test
    void expected_neverAboveAMillisecond() {
        SealTime t = new SealTime();
        for (int i = 0; i < SealTime.KEPT; i++) {
            t.took(3_000_000);
        }
        assertEquals(SealTime.MAX_EXPECTED_NANOS, t.expectedNanos());
    }

    @Test
    void took_negative_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new SealTime().took(-1));
    }
}
