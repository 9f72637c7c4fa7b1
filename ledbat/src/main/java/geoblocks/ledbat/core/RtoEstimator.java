package geoblocks.ledbat.core;

import java.util.Objects;

/**
 * Retransmission timeout per RFC 6298 (the CTO of RFC 6817 section 2.4.2): SRTT and RTTVAR from
 * RTT samples (section 2), RTO = SRTT + max(G, 4 RTTVAR) clamped to [min, max] (sections 2.4, 2.5),
 * doubled on every timeout (section 5.5, "back off the timer"). Invariant: min <= cto <= max.
 *
 * <p>One estimator for every transport: LEDBAT's flows use it in microseconds ({@link
 * #RtoEstimator(long, long, long)}: G is 1 ms); the simulator's TCP flows in nanoseconds, with the
 * granularity in the same unit, and the kernel's rule where they model Linux ({@link Rule#LINUX}:
 * RTO = SRTT + max(min, 4 RTTVAR), its RTTVAR being at least rto_min). The arithmetic is the same in
 * any unit.
 */
public final class RtoEstimator {
    /** Clock granularity G in microseconds: 1 ms, the simulator's resolution. */
    static final long G_MICROS = 1000;

    /** How the timeout follows SRTT and RTTVAR. */
    public enum Rule {
        /** RFC 6298 section 2: SRTT + max(G, 4 RTTVAR), clamped to [min, max]. */
        RFC_6298,
        /** Linux's tcp_set_rto: SRTT + max(min, 4 RTTVAR), at most max. */
        LINUX
    }

    private final long minCto;
    private final long maxCto;
    private final long granularity;
    private final Rule rule;
    private long srtt = -1;
    private long rttvar;
    private long cto;
    private long latestRtt = -1;

    /** An RFC 6298 estimator in microseconds (G = 1 ms). */
    public RtoEstimator(long initialCto, long minCto, long maxCto) {
        this(initialCto, minCto, maxCto, G_MICROS, Rule.RFC_6298);
    }

    /**
     * An estimator in any time unit: {@code granularity} (G) is the clock's resolution in that unit.
     *
     * @throws IllegalArgumentException unless 0 < min <= initial <= max and granularity > 0
     */
    public RtoEstimator(long initialCto, long minCto, long maxCto, long granularity, Rule rule) {
        if (minCto <= 0 || minCto > maxCto || initialCto < minCto || initialCto > maxCto) {
            throw new IllegalArgumentException("need 0 < min <= initial <= max cto, was " + minCto + " / "
                    + initialCto + " / " + maxCto);
        }
        if (granularity <= 0) {
            throw new IllegalArgumentException("the clock granularity must be positive, was " + granularity);
        }
        this.minCto = minCto;
        this.maxCto = maxCto;
        this.granularity = granularity;
        this.rule = Objects.requireNonNull(rule, "rule");
        this.cto = initialCto;
    }

    /** Takes an RTT sample (RFC 6298 section 2.2 first, 2.3 subsequent). Negative samples are ignored. */
    public void sample(long rtt) {
        if (rtt < 0) {
            return;
        }
        latestRtt = rtt;
        if (srtt < 0) {
            srtt = rtt;
            rttvar = rtt / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - rtt)) / 4;
            srtt = (7 * srtt + rtt) / 8;
        }
        cto = rule == Rule.LINUX ? clamp(srtt + Math.max(minCto, 4 * rttvar))
                : clamp(srtt + Math.max(granularity, 4 * rttvar));
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
