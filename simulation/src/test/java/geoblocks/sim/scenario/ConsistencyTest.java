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
 * {@code .first=S} (default 1) and {@code .retention-seeds=R} (default 20) choose the seeds;
 * {@code node.jar simulate consistency} runs longer sweeps.
 */
class ConsistencyTest {
    private static final int SEEDS = Integer.getInteger("geoblocks.sim.consistency.seeds", 50);
    private static final long FIRST = Long.getLong("geoblocks.sim.consistency.first", 1);
    private static final int RETENTION_SEEDS = Integer.getInteger("geoblocks.sim.consistency.retention-seeds", 20);

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

    /**
     * With a 5 s retention every superseded version is dropped everywhere, with its blocks, and every
     * lone tombstone once every region acknowledged it; a name deleted during the partition while the
     * other side held it stays deleted.
     */
    @Test
    void shortRetention_everyRegionKeepsOnlyTheWinner_andDroppedVersionsLeaveNoBlocks() {
        List<String> failed = new ArrayList<>();
        int dropped = 0;
        for (long seed = FIRST; seed < FIRST + RETENTION_SEEDS; seed++) {
            ConsistencyCheck.Report r = Consistency.run(seed, true);
            if (!r.ok()) {
                failed.add("seed " + seed + ": " + r.violations());
            }
            dropped += (int) r.records().stream().filter(l -> l.startsWith("B|0|")).count()
                    - (int) r.records().stream().filter(l -> l.startsWith("B|1|")).count();
        }
        assertTrue(failed.isEmpty(), () -> failed.size() + " seeds failed, first: " + failed.get(0));
        assertTrue(dropped > 0, "the retention dropped no block at all");
    }

    @Test
    void sameSeed_givesTheSameRecords() {
        assertEquals(Consistency.run(7).records(), Consistency.run(7).records());
    }
}
