package geoblocks.blockstore.core;

import java.util.Arrays;

/**
 * RTT estimate for one peer: the median of the last {@code window} samples, so one outlier (SPEC.md
 * saw first samples 60-87 ms off) cannot flip a ranking. With an {@link RttSpikeFilter}, the median
 * leaves out the retained samples above the filter's spike line as it stands now (all of them are kept
 * should none be under it), so spikes are dropped even when they came before the base was known (the
 * first samples after start) or were most of the window. A peer is up once the median rests on
 * {@link #minSamples()} samples (3, or the window if smaller) and stays up while it answers within
 * {@code downAfterNanos}. Time is passed in.
 */
public final class RttEstimator {
    private final double[] samples;
    private final long downAfterNanos;
    /** Null: the plain median. */
    private final RttSpikeFilter filter;
    private int count;
    private int next;
    private long lastReplyNanos = Long.MIN_VALUE;

    /** The plain median of the last {@code window} samples. */
    public RttEstimator(int window, long downAfterNanos) {
        this(window, downAfterNanos, null);
    }

    /** The median of the last {@code window} samples that {@code filter} (null: none) does not call spikes. */
    public RttEstimator(int window, long downAfterNanos, RttSpikeFilter filter) {
        if (window < 1) {
            throw new IllegalArgumentException("rtt window must be >= 1 sample, was " + window);
        }
        if (downAfterNanos <= 0) {
            throw new IllegalArgumentException("down-after must be > 0, was " + downAfterNanos + " ns");
        }
        this.samples = new double[window];
        this.downAfterNanos = downAfterNanos;
        this.filter = filter;
    }

    /** Records one round trip of {@code rttMs} observed at {@code nowNanos}. */
    public void onSample(double rttMs, long nowNanos) {
        if (!(rttMs >= 0)) {
            throw new IllegalArgumentException("rtt sample must be >= 0 ms, was " + rttMs);
        }
        if (filter != null) {
            filter.onSample(rttMs, nowNanos);
        }
        samples[next] = rttMs;
        next = (next + 1) % samples.length;
        count = Math.min(count + 1, samples.length);
        lastReplyNanos = nowNanos;
    }

    public boolean isUp(long nowNanos) {
        return count >= minSamples() && nowNanos - lastReplyNanos <= downAfterNanos;
    }

    /** Samples needed before the estimate counts: with 3, one outlier cannot move the median. */
    public int minSamples() {
        return Math.min(3, samples.length);
    }

    /** Median of the retained samples (those under the spike line, with a filter); NaN before the first sample. */
    public double estimateMs() {
        if (count == 0) {
            return Double.NaN;
        }
        double[] s = Arrays.copyOf(samples, count);
        Arrays.sort(s);
        int n = count;
        if (filter != null) {
            double line = filter.spikeLineMs();
            int under = 0;
            while (under < n && s[under] <= line) {
                under++;
            }
            n = under == 0 ? n : under;
        }
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    public int sampleCount() {
        return count;
    }
}
