package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Failing metadata syncs: retried with a doubling delay, logged sparingly, reported until one succeeds. */
class MetaSyncHealthTest {
    static final long S = 1_000_000_000L;

    @Test
    void failures_backOff_logSparingly_andAreAFaultUntilASyncSucceeds() {
        MetaSyncHealth h = new MetaSyncHealth();
        assertNull(h.fault(0));
        MetaSyncHealth.Retry first = h.failed(0, "No space left on device");
        assertEquals(MetaSyncHealth.FIRST_RETRY_NANOS, first.delayNanos());
        assertTrue(first.log(), "the first failure is logged");
        long t = 0;
        long delay = first.delayNanos();
        int logged = 1;
        for (int i = 0; i < 30; i++) {
            t += delay;
            MetaSyncHealth.Retry r = h.failed(t, "No space left on device");
            assertTrue(r.delayNanos() >= delay && r.delayNanos() <= MetaSyncHealth.MAX_RETRY_NANOS);
            delay = r.delayNanos();
            logged += r.log() ? 1 : 0;
        }
        assertEquals(MetaSyncHealth.MAX_RETRY_NANOS, delay, "the delay stops doubling at its cap");
        assertTrue(logged <= 1 + t / MetaSyncHealth.LOG_EVERY_NANOS + 1, logged + " log lines over " + t / S + " s");
        String fault = h.fault(t);
        assertTrue(fault.contains("31 time(s)") && fault.contains("No space left on device"), fault);
        assertEquals(t, h.succeeded(t), "how long syncs failed");
        assertNull(h.fault(t));
        assertEquals(0, h.failures());
        assertEquals(-1, h.succeeded(t + 1), "a sync that follows a success recovers nothing");
        MetaSyncHealth.Retry again = h.failed(t + 2, "EIO");
        assertEquals(MetaSyncHealth.FIRST_RETRY_NANOS, again.delayNanos(), "a new fault starts over");
        assertTrue(again.log());
        assertFalse(h.failed(t + 3, "EIO").log());
    }
}
