package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
    final AtomicLong now = new AtomicLong(1_000_000);
    final LoginThrottle t = new LoginThrottle(3, 60_000, 30_000, now::get);

    @Test
    void thirdFailureWithinTheWindow_locksTheAddressOut_forTheLockout_only() {
        t.failed("a");
        t.failed("a");
        assertEquals(0, t.lockedMs("a"));
        t.failed("a");
        assertEquals(30_000, t.lockedMs("a"));
        assertEquals(0, t.lockedMs("b"), "another address is not locked");
        now.addAndGet(29_999);
        assertEquals(1, t.lockedMs("a"));
        now.addAndGet(1);
        assertEquals(0, t.lockedMs("a"));
    }

    @Test
    void failuresFartherApartThanTheWindow_neverLock() {
        for (int i = 0; i < 10; i++) {
            t.failed("a");
            t.failed("a");
            now.addAndGet(60_000);
        }
        assertEquals(0, t.lockedMs("a"));
    }

    @Test
    void aSuccess_forgetsTheFailures() {
        t.failed("a");
        t.failed("a");
        t.succeeded("a");
        t.failed("a");
        t.failed("a");
        assertEquals(0, t.lockedMs("a"));
    }

    @Test
    void manyAddresses_stayBounded_theStalestGoFirst() {
        for (int i = 0; i < LoginThrottle.MAX_ADDRESSES + 5; i++) {
            now.incrementAndGet();
            t.failed("x" + i);
        }
        t.failed("x" + (LoginThrottle.MAX_ADDRESSES + 4));
        t.failed("x" + (LoginThrottle.MAX_ADDRESSES + 4));
        assertEquals(30_000, t.lockedMs("x" + (LoginThrottle.MAX_ADDRESSES + 4)), "the newest address is still counted");
    }

    @Test
    void badBounds_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LoginThrottle(0, 1, 1, now::get));
    }
}
