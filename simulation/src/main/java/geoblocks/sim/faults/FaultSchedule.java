package geoblocks.sim.faults;

import java.io.Serializable;
import java.util.List;

/**
 * When and where a storage-fault run injects what, all drawn from its seed: nodes killed and
 * started again on what their disks kept ({@link Crash}), windows of simulated time in which one
 * node's metadata syncs fail or its block disk is full ({@link Window}), the times of bit flips
 * (each hits a block chosen when it lands), and the seed of those choices. {@code syncsLie} (tests of
 * the checks only) makes every metadata sync that does not fail make nothing durable either.
 */
public record FaultSchedule(List<Crash> crashes, List<Window> syncFailures, List<Window> diskFull, List<Long> flipsAtMs,
        long choiceSeed, boolean syncsLie) implements Serializable {
    /** Node {@code region} loses power at {@code killMs} and starts again at {@code restartMs}. */
    public record Crash(String region, long killMs, long restartMs) implements Serializable {}

    /** A fault that holds at {@code region} from {@code fromMs} (inclusive) to {@code toMs} (exclusive). */
    public record Window(String region, long fromMs, long toMs) implements Serializable {
        public boolean covers(String r, long nowMs) {
            return region.equals(r) && nowMs >= fromMs && nowMs < toMs;
        }
    }

    public FaultSchedule {
        crashes = List.copyOf(crashes);
        syncFailures = List.copyOf(syncFailures);
        diskFull = List.copyOf(diskFull);
        flipsAtMs = List.copyOf(flipsAtMs);
    }

    /** This schedule with syncs that report success and make nothing durable: a broken disk the checks must catch. */
    public FaultSchedule withLyingSyncs() {
        return new FaultSchedule(crashes, syncFailures, diskFull, flipsAtMs, choiceSeed, true);
    }

    public boolean syncFails(String region, long nowMs) {
        return syncFailures.stream().anyMatch(w -> w.covers(region, nowMs));
    }

    public boolean full(String region, long nowMs) {
        return diskFull.stream().anyMatch(w -> w.covers(region, nowMs));
    }

    /** The crash of {@code region} that has its restart at {@code nowMs} or most recently before, or null. */
    public Crash restartOf(String region, long nowMs) {
        Crash last = null;
        for (Crash c : crashes) {
            if (c.region().equals(region) && c.restartMs() <= nowMs && (last == null || c.restartMs() > last.restartMs())) {
                last = c;
            }
        }
        return last;
    }
}
