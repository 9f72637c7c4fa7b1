package geoblocks.ledbat.core;

/**
 * The LEDBAT congestion controller of one flow, that is of one peer: every background stream to
 * that peer shares the flow and this controller (RFC 6817 section 2.4.2). Pure: every call
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
 *
 * <p>In RFC 6817 mode three rules on the time scale of the newest RTT sample make the flow work on
 * long paths (each switchable, see reference.conf): <b>slow-start exit</b> keeps the flight that
 * holds the measured queue (delivery rate x RTT) instead of the doubled window, and holds the
 * decrease for the RTT its overshoot takes to drain, and does not grow while the queue is past 3/4
 * TARGET; <b>yield</b>: a queue whose level (the median of a quarter RTT) stands
 * {@code yield-rise-ms} and 1.5 x the path's noise above its median level of the three RTTs before,
 * beyond our own growth in that time, holds another flow's packets, so cwnd *= {@code yield-factor},
 * at most once per RTT, not while slow start's last doubling settles; <b>re-entry</b>: after a
 * yield, once the queue has been near empty for {@code slow-start-reentry-rtts} RTTs (and not
 * within four times that after the yield), slow start again from 1/8 of the window given up back to
 * that window.
 */
public final class LedbatController {
    /**
     * RTTs after slow start ends during which a rising queue is not taken for another flow: the
     * flight cut at the exit drains and the queue settles to the new window (dips, then rises).
     */
    static final int SETTLE_RTTS = 4;
    /** Slow start re-entered after a yield starts from cwnd-before-the-yield / this. */
    static final int RESTART_DIVISOR = 8;
    /** A rise must also exceed this many times the recent noise (the largest recent rise, decaying). */
    static final double NOISE_FACTOR = 1.5;
    /**
     * The noise our own slow start (and its settling) may add, in units of {@code yield-rise-ms}
     * (40 ms with the default 5 ms; it decays to 5 ms in 17 RTTs). Measured with the simulator's 3 ms
     * jitter, seeds 1-5, RTT 122 and 252 ms, before slow start held past 3/4 TARGET: with 10 or 20 ms,
     * 4 and 2 runs of 10 yielded to the path's own noise soon after slow start (the noise had to be
     * learned again), with 40 ms 1; with the hold, none.
     */
    static final long OWN_NOISE_CAP = 8;

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
    // RTT-scaled rules (see reference.conf): the latest RTT sample (µs, -1 before the first) sets
    // their time scale, since SRTT lags by many RTTs after the queue changes
    private long lastRtt = -1;
    private long slowStartExitAt = Long.MIN_VALUE;
    private long lastYieldAt = Long.MIN_VALUE;
    // the window to refill by slow start once the queue is empty, and when to (the re-entry rule)
    private final SlowStartRefill refill;
    private long transientUntil = Long.MIN_VALUE;  // a slow-start exit's overshoot is still queued
    private double restartCwnd;                    // set by a re-entry, applied at the end of that ACK
    // sliding-window minima of the queuing delay over the last REFERENCE_RTTS + 1 RTTs, and their noise
    private final QueuingDelayWindow recentDelays = new QueuingDelayWindow();
    // cwnd after each ACK over the same span, to tell our own growth from another flow's queue
    private final SlidingMinimum cwndHistory = new SlidingMinimum();
    private long yields;
    // bytes acknowledged during the last two RTTs of slow start
    private final SlowStartDelivery ssDelivery = new SlowStartDelivery();

