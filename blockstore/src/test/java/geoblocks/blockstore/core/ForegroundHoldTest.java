package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ForegroundHoldTest {
    private static final long MS = 1_000_000L;

    @Test
    void firstForegroundMessage_isToldAtOnce_thenAtMostEveryQuarterHold() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        assertTrue(h.onForeground("dublin", 0));
        assertFalse(h.onForeground("dublin", 1 * MS));
        assertFalse(h.onForeground("dublin", 499 * MS));
        assertTrue(h.onForeground("dublin", 500 * MS));
    }

    @Test
    void aSteadyStreamOfBlocks_keepsTheHoldWithoutGaps_andCostsFewRequests() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        long heldUntil = -1;
        int told = 0;
        for (long t = 0; t <= 60_000 * MS; t += 42 * MS) { // a block message every 42 ms for a minute
            assertTrue(t < heldUntil || heldUntil < 0, "held at " + t / MS + " ms");
            if (h.onForeground("mumbai", t)) {
                told++;
                heldUntil = t + h.holdNanos();
            }
        }
        assertTrue(told <= 60_000 / 500 + 2, told + " requests in a minute");
    }

    @Test
    void peersAreHeldApart() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        assertTrue(h.onForeground("dublin", 0));
        assertTrue(h.onForeground("mumbai", 1 * MS), "another peer: told on its own");
        assertEquals(2_000 * MS, h.holdNanos());
    }

    @Test
    void rejectsANonPositiveHold() {
        assertThrows(IllegalArgumentException.class, () -> new ForegroundHold(0));
    }
}
