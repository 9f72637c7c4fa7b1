package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules background transfers follow ({@code component/BackgroundTransfers} is their glue), with time given. */
class BackgroundRulesTest {
    @Test
    void backlog_countsAPushUntilAcknowledged_cappedAtItsSize_neverBackwards() {
        PushBacklog b = new PushBacklog();
        PushBacklog.Push p = b.start(1000);
        PushBacklog.Push q = b.start(500);
        assertEquals(1500, b.bytes());
        b.acknowledged(p, 400);
        assertEquals(1100, b.bytes());
        b.acknowledged(p, 300); // an older, smaller figure changes nothing
        assertEquals(1100, b.bytes());
        b.acknowledged(p, 5000); // more than the push: only its own bytes leave the backlog
        assertEquals(500, b.bytes());
        assertEquals(1000, p.acked());
        b.acknowledged(q, 100);
        b.ended(q); // closed or failed: the rest is not owed any more
        assertEquals(0, b.bytes());
        b.ended(q);
        b.acknowledged(q, 500);
        assertEquals(0, b.bytes(), "an ended push counts no more");
    }

    @Test
    void backlog_countsAnOfferWhileItWaitsForItsAnswer() {
        PushBacklog b = new PushBacklog();
        b.offered(2048);
        assertEquals(2048, b.bytes());
        b.offerSettled(2048);
        PushBacklog.Push p = b.start(2060); // the push that follows the answer: header and block
        assertEquals(2060, b.bytes());
        b.ended(p);
        assertEquals(0, b.bytes());
        assertThrows(IllegalArgumentException.class, () -> b.start(-1));
    }

    @Test
    void holderFallback_asksEachHolderOnceInOrder_andSaysWhyNoneGaveTheBlock() {
        HolderFallback<String> f = new HolderFallback<>(List.of("seoul", "dublin"));
        assertEquals("seoul", f.next());
        f.failed("seoul", new Failure(FailureCode.BUSY, "busy"));
        assertEquals("dublin", f.next());
        f.failed("dublin", new Failure(FailureCode.BLOCK_MISSING, "no such block"));
        assertNull(f.next());
        assertEquals(new Failure(FailureCode.UNAVAILABLE, "seoul: busy; dublin: no such block"), f.why(),
                "a busy holder may have it later");
    }

    @Test
    void holderFallback_everyHolderWithoutTheBlock_isBlockMissing() {
        HolderFallback<String> f = new HolderFallback<>(List.of("seoul", "dublin"));
        f.next();
        f.failed("seoul", new Failure(FailureCode.BLOCK_MISSING, "no block"));
        f.next();
        f.failed("dublin", new Failure(FailureCode.BLOCK_CORRUPT, "corrupt"));
        assertEquals(FailureCode.BLOCK_CORRUPT, f.why().code());
    }

    @Test
    void holderFallback_withNoHolder_saysSo() {
        HolderFallback<String> f = new HolderFallback<>(List.of());
        assertNull(f.next());
        assertEquals(new Failure(FailureCode.UNAVAILABLE, "no replica to ask"), f.why());
    }

    @Test
    void touchThrottle_allowsOncePerIntervalPerKey() {
        TouchThrottle<String> t = new TouchThrottle<>(1_000);
        assertTrue(t.due("a", 5_000), "first time");
        assertFalse(t.due("a", 5_999));
        assertTrue(t.due("b", 5_999), "another key has its own interval");
        assertTrue(t.due("a", 6_000), "a whole interval later");
        assertFalse(t.due("a", 6_500), "counted from the last yes");
        assertThrows(IllegalArgumentException.class, () -> new TouchThrottle<>(-1));
    }

    @Test
    void progressWatch_seesProgressOnlyWhenTheCountRises() {
        ProgressWatch<String> w = new ProgressWatch<>();
        assertFalse(w.advanced("a", 100), "the first figure is a baseline");
        assertTrue(w.advanced("a", 150));
        assertFalse(w.advanced("a", 150));
        assertFalse(w.advanced("a", 120), "a lower figure (a new flow) is no progress");
        assertTrue(w.advanced("a", 130), "measured from the last figure");
        assertFalse(w.advanced("b", 1_000_000));
    }
}
