package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class IdleBackoffTest {
    @Test
    void quietRoundsDoubleTheInterval_upToTheMax_andAnyChangeResetsIt() {
        IdleBackoff b = new IdleBackoff(1000, 8000);
        assertEquals(1000, b.interval());
        b.quiet();
        assertEquals(2000, b.interval());
        b.quiet();
        b.quiet();
        assertEquals(8000, b.interval());
        b.quiet();
        assertEquals(8000, b.interval(), "never beyond the max");
        b.reset();
        assertEquals(1000, b.interval());
    }

    @Test
    void badBounds_areRejected() {
        assertThrows(IllegalArgumentException.class, () -> new IdleBackoff(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new IdleBackoff(10, 5));
    }
}