    /** @param base the base-delay history of the path; streams to the same peer share it */
    public LedbatController(LedbatSettings settings, BaseDelayHistory base) {
        this.s = settings;
        this.base = base;
        this.current = new CurrentDelayFilter(settings.currentFilter);
        this.rto = new RtoEstimator(settings.initialCtoMicros, settings.minCtoMicros, settings.maxCtoMicros);
        this.plusPlus = settings.mode == LedbatSettings.Mode.LEDBAT_PLUS_PLUS;
        this.cwnd = (double) settings.initCwnd * settings.mss;
        this.inSlowStart = settings.slowStart;
        this.refill = new SlowStartRefill(settings.slowStartReentryRtts, settings.nearZeroDelayMicros);
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
        if (rttSample >= 0) {
            lastRtt = rttSample;
        }
        long sample = plusPlus ? rttSample : (oneWayDelay == Long.MIN_VALUE ? -1 : oneWayDelay);
        boolean valid = plusPlus ? rttSample >= 0 : oneWayDelay != Long.MIN_VALUE;
        if (valid) {
            base.update(now, sample);
            current.add(now, sample);
            lastDelaySample = sample;
            long maxAge = Math.max(rto.srtt(), RtoEstimator.G_MICROS);
            queuingDelay = Math.max(0, current.current(now, maxAge) - base.base());
            haveDelay = true;
            trackRise(now);
        }
        if (bytesNewlyAcked <= 0) {
            return;
        }
        if (s.yieldRiseMicros > 0 && !plusPlus) {
            // the window as it stood before this ACK: what our own growth is measured from
            cwndHistory.add(now, (long) cwnd, (QueuingDelayWindow.REFERENCE_RTTS + 1) * rtt());
        }
        double mss = s.mss;
        if (plusPlus && stepSlowdown(now)) {
            return;
        }
        if (inSlowStart && !plusPlus && s.slowStartReentryRtts > 0) {
            ssDelivery.add(now, bytesNewlyAcked, rtt());
        }
        if (inSlowStart && haveDelay && slowStartDelay(now) * 4 > s.targetMicros * 3) {
            long exitCwnd = flightForQueueAtThreeQuartersTarget(now);
            if (s.slowStartReentryRtts > 0 && !plusPlus) {
                // slow start doubled the window in the RTT the delay sample took to come back, and
                // those packets push the queue far past TARGET: keep only the flight that holds a
                // queue of 3/4 TARGET (the delivery rate, the link being full once a queue builds,
                // times the base RTT plus 3/4 TARGET), but at least half, the window of one RTT ago
                // (a premature exit, on a slow-start burst's queue, must not also lose the last
                // doubling); the overshoot drains for one RTT of today's (queue-inflated) length
                cwnd = Math.max(Math.min(cwnd, Math.max(exitCwnd, cwnd / 2)), s.minCwndBytes());
                transientUntil = now + rtt();
                refill.exitKept(cwnd);   // owed, with the target of a re-entry this exit cut short
                endSlowStart(now);
                return;
            }
            endSlowStart(now);
        }
        if (valid && !inSlowStart && slowdownIdle()) {
            if (yieldToRise(now)) {
                return;
            }
            reenterSlowStartIfIdle(now);
        }
        if (inSlowStart) {
            if (!holdSlowStart()) {
                cwnd += bytesNewlyAcked;
            }
            if (cwnd >= ssthresh) {
                cwnd = ssthresh;
                endSlowStart(now);
            }
        } else if (haveDelay) {
            double offTarget = (double) (s.targetMicros - queuingDelay) / s.targetMicros;
            if (offTarget < 0 && inSlowStartTransient(now)) {
                offTarget = 0;   // the packets sent before slow start ended are still queued: already accounted for
            }
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
        if (restartCwnd > 0) {
            cwnd = Math.max(cwnd, restartCwnd);   // the restart is meant to exceed ALLOWED_INCREASE once
            restartCwnd = 0;
        }
    }

    /**
     * The queuing delay slow start compares with 3/4 TARGET: with the RTT-based rules, its minimum
     * over the last quarter RTT, since each doubling's burst queues for a moment even while the
     * window is still below the path's capacity (an unpaced 128 KB burst is 50 ms at 20 Mbit/s);
     * otherwise the current delay.
     */
    private long slowStartDelay(long now) {
        if (plusPlus || s.slowStartReentryRtts <= 0 || recentDelays.isEmpty()) {
            return queuingDelay;
        }
        return recentDelays.minOver(now, rtt() / 4);
    }

    /**
     * With the RTT-based rules, slow start does not grow while the current queuing delay is past
     * 3/4 TARGET: its exit waits for the quarter-RTT minimum to get there too (a burst's momentary
     * queue must not end it), and one dip in that minimum let the window double once more into a
     * full buffer (measured at RTT 252 ms: 1.57 MB against a 630 KB path, 119 packets lost).
     */
    private boolean holdSlowStart() {
        return !plusPlus && s.slowStartReentryRtts > 0 && haveDelay && queuingDelay * 4 > s.targetMicros * 3;
    }

    /** The time scale of the RTT-based rules: the latest RTT sample, else SRTT, at least G. */
    private long rtt() {
        long r = lastRtt >= 0 ? lastRtt : rto.srtt();
        return Math.max(r, RtoEstimator.G_MICROS);
    }

    private boolean slowdownIdle() {
        return slowdown == Slowdown.OFF || slowdown == Slowdown.WAITING;
    }

    /** Keeps the recent queuing delays that can still be a window's minimum, and their noise. */
    private void trackRise(long now) {
        if (plusPlus || (s.yieldRiseMicros <= 0 && s.slowStartReentryRtts <= 0)) {
            return;
        }
        // our own slow start and the RTTs its exit takes to settle move the queue by hundreds of ms:
        // what they say of the path's noise is capped, or the threshold would stay above a newcomer's
        // first rounds for many seconds after (at RTT 252 ms, 7 ms at 14 s from a 270 ms peak at 5 s)
        long rtt = rtt();
        boolean ours = inSlowStart
                || (slowStartExitAt != Long.MIN_VALUE && now - slowStartExitAt < SETTLE_RTTS * rtt);
        recentDelays.add(now, queuingDelay, rtt, ours ? OWN_NOISE_CAP * s.yieldRiseMicros : Long.MAX_VALUE);
    }

    /**
     * A queue level more than {@code yield-rise-ms} (and 1.5 x the noise) above the median level of
     * the {@link QueuingDelayWindow#REFERENCE_RTTS} RTTs before, beyond what our own window grew by
     * in that time, is another flow's: our own growth (at most GAIN MSS per RTT outside slow start)
     * cannot raise it that fast. Cuts cwnd by {@code yield-factor}, at most once per RTT and not
     * during the {@link #SETTLE_RTTS} RTTs after slow start (whose last doubling is still reaching
     * the queue). Returns whether it cut.
     */
    private boolean yieldToRise(long now) {
        if (plusPlus || s.yieldRiseMicros <= 0 || recentDelays.isEmpty()) {
            return false;
        }
        long rtt = rtt();
        // the queue's level (a quarter RTT's median: a receiver or scheduler hiccup of a few ms does
        // not move it) rose by more than yield-rise-ms over the median level of the REFERENCE_RTTS
        // RTTs before, once the queue our own window grew by since then is taken off
        double rise = recentDelays.rise() - ownGrowthDelay(now, rtt);
        if (rise <= Math.max(s.yieldRiseMicros, NOISE_FACTOR * recentDelays.noisePeakBefore())) {
            return false;
        }
        if ((lastYieldAt != Long.MIN_VALUE && now - lastYieldAt < rtt)
                || (slowStartExitAt != Long.MIN_VALUE && now - slowStartExitAt < SETTLE_RTTS * rtt)) {
            return false;
        }
        lastYieldAt = now;
        refill.yielded(now, cwnd, cwnd > 2 * s.minCwndBytes());
        yields++;
        cwnd = Math.max(cwnd * s.yieldFactor, s.minCwndBytes());
        return true;
    }

    /**
     * The queuing delay our own window's growth over the reference RTTs accounts for: the bytes
     * cwnd grew by, queued at the rate the window delivers (cwnd per RTT). 20 Mbit/s, 1 MSS per RTT:
     * 0.6 ms per RTT; 1 Mbit/s: 11 ms. A window not fully used overstates it (a later yield).
     */
    private double ownGrowthDelay(long now, long rtt) {
        if (cwndHistory.isEmpty() || cwnd <= 0) {
            return 0;
        }
        double grown = cwnd - cwndHistory.minOver(now, QueuingDelayWindow.REFERENCE_RTTS * rtt);
        return grown <= 0 ? 0 : rtt * grown / cwnd;
    }

    /**
     * Slow start again when {@link SlowStartRefill} says a re-entry is due: after a competitor left,
     * the path has room that linear growth would take long to refill (6 KB/s at RTT 252 ms). Only after
     * yields or a collapse: re-entering after any empty queue let whichever LEDBAT flow saw it first
     * take the link from the others.
     */
    private void reenterSlowStartIfIdle(long now) {
        if (s.slowStartReentryRtts <= 0 || !s.slowStart || plusPlus) {
            return;
        }
        long rtt = rtt();
        double back = refill.due(now, rtt, cwnd, recentDelays.isEmpty() ? Long.MAX_VALUE : recentDelays.minOver(now, rtt));
        if (back > 0) {
            inSlowStart = true;
            ssthresh = back;   // back to the window we held before the flow came (or less: 3/4 TARGET)
            // after a competitor left, restart from a fraction of the window we gave up (a burst
            // of RESTART_DIVISOR-th of it into an empty queue) rather than from MIN_CWND: for a
            // 700 KB window (20 Mbit/s, RTT 252 ms) 5 fewer doublings, 1.6 s
            restartCwnd = Math.min(back / RESTART_DIVISOR, s.maxCwndBytes);
        }
    }

    /**
     * Bytes in flight that hold a queue of 3/4 TARGET: the rate acknowledged over the last half RTT
     * of slow start (or since the oldest ACK kept, if more recent) times (the newest RTT sample
     * minus today's queuing delay plus 3/4 TARGET).
     */
    private long flightForQueueAtThreeQuartersTarget(long now) {
        long rtt = rtt();
        double rate = ssDelivery.rate(now, rtt / 2);
        if (rate < 0) {
            return (long) cwnd;
        }
        long wanted = Math.max(rtt - queuingDelay, RtoEstimator.G_MICROS) + s.targetMicros * 3 / 4;
        return (long) (rate * wanted);
    }

    /** Within an RTT (as long as at the exit) after slow start ended: its last doubling is still in the queue. */
    private boolean inSlowStartTransient(long now) {
        return s.slowStartReentryRtts > 0 && !plusPlus && now < transientUntil;
    }

    /** Times slow start was entered again after a quiet queue. */
    public long slowStartReentries() {
        return refill.reentries();
    }

    /** Times cwnd was cut because the queuing delay rose faster than we could have raised it. */
    public long yields() {
        return yields;
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
        refill.slowStartEnded();
        slowStartExitAt = now;
        ssDelivery.clear();
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

    /**
     * Puts the window back to {@code bytes} (within min-cwnd and max-cwnd-bytes): while the flow is
     * held for the application's foreground traffic, what its ACKs say (a trickle's flight, the
     * foreground's queue) is not about the flow's own share, so the flow resumes with the window it had.
     */
    public void restoreCwnd(double bytes) {
        cwnd = Math.max(Math.min(bytes, s.maxCwndBytes), s.minCwndBytes());
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
