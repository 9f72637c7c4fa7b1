package geoblocks.sim.tcp;

/**
 * Retransmission timeout per RFC 6298: SRTT and RTTVAR from RTT samples (alpha 1/8, beta 1/4),
 * RTO = SRTT + max(G, 4 RTTVAR) clamped to [min, max], doubled on each expiry (backoff) until a
 * new sample arrives. Times in nanoseconds. Invariant: min <= rto <= max.
 */
final class RtoEstimator {
    private static final long GRANULARITY_NS = 1_000_000; // the simulator's clock: 1 ms

    private final long minNs;
    private final long maxNs;
    private long srttNs = -1;
    private long rttvarNs;
    private long rtoNs;
    private long lastSampleNs = -1;

    private final boolean linux;

    RtoEstimator(long initialNs, long minNs, long maxNs) {
        this(initialNs, minNs, maxNs, false);
    }

    /**
     * @param linux RTO = SRTT + max(4 RTTVAR, min) as Linux computes it (its rttvar is at least
     *     rto_min, 200 ms), instead of RFC 6298's max(min, SRTT + 4 RTTVAR)
     */
    RtoEstimator(long initialNs, long minNs, long maxNs, boolean linux) {
        this.linux = linux;
        if (minNs <= 0 || maxNs < minNs || initialNs < minNs || initialNs > maxNs) {
            throw new IllegalArgumentException("need 0 < min <= initial <= max, was min=" + minNs
                    + " initial=" + initialNs + " max=" + maxNs);
        }
        this.minNs = minNs;
        this.maxNs = maxNs;
        this.rtoNs = initialNs;
    }

    /** RFC 6298 section 2.2 (first sample) and 2.3 (later samples). */
    void sample(long rttNs) {
        if (rttNs < 0) {
            throw new IllegalArgumentException("rtt sample must be >= 0 ns, was " + rttNs);
        }
        if (srttNs < 0) {
            srttNs = rttNs;
            rttvarNs = rttNs / 2;
        } else {
            rttvarNs = (3 * rttvarNs + Math.abs(srttNs - rttNs)) / 4;
            srttNs = (7 * srttNs + rttNs) / 8;
        }
        lastSampleNs = rttNs;
        rtoNs = linux ? Math.min(maxNs, srttNs + Math.max(minNs, 4 * rttvarNs))
                : clamp(srttNs + Math.max(GRANULARITY_NS, 4 * rttvarNs));
    }

    /** RFC 6298 section 5.5: back off the timer after it expires. */
    void backoff() {
        rtoNs = clamp(rtoNs * 2);
    }

    private long clamp(long v) {
        return Math.max(minNs, Math.min(maxNs, v));
    }

    long rtoNs() {
        return rtoNs;
    }

    /** Smoothed RTT, or -1 before the first sample. */
    long srttNs() {
        return srttNs;
    }

    long lastSampleNs() {
        return lastSampleNs;
    }
}
