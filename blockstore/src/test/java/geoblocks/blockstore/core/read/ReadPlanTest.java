package geoblocks.blockstore.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.read.ReadOptions.Strategy;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadPlanTest {
    private static final long MS = 1_000_000L;
    private static final List<String> ORDER = List.of("seoul", "mumbai", "dublin");

    private static ReadPlan plan(Strategy s) {
        return new ReadPlan(s, ORDER, r -> r.equals("seoul") ? 40 * MS : 300 * MS);
    }

    @Test
    void first_asksOneReplica_andTheNextOnlyAfterAFailure() {
        ReadPlan p = plan(Strategy.FIRST);
        assertEquals(List.of("seoul"), p.start(0));
        assertEquals(ReadPlan.NEVER, p.hedgeAt());
        assertEquals(List.of(), p.onTimer(10_000 * MS));
        assertEquals(List.of("mumbai"), p.onFailed("seoul", 5 * MS));
        assertEquals(List.of("dublin"), p.onFailed("mumbai", 6 * MS));
        assertEquals(List.of(), p.onFailed("dublin", 7 * MS));
        assertTrue(p.failedAll());
    }

    @Test
    void hedged_issuesTheSecondRequestOnlyAfterTheDelay() {
        ReadPlan p = plan(Strategy.HEDGED);
        assertEquals(List.of("seoul"), p.start(100 * MS));
        assertEquals(140 * MS, p.hedgeAt());
        assertEquals(List.of(), p.onTimer(139 * MS), "a millisecond early: no hedge");
        assertEquals(List.of("mumbai"), p.onTimer(140 * MS));
        assertEquals(ReadPlan.NEVER, p.hedgeAt(), "one hedge per block");
        assertEquals(List.of(), p.onTimer(10_000 * MS));
        assertEquals(List.of("seoul"), p.onSucceeded("mumbai"), "the hedge won: the first request is cancelled");
        assertEquals("mumbai", p.winner());
    }

    @Test
    void hedged_answerBeforeTheDelay_noHedgeAndNothingToCancel() {
        ReadPlan p = plan(Strategy.HEDGED);
        p.start(0);
        assertEquals(List.of(), p.onSucceeded("seoul"));
        assertEquals(ReadPlan.NEVER, p.hedgeAt());
        assertEquals(List.of(), p.onTimer(40 * MS));
        assertEquals(List.of("seoul"), p.asked());
    }

    @Test
    void hedged_failureBeforeTheDelay_asksTheNextAtOnce_andRearmsWithItsDelay() {
        ReadPlan p = plan(Strategy.HEDGED);
        p.start(0);
        assertEquals(List.of("mumbai"), p.onFailed("seoul", 10 * MS));
        assertEquals(310 * MS, p.hedgeAt());
        assertEquals(List.of("dublin"), p.onTimer(310 * MS));
        assertEquals(List.of(), p.onFailed("dublin", 400 * MS), "mumbai is still out");
        assertEquals(List.of(), p.onSucceeded("mumbai"));
        assertFalse(p.failedAll());
    }

    @Test
    void parallel_asksEveryReplica_andCancelsTheLosers() {
        ReadPlan p = plan(Strategy.PARALLEL);
        assertEquals(ORDER, p.start(0));
        assertEquals(List.of(), p.onFailed("seoul", MS), "the others may still deliver");
        assertEquals(List.of("dublin"), p.onSucceeded("mumbai"));
        assertEquals(List.of(), p.onSucceeded("dublin"), "a late second block changes nothing");
        assertEquals("mumbai", p.winner());
    }

    @Test
    void parallel_everyReplicaFails_theFetchFails() {
        ReadPlan p = plan(Strategy.PARALLEL);
        p.start(0);
        ORDER.forEach(r -> assertEquals(List.of(), p.onFailed(r, MS)));
        assertTrue(p.failedAll());
        assertNull(p.winner());
    }

    @Test
    void unknownOrRepeatedAnswers_ignored() {
        ReadPlan p = plan(Strategy.FIRST);
        p.start(0);
        assertEquals(List.of(), p.onSucceeded("dublin"), "never asked");
        assertEquals(List.of(), p.onFailed("dublin", 0), "never asked");
        assertEquals(List.of("mumbai"), p.onFailed("seoul", 0));
        assertEquals(List.of(), p.onFailed("seoul", 0), "already failed");
        assertThrows(IllegalArgumentException.class, () -> new ReadPlan(Strategy.FIRST, List.of(), r -> 0));
    }

    @Test
    void options_parseAndRefuseWithTheValue() {
        assertEquals(ReadOptions.DEFAULT, ReadOptions.parse("", null));
        assertEquals(new ReadOptions(Strategy.HEDGED, true), ReadOptions.parse(" Hedged", "load"));
        assertEquals("unknown read strategy 'fastest'; choose first, parallel or hedged",
                assertThrows(IllegalArgumentException.class, () -> ReadOptions.parse("fastest", "rtt")).getMessage());
        assertEquals("unknown replica rank 'cpu'; choose rtt or load",
                assertThrows(IllegalArgumentException.class, () -> ReadOptions.parse("first", "cpu")).getMessage());
    }
}
