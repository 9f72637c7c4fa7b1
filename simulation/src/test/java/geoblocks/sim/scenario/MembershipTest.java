package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster layout changing under the consistency workload (see {@link Membership}): a region
 * added, another drained (its copies moved away) and removed, with concurrent puts, deletes, racing
 * creates, a partition and a node crashed and restarted in the middle. Every seed must pass the
 * consistency checks and the scenario's own (changes applied, one final layout everywhere, no new
 * copies at the drained region, none of any kept version left there, the newcomer holding its share
 * of spread copies, no acknowledged current version below its promised copies outside the rebalance,
 * bytes moved within {@link Membership#MOVED_FACTOR} times the minimum plus {@link Membership#MOVED_SLACK}).
 * {@code -Dgeoblocks.sim.membership.seeds=N} (default 4; hundreds: e.g. 300, about 2 s a seed on an
 * idle machine) and {@code .first=S} (default 1) choose the seeds; without {@code .first} the
 * regression seeds run as well. {@code .homes=true} prints every version's homes as they changed.
 */
class MembershipTest {
    private static final int SEEDS = Integer.getInteger("geoblocks.sim.membership.seeds", 4);
    private static final long FIRST = Long.getLong("geoblocks.sim.membership.first", 1);
    /**
     * Seeds that failed once, run too unless {@code .first} is given: 291 (two large versions picked
     * from one count by two nodes overfilled mumbai, then went back and forth for ever) and 354 (no
     * current version spread at the end, and mumbai's moved copies rightly moved on) and 1401 (a move planned
     * from homes another move changed before it committed named mumbai, whose copy the other move had
     * dropped: one copy left of a two-copy version; MovePlan.moved now refuses it) and 1704 (a
     * read-your-writes read sent to saopaulo in the millisecond its node was killed got no answer: the
     * check now excuses an unanswered read while the region's node was down, not a stale answer).
     */
    private static final List<Long> REGRESSIONS = List.of(291L, 354L, 1401L, 1704L);

    @Test
    void addDrainRemoveUnderLoad_keepEveryAcknowledgedVersion_createsStayExclusive_layoutsConverge() {
        List<String> failed = new ArrayList<>();
        int acked = 0;
        int creates = 0;
        int drainRetries = 0;
        int removeRetries = 0;
        long newcomerBytes = 0;
        long newcomerMoved = 0;
        long share = 0;
        int movedVersions = 0;
        List<Double> ratios = new ArrayList<>();
        long longestBelow = 0;
        String longestBelowSeed = "";
        long longestCrashOnly = 0;
        long moved = 0;
        long minimum = 0;
        long t0 = System.nanoTime();
        List<Long> seeds = new ArrayList<>();
        for (long seed = FIRST; seed < FIRST + SEEDS; seed++) {
            seeds.add(seed);
        }
        if (!System.getProperties().containsKey("geoblocks.sim.membership.first")) {
            seeds.addAll(REGRESSIONS);
        }
        for (long seed : seeds) {
            Membership.Outcome o = Membership.run(seed);
            if (!o.ok()) {
                failed.add("seed " + seed + ": " + o.consistency().violations() + " " + o.violations());
            }
            acked += (int) o.consistency().writes().stream().filter(w -> w.outcome().equals("ok")).count();
            creates += (int) o.consistency().writes().stream()
                    .filter(w -> w.kind().equals("CREATE") && w.outcome().equals("ok")).count();
            drainRetries += o.drainAttempts() - 1;
            removeRetries += o.removeAttempts() - 1;
            newcomerBytes += o.spread().newcomerBytes();
            newcomerMoved += o.spread().newcomerMovedBytes();
            share += o.spread().shareBytes();
            movedVersions += o.spread().movedToNewcomer();
            ratios.add(o.moved().ratio());
            moved += o.moved().bytes();
            minimum += o.moved().minimumBytes();
            if (o.copies().longestMs() > longestBelow) {
                longestBelow = o.copies().longestMs();
                longestBelowSeed = "seed " + seed + ", bound " + o.copies().boundMs() + " ms";
            }
            longestCrashOnly = Math.max(longestCrashOnly, o.copies().longestCrashOnlyMs());
            System.out.printf("membership seed %d %s: drain applied at %d ms, remove at %d ms; mumbai: %d kept versions moved"
                    + " there, %d bytes of current spread copies (%d moved there), its share %d%n", seed,
                    o.ok() ? "ok" : "FAILED",
                    o.drainAppliedMs(), o.removeAppliedMs(), o.spread().movedToNewcomer(), o.spread().newcomerBytes(),
                    o.spread().newcomerMovedBytes(), o.spread().shareBytes());
            System.out.printf("membership seed %d: %s crashed %d..%d ms; %d acknowledged versions, %d stretches below"
                    + " promise, longest %d ms (%s), TO-DRAIN 0 from %d ms, bound %d ms, longest short only of the"
                    + " crashed node %d ms; moved %d bytes in %d moves (the nodes counted %d in %d), minimum %d (drain spread %d, other %d, fill %d),"
                    + " ratio %.2f%n", seed, o.crash().region(), o.crash().killMs(), o.crash().restartMs(),
                    o.copies().versions(), o.copies().stretches(), o.copies().longestMs(), o.copies().longestVersion(),
                    o.copies().drainDoneMs(), o.copies().boundMs(), o.copies().longestCrashOnlyMs(), o.moved().bytes(),
                    o.moved().moves(), o.moved().countedBytes(), o.moved().countedMoves(), o.moved().minimumBytes(), o.moved().drainSpreadBytes(), o.moved().drainOtherBytes(),
                    o.moved().fillBytes(), o.moved().ratio());
            if (Boolean.getBoolean("geoblocks.sim.membership.homes")) {
                o.homes().forEach(h -> System.out.println("  " + h));
            }
            if (!o.ok()) {
                System.out.println("membership seed " + seed + " FAILED: " + o.consistency().violations() + " " + o.violations());
            }
        }
        System.out.printf("membership: %d seeds from %d in %.1f s: %d acknowledged writes (%d creates), %d drain"
                + " attempts and %d remove attempts refused before one was applied, %d failed%n", seeds.size(), FIRST,
                (System.nanoTime() - t0) / 1e9, acked, creates, drainRetries, removeRetries, failed.size());
        ratios.sort(null);
        System.out.printf("membership: bytes moved %d against a minimum of %d; per seed moved/minimum median %.2f,"
                + " largest %.2f (allowed %.1f); longest below promise %d ms (%s); longest short only of a crashed"
                + " node's copies %d ms%n", moved, minimum, ratios.get(ratios.size() / 2), ratios.get(ratios.size() - 1),
                Membership.MOVED_FACTOR, longestBelow, longestBelowSeed, longestCrashOnly);
        assertTrue(failed.isEmpty(), () -> failed.size() + " seeds failed, first: " + failed.get(0));
        assertTrue(creates > 0, "no create was acknowledged");
        System.out.printf("membership: mumbai got %d kept versions by moves; of current spread copies it holds %d bytes"
                + " (%d moved there) against an even share of %d%n", movedVersions, newcomerBytes, newcomerMoved, share);
    }
}
