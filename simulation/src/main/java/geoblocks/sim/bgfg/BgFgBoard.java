package geoblocks.sim.bgfg;

import geoblocks.sim.harness.SimRegistry;
import java.util.List;

/**
 * The script of the background-vs-foreground experiment, shared by its two client machines, and
 * the byte counts the measurement reads. Static because every simulation runs in a fresh class
 * loader on one thread (nothing here is visible to the nodes). Phases, in order:
 * <ol>
 * <li>{@link Phase#PUT_FG}: the uploader stores the foreground file at the near node (policy local);
 * <li>{@link Phase#GET_ALONE}: the downloader reads it through the far node, alone on the link;
 * <li>{@link Phase#PUT_BG}: the uploader stores the background file with ack local, so the near
 *     node's replication queue copies it to the far node in the background;
 * <li>{@link Phase#WARMUP}: the background copy runs alone for a while;
 * <li>{@link Phase#GET_WITH_BG}: the downloader reads the foreground file again;
 * <li>{@link Phase#BG_ALONE}: the background copy runs alone until the uploader's node owes no copy;
 * <li>{@link Phase#DONE}.
 * </ol>
 * Every transition is written to the run's records as {@code P|phase|ms}.
 */
final class BgFgBoard {
    enum Phase { PUT_FG, GET_ALONE, PUT_BG, WARMUP, GET_WITH_BG, BG_ALONE, DONE }

    private static Phase phase = Phase.PUT_FG;
    private static long phaseSinceMs;

    /** Bytes the far node received as TCP replica messages (background copies over TCP). */
    static long tcpReplicaBytes;
    /** Bytes the far node received as TCP block messages (remote reads for a get: foreground). */
    static long tcpBlockBytes;
    /** Bytes the downloader's gets delivered to it, all gets together. */
    static long downloaded;

    private BgFgBoard() {}

    static Phase phase() {
        return phase;
    }

    /** Simulated ms since the current phase began. */
    static long inPhaseMs() {
        return System.currentTimeMillis() - phaseSinceMs;
    }

    static void enter(Phase p) {
        phase = p;
        phaseSinceMs = System.currentTimeMillis();
        record("P|" + p.name() + "|" + phaseSinceMs);
    }

    static void record(String r) {
        List<String> out = SimRegistry.extraRecords();
        out.add(r);
    }
}
