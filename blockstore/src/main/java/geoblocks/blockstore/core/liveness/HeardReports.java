package geoblocks.blockstore.core.liveness;

import geoblocks.blockstore.core.TouchThrottle;

/**
 * Which of the messages a component receives from peers to pass on to the failure detector as proof
 * of life: the first from a peer, then at most one per peer every {@code spacingNanos}, so a stream of
 * blocks costs the detector a few events per second, not one per message (the rule is
 * {@link TouchThrottle}'s). Time is passed in; pure. Thread-safe (holds its monitor): the
 * components of a node share one, so a peer heard by two of them is reported as often as by one.
 */
public final class HeardReports {
    /** One report per peer per 100 ms: the detector's resolution is a fraction of the probe interval. */
    public static final long DEFAULT_SPACING_NANOS = 100_000_000L;
    private final TouchThrottle<String> throttle;

    public HeardReports(long spacingNanos) {
        if (spacingNanos < 0) {
            throw new IllegalArgumentException("report spacing must be >= 0 ns, was " + spacingNanos);
        }
        this.throttle = new TouchThrottle<>(spacingNanos);
    }

    /** True when a message from {@code peer} at {@code nowNanos} should be reported (and records it). */
    public synchronized boolean shouldReport(String peer, long nowNanos) {
        return throttle.due(peer, nowNanos);
    }
}
