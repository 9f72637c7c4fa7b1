package geoblocks.ledbat.core;

/**
 * The LEDBAT congestion controller of one stream (RFC 6817 section 2.4.2), pure: every call
 * receives the time in microseconds. On each ACK it filters the one-way delay samples, compares
 * the queuing delay (current minus base) with TARGET and moves cwnd by
 * {@code GAIN * off_target * bytes_newly_acked * MSS / cwnd}; cwnd is then capped at
 * {@code flightsize + ALLOWED_INCREASE * MSS} and floored at {@code MIN_CWND * MSS}. Losses halve
 * cwnd at most once per RTT (section 2.4.2, "at most once per RTT"), a timeout sets it to 1 MSS and
 * doubles the CTO (RFC 6298 section 5.5). cwnd is a double, so off_target never freezes by integer
 * division. Above target the decrease uses {@code gain-decrease}, or with
 * {@code multiplicative-decrease} the LEDBAT++ decrease below; in LEDBAT++ mode
 * (draft-irtf-iccrg-ledbat-plus-plus section 4) the delay is the RTT, GAIN is
 * {@code 1/min(16, ceil(2 TARGET / base))}, the decrease is multiplicative, capped at W/2 per RTT,
 * and periodic slowdowns (cwnd held at MIN_CWND for two RTTs, then slow start back, repeated nine
 * slowdown-durations later) let the queue drain so the base delay is re-measured.
 * Optional slow start (LEDBAT++ section 4.1) doubles cwnd per RTT until the queuing delay reaches
 * 3/4 TARGET, a loss, or the post-timeout threshold.
 */
public final class LedbatController {
    private final LedbatSettings s;
    private final BaseDelayHistory base;
    private final CurrentDelayFilter current;
    private final RtoEstimator rto;
    private final boolean plusPlus;

    private double cwnd;
    private boolean inSlowStart;
    private double ssthresh = Double.MAX_VALUE;
    private long lastLossReaction = Long.MIN_VALUE;
    private long queuingDelay;
    // LEDBAT++ periodic slowdown (draft section 4.4): WAITING until nextSlowdownAt, HOLDING at
    // MIN_CWND for two RTTs, then RECOVERING by slow start to the cwnd before the slowdown
    private enum Slowdown { OFF, WAITING, HOLDING, RECOVERING }
    private Slowdown slowdown = Slowdown.OFF;
    private long nextSlowdownAt;
    private long slowdownStart;
    private long holdUntil;
    private double savedCwnd;
    private long slowdowns;
    private long lastDelaySample;
    private boolean haveDelay;

    /** @param base the base-delay history of the path; streams to the same peer share it */
    public LedbatController(LedbatSettings settings, BaseDelayHistory base) {
        this.s = settings;
        this.base = base;
        this.current = new CurrentDelayFilter(settings.currentFilter);
        this.rto = new RtoEstimator(settings.initialCtoMicros, settings.minCtoMicros, settings.maxCtoMicros);
        this.plusPlus = settings.mode == LedbatSettings.Mode.LEDBAT_PLUS_PLUS;
        this.cwnd = (double) settings.initCwnd * settings.mss;
        this.inSlowStart = settings.slowStart;
    }

    /**
     * Processes one acknowledgement (RFC 6817 section 2.4.2, "on acknowledgement").
     *
     * @param bytesNewlyAcked bytes this ACK acknowledged for the first time (cumulative and selective)
     * @param oneWayDelay the receiver's delay sample (receive time minus our timestamp, µs, any clock
     *     offset), or {@code Long.MIN_VALUE} if the ACK carries none
     * @param rttSample RTT measured from the echoed timestamp (µs), or -1
     * @param flightBeforeAck bytes in flight before this ACK was applied (the RFC's flightsize)
     */
    public void onAck(long now, long bytesNewlyAcked, long oneWayDelay, long rttSample, long flightBeforeAck) {
        rto.sample(rttSample);
        long sample = plusPlus ? rttSample : (oneWayDelay == Long.MIN_VALUE ? -1 : oneWayDelay);
        boolean valid = plusPlus ? rttSample >= 0 : oneWayDelay != Long.MIN_VALUE;
        if (valid) {
            base.update(now, sample);
            current.add(now, sample);
            lastDelaySample = sample;
            long maxAge = Math.max(rto.srtt(), RtoEstimator.G_MICROS);
            queuingDelay = Math.max(0, current.current(now, maxAge) - base.base());
            haveDelay = true;
        }
        if (bytesNewlyAcked <= 0) {
            return;
        }
        double mss = s.mss;
        if (plusPlus && stepSlowdown(now)) {
            return;
        }
        if (inSlowStart && haveDelay && queuingDelay * 4 > s.targetMicros * 3) {
            endSlowStart(now);
        }
        if (inSlowStart) {
            cwnd += bytesNewlyAcked;
            if (cwnd >= ssthresh) {
                cwnd = ssthresh;
                endSlowStart(now);
            }
        } else if (haveDelay) {
            double offTarget = (double) (s.targetMicros - queuingDelay) / s.targetMicros;
            if (offTarget >= 0) {
                cwnd += gain() * offTarget * bytesNewlyAcked * mss / cwnd;
            } else if (plusPlus || s.multiplicativeDecrease) {
                // W += max(GAIN - W * (delay/target - 1), -W/2) per RTT, spread over the ACKs of that RTT
                double perRtt = Math.max(gain() * mss + cwnd * offTarget, -cwnd / 2);
                cwnd += perRtt * bytesNewlyAcked / cwnd;
            } else {
                cwnd += s.gainDecrease * offTarget * bytesNewlyAcked * mss / cwnd;
            }
        }
        // ALLOWED_INCREASE caps growth when the sender is not using its window; slow start may add
        // what this ACK acknowledged (otherwise delayed ACKs would slow the doubling)
        double allowed = (double) s.allowedIncrease * s.mss;
        if (inSlowStart) {
            allowed = Math.max(allowed, bytesNewlyAcked);
        }
        double maxAllowed = flightBeforeAck + allowed;
        cwnd = Math.min(cwnd, Math.min(maxAllowed, s.maxCwndBytes));
        cwnd = Math.max(cwnd, s.minCwndBytes());
    }

