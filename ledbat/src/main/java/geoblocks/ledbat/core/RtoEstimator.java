package geoblocks.ledbat.core;

/**
 * Retransmission timeout per RFC 6298 (the CTO of RFC 6817 section 2.4.2): SRTT and RTTVAR from
 * RTT samples (section 2), RTO = SRTT + max(G, 4 RTTVAR) clamped to [min, max] (sections 2.4, 2.5),
 * doubled on every timeout (section 5.5, "back off the timer"). Invariant: min <= cto <= max.
 * All values in microseconds.
 */
public final class RtoEstimator {
    /** Clock granularity G: 1 ms, the simulator's resolution. */
    static final long G_MICROS = 1000;

    private final long minCto;
    private final long maxCto;
    private long srtt = -1;
    private long rttvar;
    private long cto;
    private long latestRtt = -1;

    public RtoEstimator(long initialCto, long minCto, long maxCto) {
        if (minCto <= 0 || minCto > maxCto || initialCto < minCto || initialCto > maxCto) {
            throw new IllegalArgumentException("need 0 < min <= initial <= max cto, was " + minCto + " / "
                    + initialCto + " / " + maxCto);
        }
        this.minCto = minCto;
        this.maxCto = maxCto;
        this.cto = initialCto;
    }

    /** Takes an RTT sample (RFC 6298 section 2.2 first, 2.3 subsequent). Negative samples are ignored. */
    public void sample(long rttMicros) {
        if (rttMicros < 0) {
            return;
        }
        latestRtt = rttMicros;
        if (srtt < 0) {
            srtt = rttMicros;
            rttvar = rttMicros / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - rttMicros)) / 4;
            srtt = (7 * srtt + rttMicros) / 8;
        }
        cto = clamp(srtt + Math.max(G_MICROS, 4 * rttvar));
    }

    /** RFC 6298 section 5.5: the timer expired, double the timeout (up to the maximum). */
    public void backOff() {
        cto = clamp(cto > maxCto / 2 ? maxCto : cto * 2);
    }

    private long clamp(long v) {
        return Math.max(minCto, Math.min(maxCto, v));
    }

    public long cto() {
        return cto;
    }

    /** Smoothed RTT, or -1 before the first sample. */
    public long srtt() {
        return srtt;
    }

    public long rttvar() {
        return rttvar;
    }

    /** The latest RTT sample, or -1. */
    public long latestRtt() {
        return latestRtt;
    }
}
