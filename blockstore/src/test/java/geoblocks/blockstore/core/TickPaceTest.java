package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TickPaceTest {
    private static final long MS = 1_000_000L;
    private final TickPace pace = new TickPace(250 * MS, 1_000 * MS, 2_000 * MS);

    @Test
    void idle_isSlow() {
        assertEquals(1_000 * MS, pace.intervalAt(0, false));
        assertEquals(1_000 * MS, pace.intervalAt(60_000 * MS, false));
    }

    @Test
    void activity_turnsItFastAtOnce_untilTheLingerPassed() {
        assertTrue(pace.activity(10_000 * MS, 1_000 * MS), "slow before: switch now");
        assertFalse(pace.activity(10_100 * MS, 250 * MS), "already fast");
        assertEquals(250 * MS, pace.intervalAt(10_500 * MS, false));
        assertEquals(250 * MS, pace.intervalAt(12_099 * MS, false));
        assertEquals(1_000 * MS, pace.intervalAt(12_100 * MS, false), "2 s after the last activity");
    }

    @Test
    void busy_keepsItFast_withoutActivity() {
        assertEquals(250 * MS, pace.intervalAt(5_000 * MS, true));
        assertEquals(1_000 * MS, pace.intervalAt(5_250 * MS, false));
    }

    @Test
    void rejectsBadIntervals() {
        assertThrows(IllegalArgumentException.class, () -> new TickPace(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TickPace(2, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TickPace(1, 2, -1));
    }
}
