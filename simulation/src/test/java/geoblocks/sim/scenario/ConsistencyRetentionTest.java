package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.consistency.ConsistencyCheck;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ConsistencyTest}'s runs with a short retention: {@code -Dgeoblocks.sim.consistency.retention-seeds=R}
 * (default 20) seeds from {@code -Dgeoblocks.sim.consistency.first=S} (default 1).
 */
class ConsistencyRetentionTest {
    private static final long FIRST = Long.getLong("geoblocks.sim.consistency.first", 1);
    private static final int RETENTION_SEEDS = Integer.getInteger("geoblocks.sim.consistency.retention-seeds", 20);

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
}
