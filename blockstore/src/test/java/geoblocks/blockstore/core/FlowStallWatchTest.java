package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FlowStallWatchTest {
    private static final long S = 1_000_000L; // microseconds

    /** The MTU crawl: 20 MiB waiting, 2 KB/s acknowledged. Stalled once a whole window shows it. */
    @Test
    void aFlowCrawlingAt2KBps_isStalledAfterOneWindow_once() {
        FlowStallWatch<String> w = new FlowStallWatch<>();
        FlowStallWatch.Change<String> first = null;
        int changes = 0;
        for (int t = 0; t <= 90; t++) { // a sample a second
            FlowStallWatch.Change<String> c = w.sample("dublin", t * S, 20 << 20, 2_000L * t);
            if (c != null) {
                changes++;
                first = first == null ? c : first;
            }
            if (t < 30) {
                assertNull(c, "not a whole window yet at " + t + " s");
            }
        }
        assertEquals(1, changes, "one change while it stays stalled");
        assertTrue(first.stalled());
        assertEquals(0, first.sinceMicros());
        assertEquals(60_000, first.ackedInWindow());
        assertEquals(0, w.stalledSinceMicros("dublin"));
    }

    /** LEDBAT yielding at its smallest window over a 300 ms path still moves ~9 KB/s: not a stall. */
    @Test
    void aFlowYieldingAtItsSmallestWindow_isNotStalled() {
        FlowStallWatch<String> w = new FlowStallWatch<>();
        for (int t = 0; t <= 120; t++) {
            assertNull(w.sample("dublin", t * S, 1 << 20, 9_000L * t));
        }
        assertEquals(-1, w.stalledSinceMicros("dublin"));
    }

    @Test
    void aStalledFlowThatMovesAgain_resumes_andOneThatEmpties_too() {
        FlowStallWatch<String> w = new FlowStallWatch<>();
        for (int t = 0; t <= 40; t++) {
            w.sample("dublin", t * S, 1 << 20, 0);
        }
        assertEquals(0, w.stalledSinceMicros("dublin"));
        FlowStallWatch.Change<String> back = null;
        long acked = 0;
        for (int t = 41; t <= 80 && back == null; t++) {
            acked += 1 << 20; // the MTU fixed: a MiB a second
            back = w.sample("dublin", t * S, 1 << 20, acked);
        }
        assertFalse(back.stalled());
        assertEquals(0, back.sinceMicros(), "since when it had been stalled");
        assertEquals(-1, w.stalledSinceMicros("dublin"));

        FlowStallWatch<String> v = new FlowStallWatch<>();
        for (int t = 0; t <= 40; t++) {
            v.sample("mumbai", t * S, 4096, 0);
        }
        for (int t = 41; t < 71; t++) {
            assertNull(v.sample("mumbai", t * S, 0, 0), "a moment with nothing waiting does not end a stall (" + t + " s)");
        }
        assertEquals(0, v.stalledSinceMicros("mumbai"));
        FlowStallWatch.Change<String> emptied = v.sample("mumbai", 71 * S, 0, 0);
        assertFalse(emptied.stalled(), "a whole window with nothing waiting ends it");
    }

    /** A flow that was idle (nothing waiting) and starts now needs a whole window of waiting before it can stall. */
    @Test
    void aFlowThatJustStarted_afterIdling_needsAWholeWindow() {
        FlowStallWatch<String> w = new FlowStallWatch<>();
        for (int t = 0; t < 100; t++) {
            w.sample("dublin", t * S, 0, 0);
        }
        for (int t = 100; t < 129; t++) { // the window counts from the last sample with nothing waiting (99 s)
            assertNull(w.sample("dublin", t * S, 1 << 20, 0), "at " + t + " s");
        }
        FlowStallWatch.Change<String> c = w.sample("dublin", 129 * S, 1 << 20, 0);
        assertTrue(c.stalled());
        assertEquals(99 * S, c.sinceMicros());
    }

    @Test
    void peersAreWatchedApart_andSettingsMustBePositive() {
        FlowStallWatch<String> w = new FlowStallWatch<>(10 * S, 100);
        for (int t = 0; t <= 10; t++) {
            w.sample("a", t * S, 10, 0);
            w.sample("b", t * S, 10, 1_000L * t);
        }
        assertEquals(0, w.stalledSinceMicros("a"));
        assertEquals(-1, w.stalledSinceMicros("b"));
        assertThrows(IllegalArgumentException.class, () -> new FlowStallWatch<String>(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new FlowStallWatch<String>(1, 0));
    }

    /** The stall seen in the namespace demo: blocks given up one after the other, nothing waiting for a moment between. */
    @Test
    void aStalledFlowBetweenTwoBlocks_staysStalled_untilItMoves() {
        FlowStallWatch<String> w = new FlowStallWatch<>();
        for (int t = 0; t <= 35; t++) {
            w.sample("b", t * S, 8 << 20, 0);
        }
        assertNull(w.sample("b", 36 * S, 0, 0));
        assertNull(w.sample("b", 37 * S, 8 << 20, 53));
        assertEquals(0, w.stalledSinceMicros("b"), "one stall, not a new one after the gap");
        assertFalse(w.sample("b", 38 * S, 8 << 20, 1 << 20).stalled(), "a MiB acknowledged: it flows again");
    }
}
