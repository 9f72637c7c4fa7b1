package geoblocks.node;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.FailureCode;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BusyRetryTest {
    private final BusyRetry retry = new BusyRetry(3, 100, 1000, new Random(1));

    @Test
    void busyRefusal_isRetried_untilTheRetriesAreUsedUp() {
        FailureCode busy = FailureCode.BUSY;
        assertTrue(retry.shouldRetry(busy, 1));
        assertTrue(retry.shouldRetry(busy, 3));
        assertFalse(retry.shouldRetry(busy, 4));
    }

    @Test
    void otherFailures_areNotRetried() {
        for (FailureCode code : FailureCode.values()) {
            if (code != FailureCode.BUSY) {
                assertFalse(retry.shouldRetry(code, 1), code.name());
            }
        }
        assertFalse(retry.shouldRetry(null, 1), "a local failure (no code) is not retried");
    }

    @Test
    void delays_stayWithinTheExponentialCeiling_andTheCap() {
        long maxSeen = 0;
        for (int i = 0; i < 2000; i++) {
            long d1 = retry.delayMs(1);
            long d3 = retry.delayMs(3);
            long d9 = retry.delayMs(9);
            assertTrue(d1 >= 0 && d1 <= 100, "retry 1 waited " + d1);
            assertTrue(d3 >= 0 && d3 <= 400, "retry 3 waited " + d3);
            assertTrue(d9 >= 0 && d9 <= 1000, "retry 9 waited " + d9);
            maxSeen = Math.max(maxSeen, d3);
        }
        assertTrue(maxSeen > 300, "jitter spreads over the whole range, max seen " + maxSeen);
    }

    @Test
    void badSettings_areRefusedNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BusyRetry(-1, 100, 1000, new Random()));
        assertTrue(e.getMessage().contains("retries=-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BusyRetry(1, 100, 10, new Random()));
    }
}
