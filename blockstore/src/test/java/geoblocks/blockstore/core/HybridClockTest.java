package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HybridClockTest {
    private long wall = 1_000;
    private final HybridClock clock = new HybridClock(() -> wall);

    @Test
    void now_followsTheWallClock_counterZero() {
        assertEquals(HybridClock.of(1_000, 0), clock.now());
        wall = 1_005;
        long t = clock.now();
        assertEquals(1_005, HybridClock.physicalMillis(t));
        assertEquals(0, HybridClock.logical(t));
    }

    @Test
    void now_withinOneMillisecond_countsUp() {
        long a = clock.now();
        long b = clock.now();
        long c = clock.now();
        assertEquals(HybridClock.of(1_000, 1), b);
        assertEquals(HybridClock.of(1_000, 2), c);
        assertTrue(a < b && b < c);
    }

    @Test
    void now_wallClockGoingBackwards_staysMonotonic() {
        long a = clock.now();
        wall = 400; // an NTP step back
        long b = clock.now();
        assertTrue(b > a);
        assertEquals(1_000, HybridClock.physicalMillis(b));
    }

    @Test
    void observe_aheadOfTheWallClock_laterValuesOrderAfterIt() {
        long remote = HybridClock.of(5_000, 7); // a region whose clock runs 4 s ahead
        clock.observe(remote);
        long t = clock.now();
        assertTrue(t > remote);
        assertEquals(HybridClock.of(5_000, 8), t);
        wall = 6_000; // the wall clock catches up: back to physical time
        assertEquals(HybridClock.of(6_000, 0), clock.now());
    }

    @Test
    void observe_behind_changesNothing() {
        clock.now();
        clock.observe(HybridClock.of(10, 3));
        clock.observe(-5);
        assertEquals(HybridClock.of(1_000, 1), clock.now());
    }

    @Test
    void now_counterExhausted_carriesIntoTheNextMillisecond() {
        clock.observe(HybridClock.of(1_000, 0xFFFF));
        long t = clock.now();
        assertEquals(HybridClock.of(1_001, 0), t);
    }

    @Test
    void of_rejectsOutOfRangeParts() {
        assertThrows(IllegalArgumentException.class, () -> HybridClock.of(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> HybridClock.of(HybridClock.MAX_PHYSICAL + 1, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HybridClock.of(0, 1 << 16));
        assertTrue(e.getMessage().contains("65536"), e.getMessage());
    }
}
