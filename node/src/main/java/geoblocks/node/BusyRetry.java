package geoblocks.node;

import geoblocks.blockstore.wire.FailureCode;
import java.util.Random;

/**
 * When and how long a client waits before retrying a request a node refused as busy (its transfer
 * memory budget was full: nothing was stored or acknowledged, so the request can simply be sent
 * again). Exponential backoff with full jitter ("Exponential Backoff And Jitter", AWS Architecture
 * Blog, 2015): before retry k (1-based) wait a uniformly random time in [0, min(cap, base * 2^(k-1))].
 * Pure: the random source is injected.
 */
public final class BusyRetry {
    private final int retries;
    private final long baseMs;
    private final long capMs;
    private final Random random;

    public BusyRetry(int retries, long baseMs, long capMs, Random random) {
        if (retries < 0 || baseMs < 1 || capMs < baseMs) {
            throw new IllegalArgumentException("busy retry needs retries >= 0 and 1 <= base <= cap, was retries="
                    + retries + " base=" + baseMs + " ms cap=" + capMs + " ms");
        }
        this.retries = retries;
        this.baseMs = baseMs;
        this.capMs = capMs;
        this.random = random;
    }

    /** True when a failure with this code (null: not a node's) may be retried, and {@code failedAttempts} allows one more. */
    public boolean shouldRetry(FailureCode code, int failedAttempts) {
        return failedAttempts <= retries && code == FailureCode.BUSY;
    }

    /** Milliseconds to wait before retry number {@code retry} (1-based). */
    public long delayMs(int retry) {
        long ceiling = Math.min(capMs, baseMs << Math.min(retry - 1, 30));
        return (long) (random.nextDouble() * (ceiling + 1));
    }

    public int retries() {
        return retries;
    }
}
