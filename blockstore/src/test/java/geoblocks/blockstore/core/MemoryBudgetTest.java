package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    @Test
    void tryReserve_withinCapacity_succeeds_andBeyondIt_reservesNothing() {
        MemoryBudget b = new MemoryBudget(100);
        assertTrue(b.tryReserve(60));
        assertFalse(b.tryReserve(41));
        assertEquals(60, b.used());
        assertTrue(b.tryReserve(40));
        assertEquals(100, b.used());
        assertFalse(b.tryReserve(1));
    }

    @Test
    void release_returnsBytes_andOverReleaseIsMisuse() {
        MemoryBudget b = new MemoryBudget(100);
        b.tryReserve(70);
        b.release(30);
        assertEquals(40, b.used());
        assertThrows(IllegalStateException.class, () -> b.release(41));
        assertEquals(40, b.used());
    }

    @Test
    void hugeDeclaredSize_isRefused_withAMessageForTheClient() {
        MemoryBudget b = new MemoryBudget(64L << 20);
        assertFalse(b.tryReserve(Long.MAX_VALUE));
        assertTrue(b.busy(1L << 40).startsWith("node busy: 0 of 64 MiB"), b.busy(1L << 40));
        assertThrows(IllegalArgumentException.class, () -> b.tryReserve(-1));
        assertThrows(IllegalArgumentException.class, () -> new MemoryBudget(0));
    }
}
