package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Holds keep a file in flight until released; a touch keeps it in flight for the window. */
class InFlightFilesTest {
    private static final long W = 1_000;

    @Test
    void touch_keepsAFileInFlightForTheWindow() {
        InFlightFiles f = new InFlightFiles(W);
        assertFalse(f.inFlight("a", 0));
        f.touch("a", 100);
        assertTrue(f.inFlight("a", 100 + W - 1));
        assertFalse(f.inFlight("a", 100 + W));
        f.touch("a", 500);
        assertTrue(f.inFlight("a", 100 + W), "a later touch extends it");
    }

    @Test
    void holds_areCounted_andReleaseLeavesAWindow() {
        InFlightFiles f = new InFlightFiles(W);
        f.hold("m");
        f.hold("m");
        assertEquals(1, f.held());
        f.release("m", 10);
        assertTrue(f.inFlight("m", 10 * W), "still held once");
        f.release("m", 20);
        assertEquals(0, f.held());
        assertTrue(f.inFlight("m", 20 + W - 1));
        assertFalse(f.inFlight("m", 20 + W));
        f.release("never-held", 30);
        assertFalse(f.inFlight("never-held", 30));
    }

    @Test
    void oldTouches_arePruned_recentOnesStay() {
        InFlightFiles f = new InFlightFiles(W);
        f.touch("old", 0);
        f.touch("new", 5 * W);
        assertFalse(f.inFlight("old", 5 * W));
        assertTrue(f.inFlight("new", 5 * W));
        assertThrows(IllegalArgumentException.class, () -> new InFlightFiles(0));
    }
}
