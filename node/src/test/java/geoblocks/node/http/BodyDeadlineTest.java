package geoblocks.node.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The decision on slow bodies, at explicit times: grace, then a minimum average rate, and a total cap. */
class BodyDeadlineTest {
    // 2 s of grace, then 1000 bytes/s; 60 s in all; the body started at t = 1000 ms
    private final BodyDeadline d = new BodyDeadline(2_000, 1_000, 60_000);
    private static final long START = 1_000;

    @Test
    void withinTheGrace_nothingIsOwed() {
        assertNull(d.verdict(START, START, 0));
        assertNull(d.verdict(START, START + 1_999, 0));
        assertTrue(d.verdict(START, START + 2_000, 0).contains("slower than 1000 bytes/s after a grace of 2000 ms (0 bytes in 2000 ms)"),
                d.verdict(START, START + 2_000, 0));
    }

    @Test
    void afterTheGrace_eachByteBuysAMillisecond() {
        assertEquals(START + 2_000 + 5_000, d.deadline(START, 5_000));
        assertNull(d.verdict(START, START + 6_999, 5_000));
        assertTrue(d.verdict(START, START + 7_000, 5_000) != null);
        // a trickle of 1 byte per 59 s (just under a 60 s idle timeout) is cut at the end of the grace plus a few ms
        assertEquals(START + 2_003, d.deadline(START, 3));
    }

    @Test
    void aFastBody_isStillCutAtTheTotalCap() {
        assertEquals(START + 60_000, d.deadline(START, 1L << 40));
        assertNull(d.verdict(START, START + 59_999, 1L << 40));
        String why = d.verdict(START, START + 60_000, 1L << 40);
        assertTrue(why.contains("did not end within 60000 ms"), why);
    }

    @Test
    void zeroTurnsEachBoundOff() {
        BodyDeadline rateOnly = new BodyDeadline(2_000, 1_000, 0);
        assertEquals(START + 2_000 + 1_000_000_000_000L, rateOnly.deadline(START, 1_000_000_000_000L)); // 10^12 bytes at 1000 B/s: 10^9 s
        BodyDeadline capOnly = new BodyDeadline(2_000, 0, 5_000);
        assertEquals(START + 5_000, capOnly.deadline(START, 0));
        assertNull(capOnly.verdict(START, START + 4_999, 0));
        assertTrue(capOnly.enabled() && rateOnly.enabled());
        assertFalse(BodyDeadline.NONE.enabled());
        assertEquals(Long.MAX_VALUE, BodyDeadline.NONE.deadline(START, 0));
        assertNull(BodyDeadline.NONE.verdict(START, Long.MAX_VALUE - 1, 0));
    }

    @Test
    void hugeCountsAndTimes_doNotOverflow() {
        BodyDeadline slow = new BodyDeadline(Long.MAX_VALUE / 2, 1, 0);
        assertEquals(Long.MAX_VALUE, slow.deadline(Long.MAX_VALUE / 2, Long.MAX_VALUE));
        // bytes * 1000 would overflow a long here; the deadline does not
        assertEquals(START + 2_000 + 9_000_000_000_000_000L,
                new BodyDeadline(2_000, 1_000_000, 0).deadline(START, 9_000_000_000_000_000_000L));
    }

    @Test
    void negativeSettings_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BodyDeadline(-1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BodyDeadline(1, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BodyDeadline(1, 1, -1));
    }
}
