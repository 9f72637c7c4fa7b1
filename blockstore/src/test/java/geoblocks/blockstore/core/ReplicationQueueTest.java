package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.ReplicationQueue.Copy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplicationQueueTest {
    private static final long SEC = 1_000_000_000L;
    /** The fake clock, in nanoseconds. */
    private long now = 5_000 * SEC;
    private final ReplicationQueue queue = new ReplicationQueue(2, SEC, 8 * SEC, () -> now);

    private static Copy copy(int block, String target) {
        return new Copy("f", "id1", block, target);
    }

    @Test
    void next_startsInQueueOrder_upToTheInFlightLimit() {
        queue.add(List.of(copy(0, "a"), copy(1, "a"), copy(2, "a")));
        assertEquals(List.of(copy(0, "a"), copy(1, "a")), queue.next(r -> true));
        assertEquals(List.of(), queue.next(r -> true), "both slots are taken");
        queue.succeeded(copy(0, "a"));
        assertEquals(List.of(copy(2, "a")), queue.next(r -> true));
        assertEquals(2, queue.inFlight());
    }

    @Test
    void next_skipsTargetsThatAreDown_withoutCountingAFailure() {
        queue.add(List.of(copy(0, "down"), copy(0, "up")));
        assertEquals(List.of(copy(0, "up")), queue.next(r -> r.equals("up")));
        assertEquals(0, queue.failures(copy(0, "down")));
        assertEquals(List.of(copy(0, "down")), queue.next(r -> true));
    }

    @Test
    void failed_keepsTheCopy_andRetriesOnlyAfterADoublingBackoffUpToTheCap() {
        Copy c = copy(0, "a");
        queue.add(List.of(c));
        long[] waits = new long[6];
        for (int i = 0; i < waits.length; i++) {
            assertEquals(List.of(c), queue.next(r -> true), "attempt " + i);
            waits[i] = queue.failed(c);
            now += waits[i] - 1;
            assertEquals(List.of(), queue.next(r -> true), "still backing off after failure " + (i + 1));
            now += 1;
        }
        assertEquals(List.of(SEC, 2 * SEC, 4 * SEC, 8 * SEC, 8 * SEC, 8 * SEC), List.of(waits[0], waits[1], waits[2],
                waits[3], waits[4], waits[5]));
        assertEquals(6, queue.failures(c));
        assertEquals(1, queue.size(), "a failure never drops a copy");
    }

    @Test
    void backoff_manyFailures_staysAtTheCapWithoutOverflow() {
        assertEquals(8 * SEC, queue.backoff(64));
        assertEquals(8 * SEC, queue.backoff(Integer.MAX_VALUE));
    }

    @Test
    void failed_freesItsSlotForTheNextCopy() {
        queue.add(List.of(copy(0, "a"), copy(1, "a"), copy(2, "a")));
        queue.next(r -> true);
        queue.failed(copy(0, "a"));
        assertEquals(List.of(copy(2, "a")), queue.next(r -> true));
    }

    @Test
    void add_sameCopyTwice_keepsOneEntryAndItsState() {
        queue.add(List.of(copy(0, "a")));
        queue.next(r -> true);
        queue.failed(copy(0, "a"));
        queue.add(List.of(copy(0, "a")));
        assertEquals(1, queue.size());
        assertEquals(1, queue.failures(copy(0, "a")));
    }

    @Test
    void remove_dropsACopyInFlight_andFreesItsSlot() {
        queue.add(List.of(copy(0, "a"), copy(1, "a"), copy(2, "a")));
        queue.next(r -> true);
        queue.remove(copy(1, "a"));
        assertEquals(List.of(copy(0, "a"), copy(2, "a")), queue.copies());
        assertEquals(List.of(copy(2, "a")), queue.next(r -> true));
    }

    @Test
    void pending_listsTargetsPerBlockOfThatFileOnly() {
        queue.add(List.of(copy(1, "a"), copy(0, "b"), copy(1, "c"), new Copy("f", "other-id", 0, "a"),
                new Copy("g", "id1", 0, "a")));
        Map<Integer, List<String>> p = queue.pending("f", "id1");
        assertEquals(Map.of(0, List.of("b"), 1, List.of("a", "c")), p);
        assertEquals(Set.of(0, 1), p.keySet());
        queue.succeeded(copy(0, "b"));
        assertTrue(queue.pending("f", "id1").get(0) == null);
    }

    @Test
    void failed_unknownCopy_isMisuse() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> queue.failed(copy(9, "x")));
        assertTrue(e.getMessage().contains("not queued"), e.getMessage());
    }

    @Test
    void constructor_badLimits_areRefusedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ReplicationQueue(0, SEC, SEC, () -> 0));
        assertTrue(e.getMessage().contains("was 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ReplicationQueue(1, 2 * SEC, SEC, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> copy(-1, "a"));
    }
}
