package geoblocks.app.load;

import java.util.List;
import java.util.Objects;

/**
 * What one load run does (SPEC.md experiment 9): {@code threads} client threads for
 * {@code warmupMs} (not measured) and then {@code durationMs} (measured), each picking a random region per request, reading (a random acknowledged
 * file) with probability {@code readRatio} and otherwise writing a new file of a random size from
 * {@code sizes} with {@code policy} in blocks of {@code blockSize}, then thinking a random
 * 0..{@code thinkMaxMs}. {@code preload} files (cycling through the sizes) are written before the
 * clock starts so reads have something to read. Optionally one node is SIGKILLed at
 * {@code kill.atMs} (from the start of the load, warm-up included) and restarted {@code restartAfterMs} later (-1: never). Invariant: validated.
 */
record LoadSettings(int threads, long warmupMs, long durationMs, double readRatio, List<Long> sizes, long thinkMaxMs,
        String policy, int blockSize, long seed, int preload, Kill kill, long restartAfterMs,
        long progressEveryMs, int verifyThreads, int failover) {

    /** SIGKILL {@code region}'s node {@code atMs} after the run starts. */
    record Kill(String region, long atMs) {
        /** Parses {@code REGION@SECONDS}, e.g. {@code dublin@30} or {@code dublin@12.5}. */
        static Kill parse(String spec) {
            int at = spec == null ? -1 : spec.indexOf('@');
            if (at <= 0 || at == spec.length() - 1) {
                throw new IllegalArgumentException("bad --kill '" + spec + "': use REGION@SECONDS, e.g. dublin@30");
            }
            double s;
            try {
                s = Double.parseDouble(spec.substring(at + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad --kill '" + spec + "': '" + spec.substring(at + 1) + "' is not a number of seconds");
            }
            if (!(s >= 0)) {
                throw new IllegalArgumentException("bad --kill '" + spec + "': seconds must be >= 0");
            }
            return new Kill(spec.substring(0, at), Math.round(s * 1000));
        }
    }

    LoadSettings {
        Objects.requireNonNull(policy, "policy");
        sizes = List.copyOf(sizes);
        require(threads >= 1 && threads <= 10_000, "threads must be in 1..10000, was " + threads);
        require(warmupMs >= 0, "warm-up must be >= 0 s, was " + warmupMs + " ms");
        require(durationMs >= 1000, "duration must be at least 1 s, was " + durationMs + " ms");
        require(readRatio >= 0 && readRatio <= 1, "read ratio must be in 0..1, was " + readRatio);
        require(!sizes.isEmpty(), "at least one file size is needed");
        for (long s : sizes) {
            require(s >= 0 && s <= (1L << 32), "file sizes must be in 0..4 GiB, was " + s);
        }
        require(thinkMaxMs >= 0, "think time must be >= 0 ms, was " + thinkMaxMs);
        require(blockSize >= 1, "block size must be >= 1, was " + blockSize);
        require(preload >= 0, "preload must be >= 0, was " + preload);
        require(kill == null || kill.atMs() < warmupMs + durationMs,
                "the kill time must fall inside the run (" + (warmupMs + durationMs) / 1000.0 + " s), was " + (kill == null ? 0 : kill.atMs() / 1000.0) + " s");
        require(restartAfterMs == -1 || restartAfterMs >= 0, "restart-after must be >= 0, was " + restartAfterMs);
        require(restartAfterMs == -1 || kill != null, "restart-after needs --kill");
        require(progressEveryMs >= 100, "progress interval must be >= 100 ms, was " + progressEveryMs);
        require(verifyThreads >= 1, "verify threads must be >= 1, was " + verifyThreads);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
