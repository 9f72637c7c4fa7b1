package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** RFC 6817 section 2.4.2 base delay: minimum over BASE_HISTORY one-minute buckets. */
class BaseDelayHistoryTest {
    static final long MIN = 60_000_000L;

    @Test
    void base_isMinimumOverAllMinutesInHistory() {
        BaseDelayHistory h = new BaseDelayHistory(3);
        h.update(0, 500);
        h.update(10, 700);
        h.update(MIN + 5, 900);
        h.update(2 * MIN + 5, 800);
        assertEquals(500, h.base());
        h.update(2 * MIN + 6, 400);
        assertEquals(400, h.base());
    }

    @Test
    void base_forgetsMinutesOlderThanHistory() {
        BaseDelayHistory h = new BaseDelayHistory(2);
        h.update(0, 100);
        h.update(MIN, 300);
        assertEquals(100, h.base());
        h.update(2 * MIN, 350);       // minute 0 leaves the 2-minute history
        assertEquals(300, h.base());
        h.update(3 * MIN, 400);
        assertEquals(350, h.base());
    }

    @Test
    void base_idleMinutesDoNotCorruptHistory() {
        BaseDelayHistory h = new BaseDelayHistory(10);
        h.update(0, 100);
        h.update(5 * MIN, 200);      // minutes 1-4 idle
        assertEquals(100, h.base());
        h.update(30 * MIN, 250);     // long idle: everything old is forgotten, no stale zeros
        assertEquals(250, h.base());
        assertEquals(250, h.base(30 * MIN + 1));
    }

    @Test
    void base_negativeOffsetsWork() {
        BaseDelayHistory h = new BaseDelayHistory(10);
        h.update(-5, -40_000);   // clocks of the two hosts differ: one-way delays may be negative
        h.update(3, -39_000);
        assertEquals(-40_000, h.base());
    }

    @Test
    void constructor_zeroMinutes_rejected() {
        assertThrows(IllegalArgumentException.class, () -> new BaseDelayHistory(0));
    }
}
