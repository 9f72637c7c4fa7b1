package geoblocks.blockstore.core;

import java.util.ArrayDeque;

/**
 * The base RTT of one peer and the line above which a sample is a spike. The base is the smallest
 * sample of the last {@code baseWindowNanos} (a windowed minimum, kept in a monotonic deque: each
 * sample in, the larger ones before it out, the expired ones off the front). A sample is a spike
 * when it is more than twice the base plus {@value #SLACK_MS} ms: a probe that waited in a queue, a
 * garbage collection, a session set up. Spikes come alone; a path whose RTT rose does not. So
 * {@code shiftAfter} spikes in a row are a level shift, not spikes: the base restarts from the
 * smallest of them, and what follows is measured against it. A path whose RTT fell moves the base
 * at once. The windowed minimum is how TCP BBR and LEDBAT (RFC 6817, section 4.2: base delay over
 * the last minutes) find a path's propagation delay; the twice-plus-slack line keeps a link of
 * 0.05 ms from calling 0.2 ms a spike while a 150 ms link has room for the usual jitter.
 *
 * <p>Pure: time is passed in (nanoseconds, any origin); no clock, no threads.
 */
public final class RttSpikeFilter {
    /** Samples above {@value #FACTOR} times the base plus this are spikes. */
    public static final double SLACK_MS = 1.0;
    public static final double FACTOR = 2.0;
    /** The base window by default: a minute of samples. */
    public static final long DEFAULT_BASE_WINDOW_NANOS = 60_000_000_000L;
    /** Spikes in a row that make a level shift by default. */
    public static final int DEFAULT_SHIFT_AFTER = 3;

    private record Sample(long atNanos, double ms) {}

    private final long baseWindowNanos;
    private final int shiftAfter;
    /** Increasing in ms from the front; the front is the base. */
    private final ArrayDeque<Sample> mins = new ArrayDeque<>();
    private int spikesInARow;
    /** The smallest spike of the current run, and when it came. */
    private Sample runMin;

    public RttSpikeFilter(long baseWindowNanos, int shiftAfter) {
        if (baseWindowNanos <= 0) {
            throw new IllegalArgumentException("base window must be > 0 ns, was " + baseWindowNanos);
        }
        if (shiftAfter < 1) {
            throw new IllegalArgumentException("level shift must take >= 1 sample, was " + shiftAfter);
        }
        this.baseWindowNanos = baseWindowNanos;
        this.shiftAfter = shiftAfter;
    }

    /** A filter with the default base window and level shift. */
    public static RttSpikeFilter defaults() {
        return new RttSpikeFilter(DEFAULT_BASE_WINDOW_NANOS, DEFAULT_SHIFT_AFTER);
    }

    /**
     * Takes a sample of {@code ms} observed at {@code nowNanos}; returns false when it is a spike (measured
     * against the base before it), true otherwise, and true for the sample that completes a level shift.
     */
    public boolean onSample(double ms, long nowNanos) {
        if (!(ms >= 0)) {
            throw new IllegalArgumentException("rtt sample must be >= 0 ms, was " + ms);
        }
        while (!mins.isEmpty() && nowNanos - mins.peekFirst().atNanos() > baseWindowNanos) {
            mins.pollFirst();
        }
        Sample s = new Sample(nowNanos, ms);
        boolean spike = isSpike(ms);
        if (spike) {
            spikesInARow++;
            runMin = runMin == null || ms < runMin.ms() ? s : runMin;
            if (spikesInARow < shiftAfter) {
                add(s);
                return false;
            }
            mins.clear(); // a level shift: the base restarts from the run
            add(runMin);
        }
        spikesInARow = 0;
        runMin = null;
        add(s);
        return true;
    }

    private void add(Sample s) {
        while (!mins.isEmpty() && mins.peekLast().ms() >= s.ms()) {
            mins.pollLast();
        }
        mins.addLast(s);
    }

    /** The smallest sample of the base window (as of the last sample); NaN before the first. */
    public double baseMs() {
        return mins.isEmpty() ? Double.NaN : mins.peekFirst().ms();
    }

    /** Samples above this are spikes; infinite before the first sample. */
    public double spikeLineMs() {
        return mins.isEmpty() ? Double.POSITIVE_INFINITY : FACTOR * baseMs() + SLACK_MS;
    }

    public boolean isSpike(double ms) {
        return ms > spikeLineMs();
    }
}
