package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Block collection under failing uploads and moves, a partition and a coordinator restarted
 * mid-move, with the real nodes in the simulator (see {@link GcUnderFaults}): for each seed nothing
 * is leaked (no block on any node is unreferenced and older than the grace), nothing is lost (every
 * acknowledged version reads back byte for byte, every replica a kept version places is on its
 * node's disk), and the interrupted move completes everywhere. Two fixed seeds keep it short;
 * {@code -Dgeoblocks.sim.gc.seeds=N} runs more, {@code -Dgeoblocks.sim.gc.dump=PREFIX} writes each
 * seed's records to PREFIX-SEED.txt.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GcUnderFaultsTest {
    private static final int SEEDS = Integer.getInteger("geoblocks.sim.gc.seeds", 2);
    private final List<GcUnderFaults.Report> reports = new ArrayList<>();

    @BeforeAll
    void run() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            long t0 = System.nanoTime();
            GcUnderFaults.Report r = GcUnderFaults.run(seed);
            reports.add(r);
            System.out.printf("gc seed %d (%s restarted, cut %s|%s): %d acknowledged, %d failed writes, %d/%d moves,"
                    + " %d blocks collected, %.1f s%n", seed, r.faults().restarted(), r.faults().sideA(), r.faults().sideB(),
                    r.acked(), r.failedWrites(), r.movesOk(), r.moves(), r.collectedBlocks(), (System.nanoTime() - t0) / 1e9);
            String dump = System.getProperty("geoblocks.sim.gc.dump");
            if (dump != null) {
                try {
                    Files.write(Path.of(dump + "-" + seed + ".txt"), r.records());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    @Test
    void everySeed_leaksNothing_losesNothing_andTheInterruptedMoveCompletes() {
        for (GcUnderFaults.Report r : reports) {
            assertTrue(r.ok(), "seed " + r.seed() + ": " + r.violations());
            assertTrue(r.acked() > 10, "seed " + r.seed() + " acknowledged too few writes: " + r.acked());
            assertTrue(r.failedWrites() > 0, "seed " + r.seed() + ": no write failed, so nothing could leak");
            assertTrue(r.collectedBlocks() > 0, "seed " + r.seed() + ": the collectors collected nothing");
        }
    }

    @Test
    void sameSeed_givesTheSameRecords() {
        assertEquals(reports.get(0).records(), GcUnderFaults.run(reports.get(0).seed()).records());
    }
}
