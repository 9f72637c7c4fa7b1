package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.MoveCopies.State;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MoveCopiesTest {
    private static final long S = 1_000_000_000L;

    private static MoveCopies<String> of(int n) {
        List<String> copies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            copies.add("c" + i);
        }
        return new MoveCopies<>(copies, 0);
    }

    @Test
    void start_keepsAtMostParallelInFlight_inOrder() {
        MoveCopies<String> m = of(6);
        assertEquals(List.of("c0", "c1", "c2", "c3"), m.start());
        assertEquals(List.of(), m.start(), "four in flight: nothing more starts");
        m.succeeded("c1", 10, 1);
        assertEquals(List.of("c4"), m.start());
        assertEquals(4, m.inFlight());
        assertEquals(State.RUNNING, m.state());
    }

    @Test
    void everyCopySucceeds_theMoveIsCopied_withItsBytes() {
        MoveCopies<String> m = of(2);
        m.start().forEach(c -> m.succeeded(c, 100, 5));
        assertEquals(State.COPIED, m.state());
        assertEquals(200, m.movedBytes());
        assertEquals(2, m.done());
        assertEquals(2, m.total());
    }

    @Test
    void aFailedCopy_goesToTheBackOfTheQueue_untilItsLastAttempt() {
        MoveCopies<String> m = of(5);
        m.start();
        assertTrue(m.failed("c0"));
        assertEquals(List.of("c4"), m.start(), "queued behind the copies not tried yet");
        assertTrue(m.failed("c4"));
        assertEquals(List.of("c0"), m.start(), "then tried again");
        assertTrue(m.failed("c0"));
        assertEquals(List.of("c4"), m.start());
        assertEquals(2, m.failures("c0"));
        m.succeeded("c4", 1, 1);
        assertEquals(List.of("c0"), m.start());
        assertFalse(m.failed("c0"), MoveCopies.ATTEMPTS + " attempts: the move fails");
        assertEquals(List.of(), m.start(), "a failed move starts nothing");
        assertEquals(State.RUNNING, m.state(), "copies still in flight");
        m.succeeded("c1", 1, 2);
        m.succeeded("c2", 1, 2);
        assertFalse(m.failed("c3"), "a failure after the move failed is not tried again");
        assertEquals(State.FAILED, m.state());
    }

    @Test
    void stop_endsTheMoveOnceTheCopiesInFlightEnd() {
        MoveCopies<String> m = of(6);
        m.start();
        m.stop();
        m.succeeded("c0", 1, 1);
        assertEquals(List.of(), m.start());
        m.succeeded("c1", 1, 1);
        m.succeeded("c2", 1, 1);
        assertEquals(State.RUNNING, m.state());
        m.succeeded("c3", 1, 1);
        assertEquals(State.FAILED, m.state(), "c4 and c5 never start");
    }

    @Test
    void heartbeat_isDueAfterTwoSecondsWithoutProgress() {
        MoveCopies<String> m = of(1);
        m.start();
        assertFalse(m.heartbeatDue(MoveCopies.HEARTBEAT_NANOS));
        assertTrue(m.heartbeatDue(MoveCopies.HEARTBEAT_NANOS + 1));
        m.reported(3 * S);
        assertFalse(m.heartbeatDue(4 * S));
        m.succeeded("c0", 1, 6 * S);
        assertFalse(m.heartbeatDue(7 * S), "a finished copy is progress");
        assertTrue(m.heartbeatDue(8 * S + 1));
    }

    @Test
    void aCopyFinishingTwice_isMisuse() {
        MoveCopies<String> m = of(1);
        m.start();
        m.succeeded("c0", 1, 1);
        assertThrows(IllegalStateException.class, () -> m.failed("c0"));
    }
}
