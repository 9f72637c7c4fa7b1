package geoblocks.sim.reads;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import se.sics.kompics.simulator.run.LauncherComp;

/**
 * Coordination of a reads simulation: in each slot the uploader says when the files are stored,
 * the reader when it has finished (the slot's noise readers then stop); when every slot's reader
 * has finished the simulation ends. Static because each simulation runs in a fresh class loader on
 * one thread.
 */
final class ReadsBoard {
    private static final Set<Integer> READY = new HashSet<>();
    private static final Set<Integer> DONE = new HashSet<>();
    private static final Set<Integer> SLOTS = new HashSet<>();

    private ReadsBoard() {}

    /** A slot's reader exists (every reader is created at time 0, before any slot can end). */
    static void register(int slot) {
        SLOTS.add(slot);
    }

    static void ready(int slot) {
        READY.add(slot);
    }

    static boolean isReady(int slot) {
        return READY.contains(slot);
    }

    static boolean isDone(int slot) {
        return DONE.contains(slot);
    }

    private static final Map<Integer, Integer> NOISE = new HashMap<>();

    /** A noise reader of {@code slot} finished a read. */
    static void noiseRead(int slot) {
        NOISE.merge(slot, 1, Integer::sum);
    }

    static int noiseReads(int slot) {
        return NOISE.getOrDefault(slot, 0);
    }

    static void done(int slot) {
        DONE.add(slot);
        if (DONE.containsAll(SLOTS)) {
            LauncherComp.simulatorScheduler.shutdown();
        }
    }
}
