package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.consistency.ConsistencyCheck;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The consistency model under concurrent writers, clock skew and a partition, with the real nodes
 * in the simulator (see {@link Consistency}): every seed must pass every check of
 * {@link ConsistencyCheck}. {@code -Dgeoblocks.sim.consistency.seeds=N} (default 50: the build's
 * sweep; {@code -Dgeoblocks.sim.consistency.seeds=200} is the sweep docs/consistency.md reports),
 * {@code .first=S} (default 1) choose the seeds; {@code node.jar simulate consistency} runs longer
 * sweeps. The same runs with a short retention are {@link ConsistencyRetentionTest}'s (a class of its
 * own so that the build's two test JVMs each take one of the two sweeps).
 */
class ConsistencyTest {
    private static final int SEEDS = Integer.getInteger("geoblocks.sim.consistency.seeds", 50);
    private static final long FIRST = Long.getLong("geoblocks.sim.consistency.first", 1);

    @Test
    void everySeed_convergesWithNoAcknowledgedWriteLost_andCreatesAreExclusive() {
        List<String> failed = new ArrayList<>();
        int acked = 0;
        int during = 0;
        int bothSides = 0;
        int creates = 0;
        long t0 = System.nanoTime();
        for (long seed = FIRST; seed < FIRST + SEEDS; seed++) {
            ConsistencyCheck.Report r = Consistency.run(seed);
            if (!r.ok()) {
                failed.add("seed " + seed + ": " + r.violations());
            }
            acked += (int) r.writes().stream().filter(w -> w.outcome().equals("ok")).count();
            creates += (int) r.writes().stream().filter(w -> w.kind().equals("CREATE") && w.outcome().equals("ok")).count();
            during += r.writesDuringCut();
            bothSides += r.regionsWritingDuringCut().size() == 2 ? 1 : 0;
        }
        System.out.printf("consistency: %d seeds from %d in %.1f s: %d acknowledged writes (%d creates), %d during the"
                + " partition, %d seeds with writes on both sides of it, %d failed%n", SEEDS, FIRST,
                (System.nanoTime() - t0) / 1e9, acked, creates, during, bothSides, failed.size());
        assertTrue(failed.isEmpty(), () -> failed.size() + " seeds failed, first: " + failed.get(0));
        assertTrue(bothSides >= SEEDS * 8 / 10, "too few seeds wrote on both sides of the partition: " + bothSides);
    }

    @Test
    void sameSeed_givesTheSameRecords() {
        assertEquals(Consistency.run(7).records(), Consistency.run(7).records());
    }
}
