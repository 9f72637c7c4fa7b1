package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * hedged-reads on a small seeded run: 1 kB and 1 MB files, 20 reads each per strategy, dublin
 * (saopaulo's nearest replica) loaded by one noise reader with a 4 s mean think time.
 */
class HedgedReadsTest {
    private static final HedgedReads.Params P = new HedgedReads.Params(3, HedgedReads.STRATEGIES, List.of(1000, 1_000_000),
            20, 1, 4 << 20, 4000, 50);
    private static ReadsRuns.Outcome o;
    private static Map<String, HedgedReads.Summary> s;

    @BeforeAll
    static void run() {
        o = HedgedReads.run(P);
        s = HedgedReads.summaries(P, o).stream().collect(Collectors.toMap(x -> x.strategy() + "/" + x.size(),
                Function.identity()));
    }

    @Test
    void everyReadSucceeds_onThreeReplicas() {
        assertTrue(o.errors().isEmpty(), o.errors().toString());
        assertEquals(3 * 2 * 20, o.reads().size());
        assertEquals(List.of("seoul mumbai dublin"), o.replicas().values().stream().distinct().toList());
        assertTrue(o.noiseReads().values().stream().allMatch(n -> n > 0), "dublin was loaded: " + o.noiseReads());
    }

    @Test
    void first_readsEachBlockOnce() {
        double perRead = s.get("first/1000000").bytesInPerRead();
        assertTrue(perRead >= 1_000_000 && perRead < 1_010_000, "bytes into saopaulo per read: " + perRead);
    }

    @Test
    void parallel_asksEveryReplica_andCutsTheTail() {
        assertTrue(s.get("parallel/1000000").bytesInPerRead() > 2_000_000, "every replica sends");
        for (int size : P.sizes()) {
            assertTrue(s.get("parallel/" + size).p90() < s.get("first/" + size).p90(), "p90 at " + size + ": " + s);
        }
    }

    @Test
    void hedged_sendsASecondRequestOnlyForSlowReads() {
        double first = s.get("first/1000000").bytesInPerRead();
        double hedged = s.get("hedged/1000000").bytesInPerRead();
        double parallel = s.get("parallel/1000000").bytesInPerRead();
        assertTrue(hedged > first && hedged < (first + parallel) / 2, first + " < " + hedged + " << " + parallel);
        for (int size : P.sizes()) {
            assertTrue(s.get("hedged/" + size).p99() <= s.get("first/" + size).p99(), "p99 at " + size + ": " + s);
        }
        assertTrue(s.get("hedged/1000").p90() < s.get("first/1000").p90(), s.toString());
    }

    @Test
    void sameSeed_sameReads() {
        assertEquals(o.reads(), HedgedReads.run(P).reads());
    }
}