    /**
     * Advances the LEDBAT++ periodic slowdown; returns true while cwnd is held at MIN_CWND (the
     * ACK must not grow it), so the queue drains and the base delay is measured afresh.
     */
    private boolean stepSlowdown(long now) {
        long rtt = Math.max(rto.srtt(), RtoEstimator.G_MICROS);
        if (slowdown == Slowdown.WAITING && now >= nextSlowdownAt) {
            slowdown = Slowdown.HOLDING;
            slowdownStart = now;
            savedCwnd = cwnd;
            cwnd = s.minCwndBytes();
            holdUntil = now + 2 * rtt;
            slowdowns++;
        }
        if (slowdown == Slowdown.HOLDING) {
            if (now < holdUntil) {
                cwnd = s.minCwndBytes();
                return true;
            }
            slowdown = Slowdown.RECOVERING;
            ssthresh = Math.max(savedCwnd, s.minCwndBytes());
            inSlowStart = true;
        }
        return false;
    }

    /** Slow start is over; in LEDBAT++ mode this schedules the next periodic slowdown. */
    private void endSlowStart(long now) {
        inSlowStart = false;
        if (!plusPlus) {
            return;
        }
        long rtt = Math.max(rto.srtt(), RtoEstimator.G_MICROS);
        if (slowdown == Slowdown.RECOVERING) {
            // the next slowdown comes 9 times the duration of this one later (draft section 4.4)
            nextSlowdownAt = now + 9 * (now - slowdownStart);
        } else {
            nextSlowdownAt = now + 2 * rtt;   // the first one two RTTs after the initial slow start
        }
        slowdown = Slowdown.WAITING;
    }

    /** Periodic slowdowns started so far (LEDBAT++ mode). */
    public long slowdowns() {
        return slowdowns;
    }

    /** A packet was lost: halve cwnd unless that already happened within the last RTT. Returns whether it did. */
    public boolean onLoss(long now) {
        long rtt = Math.max(rto.srtt(), RtoEstimator.G_MICROS);
        if (lastLossReaction != Long.MIN_VALUE && now - lastLossReaction < rtt) {
            return false;
        }
        lastLossReaction = now;
        if (inSlowStart) {
            endSlowStart(now);
        }
        cwnd = Math.min(cwnd, Math.max(cwnd / 2, s.minCwndBytes()));
        return true;
    }

    /**
     * No ACK for a CTO: cwnd = 1 MSS, CTO doubles; slow start may climb back to half the old cwnd.
     * A timeout before the first RTT sample says nothing about the path's capacity (the first
     * packets waited, e.g. while the network set up an authenticated session, like a lost SYN):
     * then the slow-start threshold stays where it was (RFC 5681 section 3.1 keeps ssthresh after a
     * SYN timeout; only the window restarts at one segment).
     */
    public void onTimeout(long now) {
        if (rto.srtt() >= 0) {
            ssthresh = Math.max(cwnd / 2, s.minCwndBytes());
        }
        cwnd = s.mss;
        inSlowStart = s.slowStart;
        if (slowdown != Slowdown.OFF) {
            slowdown = Slowdown.WAITING;   // a slowdown in progress is abandoned; rescheduled when slow start ends
            nextSlowdownAt = Long.MAX_VALUE;
        }
        lastLossReaction = now;
        rto.backOff();
    }

    private double gain() {
        if (!plusPlus) {
            return s.gain;
        }
        long b = base.base();
        if (b == Long.MAX_VALUE || b <= 0) {
            return s.gain / 16;
        }
        double ratio = Math.ceil(2.0 * s.targetMicros / b);
        return s.gain / Math.max(1, Math.min(16, ratio));
    }

    public double cwnd() {
        return cwnd;
    }

    public long cwndBytes() {
        return (long) cwnd;
    }

    public boolean inSlowStart() {
        return inSlowStart;
    }

    /** Queuing delay (µs) from the last ACK that carried a delay sample. */
    public long queuingDelay() {
        return queuingDelay;
    }

    public long baseDelay() {
        return base.base();
    }

    public long lastDelaySample() {
        return lastDelaySample;
    }

    public RtoEstimator rto() {
        return rto;
    }
}
