package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster layout changing under the consistency workload (see {@link Membership}): a region
 * added, another drained (its copies moved away) and removed, with concurrent puts, deletes, racing
 * creates and a partition. Every seed must pass the consistency checks and the scenario's own
 * (changes applied, one final layout everywhere, no new copies at the drained region, none of a
 * current version left there). {@code -Dgeoblocks.sim.membership.seeds=N}
 * (default 10) and {@code .first=S} (default 1) choose the seeds.
 */
class MembershipTest {
    private static final int SEEDS = Integer.getInteger("geoblocks.sim.membership.seeds", 10);
    private static final long FIRST = Long.getLong("geoblocks.sim.membership.first", 1);

    @Test
    void addDrainRemoveUnderLoad_keepEveryAcknowledgedVersion_createsStayExclusive_layoutsConverge() {
        List<String> failed = new ArrayList<>();
        int acked = 0;
        int creates = 0;
        int drainRetries = 0;
        int removeRetries = 0;
        long t0 = System.nanoTime();
        for (long seed = FIRST; seed < FIRST + SEEDS; seed++) {
            Membership.Outcome o = Membership.run(seed);
            if (!o.ok()) {
                failed.add("seed " + seed + ": " + o.consistency().violations() + " " + o.violations());
            }
            acked += (int) o.consistency().writes().stream().filter(w -> w.outcome().equals("ok")).count();
            creates += (int) o.consistency().writes().stream()
                    .filter(w -> w.kind().equals("CREATE") && w.outcome().equals("ok")).count();
            drainRetries += o.drainAttempts() - 1;
            removeRetries += o.removeAttempts() - 1;
        }
        System.out.printf("membership: %d seeds from %d in %.1f s: %d acknowledged writes (%d creates), %d drain"
                + " attempts and %d remove attempts refused before one was applied, %d failed%n", SEEDS, FIRST,
                (System.nanoTime() - t0) / 1e9, acked, creates, drainRetries, removeRetries, failed.size());
        assertTrue(failed.isEmpty(), () -> failed.size() + " seeds failed, first: " + failed.get(0));
        assertTrue(creates > 0, "no create was acknowledged");
    }
}
