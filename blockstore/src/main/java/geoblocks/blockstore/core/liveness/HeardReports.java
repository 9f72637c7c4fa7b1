package geoblocks.blockstore.core.liveness;

import java.util.HashMap;
import java.util.Map;

/**
 * Which of the messages a component receives from peers to pass on to the failure detector as proof
 * of life: the first from a peer, then at most one per peer every {@code spacingNanos}, so a stream of
 * blocks costs the detector a few events per second, not one per message. Time is passed in; pure.
 */
public final class HeardReports {
    /** One report per peer per 100 ms: the detector's resolution is a fraction of the probe interval. */
    public static final long DEFAULT_SPACING_NANOS = 100_000_000L;
    private final long spacingNanos;
    private final Map<String, Long> lastReported = new HashMap<>();

    public HeardReports(long spacingNanos) {
        if (spacingNanos < 0) {
            throw new IllegalArgumentException("report spacing must be >= 0 ns, was " + spacingNanos);
        }
        this.spacingNanos = spacingNanos;
    }

    /** True when a message from {@code peer} at {@code nowNanos} should be reported (and records it). */
    public boolean shouldReport(String peer, long nowNanos) {
        Long last = lastReported.get(peer);
        if (last != null && nowNanos - last < spacingNanos) {
            return false;
        }
        lastReported.put(peer, nowNanos);
        return true;
    }
}
