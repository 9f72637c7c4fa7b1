package geoblocks.ledbat.core;

import java.util.Arrays;

/**
 * The recent queuing delays, for the controller's RTT-scaled rules. Pure: every call receives the
 * time in microseconds and the RTT that sets the time scale.
 *
 * <p>It keeps two things. The minimum over a sliding window ({@link #minOver}), which slow start's
 * exit and the re-entry test read. And the <em>level</em> of the queue: the median of the samples of
 * each quarter RTT. The <em>rise</em> is the newest level above the median of the levels of the
 * {@link #REFERENCE_RTTS} RTTs before it. Medians, because a real path's samples have both spikes (a
 * busy receiver, a burst) and dips (our sender stalls for a few ms and the queue drains that much):
 * a minimum-based rise read every dip in the reference as a rise of everything after it (measured on
 * the 252 ms link: quarter-RTT minima swinging by 10-25 ms with the link otherwise steady). The
 * reference spans several RTTs because a newcomer's slow start doubles its window per RTT: against
 * the last RTT alone only each round's increment would show (+6, +6, +12 ms at 20 Mbit/s for 10,
 * 20, 40 packets), against the level before it came the sum does (+6, +12, +24 ms). The noise is
 * the largest rise (jitter, our own growth and slow start, each rise counting up to a cap the
 * caller sets, and the flows yielded to), decaying by 1/e per
 * {@link #NOISE_MEMORY_RTTS} RTTs, as it stood before the reference window (a rise that builds over a
 * few RTTs must not raise its own threshold).
 */
final class QueuingDelayWindow {
    static final double NOISE_MEMORY_RTTS = 8;
    /** RTTs the rise is measured against. */
    static final int REFERENCE_RTTS = 3;

    private final SlidingMinimum delays = new SlidingMinimum();
    // the samples of the quarter RTT in progress
    private long[] bucket = new long[64];
    private int bucketSize;
    private long bucketStart = Long.MIN_VALUE;
    // (time, level) of the last REFERENCE_RTTS RTTs, and a scratch copy to take their median
    private final LongRing levels = new LongRing();
    private long[] scratch = new long[16];
    private long rise;
    private double delayNoise;                     // decaying peak of the rise, µs
    private long lastNoiseAt = Long.MIN_VALUE;
    // (time, noise peak) at each level, back to REFERENCE_RTTS RTTs ago
    private final LongRing noiseHistory = new LongRing();
    private long noiseBefore;

    /**
     * Adds the queuing delay measured at {@code now}; at the end of each quarter RTT updates the
     * level, the rise and the noise, to which the rise adds at most {@code noiseCap} µs.
     */
    void add(long now, long queuingDelay, long rtt, long noiseCap) {
        delays.add(now, queuingDelay, (REFERENCE_RTTS + 1) * rtt);
        if (bucketStart == Long.MIN_VALUE) {
            bucketStart = now;
        }
        if (bucketSize == bucket.length) {
            bucket = Arrays.copyOf(bucket, bucket.length * 2);
        }
        bucket[bucketSize++] = queuingDelay;
        if (now - bucketStart >= rtt / 4) {
            closeLevel(now, rtt, noiseCap);
        }
    }

    private void closeLevel(long now, long rtt, long noiseCap) {
        Arrays.sort(bucket, 0, bucketSize);
        long level = bucket[bucketSize / 2];
        bucketSize = 0;
        bucketStart = now;
        long horizon = now - REFERENCE_RTTS * rtt;
        while (!levels.isEmpty() && levels.peekA() < horizon) {
            levels.poll();
        }
        rise = levels.isEmpty() ? 0 : level - medianOfLevels();
        levels.add(now, level);
        if (lastNoiseAt != Long.MIN_VALUE) {
            delayNoise -= delayNoise * Math.min(1.0, (double) (now - lastNoiseAt) / (NOISE_MEMORY_RTTS * rtt));
        }
        lastNoiseAt = now;
        delayNoise = Math.max(delayNoise, Math.min(rise, noiseCap));
        noiseHistory.add(now, (long) delayNoise);
        while (noiseHistory.size() > 1 && noiseHistory.a(1) <= horizon) {
            noiseHistory.poll();
        }
        noiseBefore = noiseHistory.peekB();   // the newest snapshot at or before the horizon, else the oldest
    }

    private long medianOfLevels() {
        int n = levels.size();
        if (scratch.length < n) {
            scratch = new long[Integer.highestOneBit(n) * 2];
        }
        for (int i = 0; i < n; i++) {
            scratch[i] = levels.b(i);
        }
        Arrays.sort(scratch, 0, n);
        return scratch[n / 2];
    }

    boolean isEmpty() {
        return delays.isEmpty();
    }

    /** Minimum queuing delay over the samples of the last {@code window} µs (the newest counts always). */
    long minOver(long now, long window) {
        return delays.minOver(now, window);
    }

    /** How far the latest quarter-RTT level stands above the median level of the {@link #REFERENCE_RTTS} RTTs before it, µs. */
    long rise() {
        return rise;
    }

    /**
     * The noise peak as it stood {@link #REFERENCE_RTTS} RTTs ago, before anything the rise is
     * measured over (or as early as known), µs.
     */
    double noisePeakBefore() {
        return noiseBefore;
    }
}
