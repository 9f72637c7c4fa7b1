package geoblocks.blockstore.core.liveness;

/**
 * The phi-accrual failure detector of one peer (Hayashibara, Défago, Yared, Katayama, "The φ
 * Accrual Failure Detector", SRDS 2004; the variant of Akka and Cassandra). Every authenticated
 * message from the peer is a heartbeat ({@link #heard}): an RTT probe, its answer, a file-protocol
 * message, a LEDBAT packet. The gaps between heartbeats make a window of samples; phi at time t is
 * {@code -log10(P(the next heartbeat comes later than t))} under a normal distribution of the gaps
 * (mean and standard deviation of the window, the deviation at least {@code minStdDeviation}),
 * computed with the logistic approximation of the normal CDF that Akka uses. A busy peer whose
 * messages come late and irregularly widens its own distribution and so needs a longer silence to
 * be suspected; one whose messages keep flowing is never silent at all.
 *
 * <p>A peer is down when it was never heard, or when its silence is at least {@code minSilence}
 * (down-after) and phi exceeds the threshold, or when its silence reaches {@code maxSilence}
 * whatever phi says. So a peer that falls silent is down after between minSilence and maxSilence.
 * Time is passed in (nanoseconds); pure.
 */
public final class PhiAccrualDetector {
    private final double threshold;
    private final long minSilenceNanos;
    private final long maxSilenceNanos;
    private final double minStdNanos;
    private final long[] gaps;
    private int count;
    private int next;
    private double sum;
    private double sumSquares;
    private long lastHeard;
    private boolean heard;

    /**
     * {@code firstGapNanos}: the gap assumed before two heartbeats were seen (the probe interval);
     * {@code minSilenceNanos} (down-after) must not exceed the settings' max-silence.
     */
    public PhiAccrualDetector(DetectorSettings settings, long firstGapNanos, long minSilenceNanos) {
        if (firstGapNanos <= 0) {
            throw new IllegalArgumentException("first heartbeat gap must be > 0 ns, was " + firstGapNanos);
        }
        long max = settings.maxSilenceMs() * 1_000_000L;
        if (minSilenceNanos <= 0 || minSilenceNanos > max) {
            throw new IllegalArgumentException("down-after (" + minSilenceNanos / 1_000_000 + " ms) must be > 0 and"
                    + " <= failure-detector.max-silence (" + settings.maxSilenceMs() + " ms)");
        }
        this.threshold = settings.threshold();
        this.minSilenceNanos = minSilenceNanos;
        this.maxSilenceNanos = max;
        this.minStdNanos = settings.minStdDeviationMs() * 1e6;
        this.gaps = new long[settings.window()];
        // Akka's bootstrap: two samples around the expected gap, so the first estimate has a spread
        addGap(firstGapNanos - firstGapNanos / 4);
        addGap(firstGapNanos + firstGapNanos / 4);
    }

    /** The peer proved it is alive at {@code nowNanos}. Heartbeats older than the last one are ignored. */
    public void heard(long nowNanos) {
        if (heard && nowNanos - lastHeard <= 0) {
            return;
        }
        if (heard) {
            addGap(nowNanos - lastHeard);
        }
        lastHeard = nowNanos;
        heard = true;
    }

    private void addGap(long gap) {
        if (count == gaps.length) {
            long old = gaps[next];
            sum -= old;
            sumSquares -= (double) old * old;
        } else {
            count++;
        }
        gaps[next] = gap;
        next = (next + 1) % gaps.length;
        sum += gap;
        sumSquares += (double) gap * gap;
    }

    /** True once the peer was heard from and until it is down (see the class comment). */
    public boolean isUp(long nowNanos) {
        if (!heard) {
            return false;
        }
        long silence = nowNanos - lastHeard;
        if (silence >= maxSilenceNanos) {
            return false;
        }
        return silence < minSilenceNanos || phi(nowNanos) <= threshold;
    }

    /** phi at {@code nowNanos}: 0 right after a heartbeat, growing with the silence; +infinity when never heard. */
    public double phi(long nowNanos) {
        if (!heard) {
            return Double.POSITIVE_INFINITY;
        }
        double mean = sum / count;
        double variance = Math.max(0, sumSquares / count - mean * mean);
        double std = Math.max(Math.sqrt(variance), minStdNanos);
        double y = ((nowNanos - lastHeard) - mean) / std;
        double e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
        double later = e / (1.0 + e); // P(the next heartbeat comes later than now)
        return later <= 0 ? Double.MAX_VALUE : -Math.log10(later);
    }

    /** When the peer was last heard from (nanoseconds), meaningful once {@link #everHeard()}. */
    public long lastHeardNanos() {
        return lastHeard;
    }

    public boolean everHeard() {
        return heard;
    }

    /** Mean gap between heartbeats in the window, in nanoseconds. */
    public double meanGapNanos() {
        return sum / count;
    }
}
