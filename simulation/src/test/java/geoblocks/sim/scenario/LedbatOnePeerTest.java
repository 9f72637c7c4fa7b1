package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.ledbat.LedbatOptions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Four concurrent streams from one host to one peer over a 10 Mbit/s bottleneck, Dublin to Mumbai
 * (RTT 122 ms, 400 ms buffer), target 100 ms, seed 1, 60 s, figures over 20-60 s. All streams to a
 * peer ride one LEDBAT flow, so they hold the queue near one TARGET, not four. With one stream per
 * 1 MiB block (as background transfers open them) the flow keeps the link busy and every stream
 * slot progresses; with a controller per stream (before one flow per peer) this ran at 58 %
 * utilization, the queue peaked at 289 ms and three of the four slots finished one block each in
 * 35 s while the fourth got nearly all the bandwidth.
 */
class LedbatOnePeerTest {
    private static final int TARGET_MS = 100;

    private static LedbatOnePeer.Params params(int blockBytes) {
        return new LedbatOnePeer.Params(1, 10, "dublin", "mumbai", 400, LedbatOptions.rfc(TARGET_MS), 4, blockBytes,
                20, 60);
    }

    private static SimResult run(LedbatOnePeer.Params p) {
        SimResult r = SimRunner.run(LedbatOnePeer.plan(p));
        assertEquals(List.of(), r.faults());
        return r;
    }

    @Test
    void fourEndlessStreams_keepTheQueueNearOneTarget() {
        LedbatOnePeer.Params p = params(0);
        LedbatOnePeer.Figures f = LedbatOnePeer.figures(p, run(p));
        System.out.println("4 endless streams: " + f);
        assertTrue(f.utilization() >= 0.90, "utilization " + f.utilization());
        assertTrue(f.meanQueuingDelayMs() <= 1.5 * TARGET_MS, "mean queuing delay " + f.meanQueuingDelayMs() + " ms");
        assertTrue(f.meanQueuingDelayMs() >= 0.5 * TARGET_MS, "the flow fills the queue towards the target: "
                + f.meanQueuingDelayMs() + " ms");
        assertTrue(f.maxQueuingDelayMs() <= 1.5 * TARGET_MS, "max queuing delay " + f.maxQueuingDelayMs() + " ms");
    }

    @Test
    void fourStreamsOfBlocks_shareTheLinkAndStayBelowTarget() {
        LedbatOnePeer.Params p = params(1 << 20);
        SimResult r = run(p);
        LedbatOnePeer.Figures f = LedbatOnePeer.figures(p, r);
        Map<String, Integer> perSlot = new TreeMap<>();
        for (String e : r.extra()) {
            String[] c = e.split(",");
            if (Long.parseLong(c[2]) > p.warmupS() * 1000) {
                perSlot.merge(c[1], 1, Integer::sum);
            }
        }
        System.out.println("4 streams of 1 MiB blocks: " + f + ", blocks per slot " + perSlot);
        assertTrue(f.utilization() >= 0.85, "utilization " + f.utilization());
        assertTrue(f.maxQueuingDelayMs() <= 1.5 * TARGET_MS, "max queuing delay " + f.maxQueuingDelayMs() + " ms");
        assertEquals(4, perSlot.size(), "every slot finished blocks: " + perSlot);
        int min = perSlot.values().stream().min(Integer::compare).orElseThrow();
        int max = perSlot.values().stream().max(Integer::compare).orElseThrow();
        assertTrue(max - min <= 1, "the slots share the flow in turn: " + perSlot);
    }
}
