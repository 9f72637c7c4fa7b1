package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hedged-reads on small seeded runs: 1 kB and 1 MB files, 20 reads each per strategy, dublin
 * (saopaulo's nearest replica) loaded by one noise reader, with a 4 s mean think time (slow reads
 * are common) and a 15 s one (slow reads are rare: what hedging at the p95 is for).
 */
class HedgedReadsTest {
    private static final HedgedReads.Params COMMON = new HedgedReads.Params(3, HedgedReads.STRATEGIES,
            List.of(1000, 1_000_000), 20, 1, 4 << 20, 4000, 50);
    private static final HedgedReads.Params RARE = new HedgedReads.Params(3, HedgedReads.STRATEGIES,
            List.of(1000, 1_000_000), 20, 1, 4 << 20, 15_000, 50);
    private static ReadsRuns.Outcome common;
    private static Map<String, HedgedReads.Summary> c;
    private static Map<String, HedgedReads.Summary> r;

    @BeforeAll
    static void run() {
        common = HedgedReads.run(COMMON);
        c = byKey(HedgedReads.summaries(COMMON, common));
        r = byKey(HedgedReads.summaries(RARE, HedgedReads.run(RARE)));
    }

    private static Map<String, HedgedReads.Summary> byKey(List<HedgedReads.Summary> list) {
        return list.stream().collect(Collectors.toMap(x -> x.strategy() + "/" + x.size(), Function.identity()));
    }

    @Test
    void everyReadSucceeds_onThreeReplicas() {
        assertTrue(common.errors().isEmpty(), common.errors().toString());
        assertEquals(3 * 2 * 20, common.reads().size());
        assertEquals(List.of("seoul mumbai dublin"), common.replicas().values().stream().distinct().toList());
        assertTrue(common.noiseReads().values().stream().allMatch(n -> n > 0), "dublin was loaded: " + common.noiseReads());
    }

    @Test
    void first_readsEachBlockOnce() {
        double perRead = c.get("first/1000000").bytesInPerRead();
        assertTrue(perRead >= 1_000_000 && perRead < 1_010_000, "bytes into saopaulo per read: " + perRead);
    }

    @Test
    void parallel_asksEveryReplica_andCutsTheTail() {
        assertTrue(c.get("parallel/1000000").bytesInPerRead() > 2_000_000, "every replica sends");
        for (int size : COMMON.sizes()) {
            assertTrue(c.get("parallel/" + size).p90() < c.get("first/" + size).p90(), "p90 at " + size + ": " + c);
        }
    }

    @Test
    void hedged_rareSlowReads_sameMedian_shorterTail_fewExtraBytes() {
        for (int size : RARE.sizes()) {
            assertEquals(r.get("first/" + size).p50(), r.get("hedged/" + size).p50(), "p50 at " + size + ": " + r);
            double first = r.get("first/" + size).bytesInPerRead();
            double hedged = r.get("hedged/" + size).bytesInPerRead();
            // bytes in per read count the node's control traffic too (RTT probes, which ProbePlan now
            // sends only when a peer was silent): rare hedges add about nothing, so allow 0.1 % of noise
            assertTrue(hedged >= 0.999 * first && hedged < 1.1 * first, first + " <= " + hedged + " < 1.1 x");
        }
        assertTrue(r.get("hedged/1000").p99() < r.get("first/1000").p99(), r.toString());
    }

    /**
     * Issue 46: with the hedge after 1.25 medians (not the p95, which a burst in a fifth of the reads owns), hedged's
     * p99 is below first's wherever first has a slow tail (its p99 above its median), and never above it, at the
     * common think time as at the rare one.
     */
    @Test
    void hedged_p99_isBelowFirsts_whereFirstHasASlowTail_commonAndRare() {
        int tails = 0;
        for (Map<String, HedgedReads.Summary> m : List.of(c, r)) {
            for (int size : COMMON.sizes()) {
                HedgedReads.Summary first = m.get("first/" + size);
                double hedged = m.get("hedged/" + size).p99();
                if (first.p99() > first.p50()) {
                    tails++;
                    assertTrue(hedged < first.p99(), "p99 at " + size + ": " + m);
                } else {
                    assertTrue(hedged <= first.p99(), "p99 at " + size + ": " + m);
                }
            }
        }
        assertTrue(tails >= 3, "the scenario gives first a slow tail in most cells: " + tails);
    }

    @Test
    void sameSeed_sameReads() {
        assertEquals(common.reads(), HedgedReads.run(COMMON).reads());
    }

    @Test
    void write_summaryCsv_hasTheHeader_andOneOrderedRowPerStrategyAndSize(@TempDir Path dir) throws IOException {
        HedgedReads.write(dir, COMMON, common, false);
        List<String> lines = Files.readAllLines(dir.resolve("summary.csv"));
        assertEquals("strategy,size_bytes,p50_ms,p90_ms,p99_ms", lines.get(0));
        assertEquals(1 + HedgedReads.STRATEGIES.size() * COMMON.sizes().size(), lines.size(), lines.toString());
        Set<String> seen = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals(5, f.length, line);
            assertTrue(HedgedReads.STRATEGIES.contains(f[0]), line);
            assertTrue(COMMON.sizes().contains(Integer.parseInt(f[1])), line);
            assertTrue(seen.add(f[0] + "/" + f[1]), "one row per strategy and size: " + line);
            double p50 = Double.parseDouble(f[2]);
            double p90 = Double.parseDouble(f[3]);
            double p99 = Double.parseDouble(f[4]);
            assertTrue(p50 > 0 && p50 <= p90 && p90 <= p99, "0 < p50 <= p90 <= p99: " + line);
            HedgedReads.Summary s = c.get(f[0] + "/" + f[1]);
            assertEquals(s.p50(), p50, 0.05, line);
            assertEquals(s.p99(), p99, 0.05, line);
        }
        assertEquals(HedgedReads.STRATEGIES.size() * COMMON.sizes().size(), seen.size());
    }
}
