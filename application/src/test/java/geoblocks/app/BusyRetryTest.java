package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BusyRetryTest {
    private final BusyRetry retry = new BusyRetry(3, 100, 1000, new Random(1));

    @Test
    void busyRefusal_isRetried_untilTheRetriesAreUsedUp() {
        String busy = "upload of 'x' failed: node busy: 63 of 64 MiB of transfer memory in use; retry later";
        assertTrue(retry.shouldRetry(busy, 1));
        assertTrue(retry.shouldRetry(busy, 3));
        assertFalse(retry.shouldRetry(busy, 4));
    }

    @Test
    void otherFailures_areNotRetried() {
        assertFalse(retry.shouldRetry("no such file 'x'", 1));
        assertFalse(retry.shouldRetry("checksum mismatch", 1));
        assertFalse(retry.shouldRetry(null, 1));
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
