package geoblocks.ledbat.core;

/**
 * Keeps the queuing delays of the last two RTTs that can still be a window's minimum, and the
 * decaying peak of their noise, for the controller's RTT-scaled rules. Pure: every call receives
 * the time in microseconds and the RTT that sets the time scale.
 *
 * <p>The samples form a monotonic deque of (time, delay) with both increasing, so the minimum over
 * the last d is its first element newer than now - d. The noise is the largest recent excursion of
 * the quarter-RTT minimum over the RTT minimum (jitter, bursts, a busy receiver), decaying by 1/e
 * per {@link #NOISE_MEMORY_RTTS} RTTs.
 */
final class QueuingDelayWindow {
    static final double NOISE_MEMORY_RTTS = 8;

    private final LongRing recentDelays = new LongRing();
    private double delayNoise;                     // decaying peak of (quarter-RTT minimum - RTT minimum), µs
    private double noisePeakBefore;
    private long lastNoiseAt = Long.MIN_VALUE;

    /** Adds the queuing delay measured at {@code now}, drops samples older than two RTTs and updates the noise. */
    void add(long now, long queuingDelay, long rtt) {
        while (!recentDelays.isEmpty() && recentDelays.peekLastB() >= queuingDelay) {
            recentDelays.pollLast();
        }
        recentDelays.add(now, queuingDelay);
        long keep = 2 * rtt;
        while (now - recentDelays.peekA() > keep) {
            recentDelays.poll();
        }
        // the rise test uses the noise from before this sample
        double excursion = minOver(now, rtt / 4) - minOver(now, rtt);
        noisePeakBefore = delayNoise;
        if (lastNoiseAt != Long.MIN_VALUE) {
            delayNoise -= delayNoise * Math.min(1.0, (double) (now - lastNoiseAt) / (NOISE_MEMORY_RTTS * rtt));
        }
        lastNoiseAt = now;
        delayNoise = Math.max(delayNoise, excursion);
    }

    boolean isEmpty() {
        return recentDelays.isEmpty();
    }

    /** Minimum queuing delay over the samples of the last {@code window} µs (the newest counts always). */
    long minOver(long now, long window) {
        int lo = 0;
        int hi = recentDelays.size() - 1;   // the newest element is never older than the window
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (now - recentDelays.a(mid) > window) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return recentDelays.b(lo);
    }

    /** The noise peak as it was before the latest sample was added, µs. */
    double noisePeakBefore() {
        return noisePeakBefore;
    }
}
