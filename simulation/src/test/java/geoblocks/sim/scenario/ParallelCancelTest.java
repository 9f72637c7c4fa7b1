package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.reads.ReadsScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A parallel read's cancels reach the losing replicas and stop their sending. One 8 MiB block on
 * seoul, mumbai and saopaulo (policy with-saopaulo), read in parallel at saopaulo: the local copy
 * wins at once, and the cancels follow the fetches to seoul and mumbai while those are still
 * reading the block, so neither sends any of it. With the cancel message removed from
 * PlannedFetch this test measured 2.7 MB into saopaulo per read (each loser sent into its first
 * window, which the reader no longer acknowledged).
 */
class ParallelCancelTest {
    @Test
    void losersCancelledWhileReading_sendNothing() {
        int size = 8 << 20;
        ReadsScript script = new ReadsScript(0, 7, List.of(size), 3, 250, "parallel", "rtt", "with-saopaulo", 1000,
                "at-dublin", 1000, size);
        ReadsRuns.Outcome o = ReadsRuns.run(ReadsRuns.plan(7, List.of(new ReadsRuns.Slot("parallel", script, 0)), 10_000,
                600_000));
        assertTrue(o.errors().isEmpty(), o.errors().toString());
        assertEquals("seoul mumbai saopaulo", o.replicas().get(0));
        assertEquals(3, o.reads().size());
        assertTrue(o.reads().stream().allMatch(ReadsRuns.Read::ok));
        double perRead = o.bytesIn(0, size) / 3.0;
        assertTrue(perRead < 0.01 * size, "bytes into saopaulo per read: " + perRead);
    }
}
