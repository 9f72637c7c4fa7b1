package geoblocks.sim.capacity;

import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.sim.harness.SimRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import se.sics.kompics.simulator.run.LauncherComp;

/**
 * Turn-taking of a placement-capacity simulation: the runs (one per policy) go one after the
 * other, and inside a run one operation at a time, by the client of the operation's site; a
 * download of a file whose upload failed is skipped. When a run's last operation is done the
 * board records each node's disk use ({@code S|run|region|used|capacity}) and empties its store;
 * after the last run it ends the simulation. Static because each simulation runs in a fresh class
 * loader on one thread.
 */
final class CapacityBoard {
    private static int turn;
    private static int lastRun = -1;
    private static final Map<Integer, List<CapacityOp>> OPS = new HashMap<>();
    private static final Map<Integer, Integer> NEXT = new HashMap<>();
    private static final Set<String> FAILED = new HashSet<>();
    private static final Map<Integer, Map<String, MemoryBlockStorage>> STORES = new HashMap<>();

    private CapacityBoard() {}

    static void store(int run, String region, MemoryBlockStorage s) {
        STORES.computeIfAbsent(run, k -> new TreeMap<>()).put(region, s);
    }

    /** Every client of run {@code run} registers the same list; {@code last}: the last run. */
    static void plan(int run, List<CapacityOp> ops, boolean last) {
        OPS.putIfAbsent(run, ops);
        NEXT.putIfAbsent(run, 0);
        if (last) {
            lastRun = run;
        }
    }

    /** The operation due now in {@code run}, or null when it is not that run's turn or it is over. */
    static CapacityOp current(int run) {
        if (turn != run) {
            return null;
        }
        List<CapacityOp> ops = OPS.get(run);
        int i = NEXT.get(run);
        while (i < ops.size() && !ops.get(i).upload() && FAILED.contains(run + ":" + ops.get(i).file())) {
            i++;
        }
        NEXT.put(run, i);
        if (i == ops.size()) {
            finish(run);
            return null;
        }
        return ops.get(i);
    }

    static void uploadFailed(int run, int file) {
        FAILED.add(run + ":" + file);
    }

    static void done(int run) {
        NEXT.merge(run, 1, Integer::sum);
    }

    private static void finish(int run) {
        List<String> out = SimRegistry.extraRecords();
        for (Map.Entry<String, MemoryBlockStorage> e : STORES.getOrDefault(run, Map.of()).entrySet()) {
            MemoryBlockStorage s = e.getValue();
            out.add("S|" + run + "|" + e.getKey() + "|" + s.usedBytes() + "|" + s.space().totalBytes());
            for (var id : s.list()) {
                s.delete(id);
            }
        }
        turn = run + 1;
        if (run == lastRun) {
            LauncherComp.simulatorScheduler.shutdown();
        }
    }
}
