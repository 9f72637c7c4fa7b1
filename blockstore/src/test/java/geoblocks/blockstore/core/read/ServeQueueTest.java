package geoblocks.blockstore.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.read.ServeQueue.Send;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServeQueueTest {
    /** Chunks of 10 bytes, a window of 20 per fetch, 40 in flight over all. */
    private final ServeQueue<String> q = new ServeQueue<>(10, 20, 40);

    @Test
    void sendsUpToTheWindow_thenOneChunkPerAcknowledgedChunk() {
        q.add("a", 45, 0);
        assertEquals(List.of(new Send<>("a", 0, 10), new Send<>("a", 10, 10)), q.next());
        assertEquals(List.of(), q.next());
        q.acknowledge("a", 10, 1);
        assertEquals(List.of(new Send<>("a", 20, 10)), q.next());
        q.acknowledge("a", 30, 2);
        assertEquals(List.of(new Send<>("a", 30, 10), new Send<>("a", 40, 5)), q.next());
        q.acknowledge("a", 45, 3);
        assertEquals(0, q.size(), "fully acknowledged: forgotten");
        assertEquals(0, q.inFlight());
    }

    @Test
    void cancel_stopsTheSending_andReportsTheBytesSaved() {
        q.add("a", 100, 0);
        q.next();
        assertEquals(80, q.cancel("a"));
        assertEquals(List.of(), q.next());
        assertEquals(0, q.inFlight());
        assertFalse(q.acknowledge("a", 20, 1), "a cancelled fetch is forgotten");
        assertEquals(-1, q.cancel("a"));
    }

    @Test
    void sharedLimit_queuesLaterFetches_andACancelledQueuedFetchCostsNothing() {
        q.add("a", 20, 0);
        q.add("b", 20, 0);
        q.add("c", 20, 0);
        assertEquals(List.of(new Send<>("a", 0, 10), new Send<>("a", 10, 10), new Send<>("b", 0, 10),
                new Send<>("b", 10, 10)), q.next());
        assertEquals(20, q.cancel("c"), "c never sent a byte");
        q.acknowledge("a", 20, 1);
        assertEquals(List.of(), q.next());
    }

    @Test
    void aFetchAtItsWindow_letsTheNextOneSend() {
        q.add("a", 100, 0);
        q.add("b", 10, 0);
        assertEquals(List.of(new Send<>("a", 0, 10), new Send<>("a", 10, 10), new Send<>("b", 0, 10)), q.next());
    }

    @Test
    void idleFetches_expire_andFreeTheSharedLimit() {
        q.add("a", 40, 0);
        q.next();
        q.add("b", 40, 5);
        q.acknowledge("b", 0, 8);
        assertEquals(List.of("a"), q.expire(11, 10));
        assertEquals(0, q.inFlight());
        assertTrue(q.contains("b"));
    }

    @Test
    void badInput_refused() {
        assertThrows(IllegalArgumentException.class, () -> q.add("e", 0, 0));
        assertTrue(q.add("a", 5, 0));
        assertFalse(q.add("a", 5, 0), "twice");
        assertThrows(IllegalArgumentException.class, () -> new ServeQueue<String>(10, 5, 40));
    }
}
