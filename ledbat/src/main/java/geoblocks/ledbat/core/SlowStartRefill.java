package geoblocks.ledbat.core;

/**
 * When the LEDBAT controller slows-starts again to take back room it gave up (the re-entry rule of
 * {@link LedbatController}, RFC 6817 mode; LEDBAT++ section 4.1's ramp is the idea), pure: every call
 * receives the time in microseconds.
 *
 * <p>It keeps the window that is owed: the cwnd a yield cut (when it gave up more than a minimal
 * window), or the window a slow-start exit kept (so a later collapse below half of it is refilled
 * too). A re-entry is due once the queuing delay's minimum over each RTT has stayed at or below
 * {@code near-zero-delay-ms} for {@code slow-start-reentry-rtts} RTTs while cwnd is below half the
 * owed window, and not within 4 x slow-start-reentry-rtts RTTs of a yield that made room (the newcomer
 * may still be ramping up). A re-entered slow start that a newcomer's queue ends before the window
 * is back leaves it owed, so the next refill goes back to it; one that reaches its target, or ends on
 * a loss or timeout, owes nothing. Invariant: at most one of "a window is owed" and "a re-entry
 * is running" holds.
 */
final class SlowStartRefill {
    private final int reentryRtts;
    private final long nearZeroDelayMicros;
    private long nearZeroSince = Long.MIN_VALUE;   // queuing delay <= near-zero since then
    private long lastRoomMadeAt = Long.MIN_VALUE;  // last yield that gave up more than a minimal window
    private double target;                         // the window owed; 0 when none
    private double running;                        // the target of the re-entered slow start now running; 0 when none
    private long reentries;

    SlowStartRefill(int reentryRtts, long nearZeroDelayMicros) {
        this.reentryRtts = reentryRtts;
        this.nearZeroDelayMicros = nearZeroDelayMicros;
    }

    /** A yield cut cwnd from {@code cwndBefore}; {@code madeRoom}: it gave up more than a minimal window. */
    void yielded(long now, double cwndBefore, boolean madeRoom) {
        if (madeRoom) {
            lastRoomMadeAt = now;
            target = Math.max(target, cwndBefore);
        }
        nearZeroSince = Long.MIN_VALUE;
    }

    /**
     * Slow start ended on the queuing delay keeping {@code cwnd}: that window is owed, and so is the
     * target of a re-entry it cut short. Call before {@link #slowStartEnded}.
     */
    void exitKept(double cwnd) {
        target = Math.max(target, Math.max(cwnd, running));
        running = 0;
    }

    /** Slow start is over (its target reached, a loss, a timeout, or after {@link #exitKept}). */
    void slowStartEnded() {
        running = 0;
        nearZeroSince = Long.MIN_VALUE;
    }

    /**
     * On an ACK in congestion avoidance with cwnd {@code cwnd}, the latest RTT {@code rtt} and the
     * queuing delay's minimum over that RTT ({@code queueMinOverRtt}, or Long.MAX_VALUE when there is
     * none yet): the window to slow-start back to if a re-entry is due now (it is then running and no
     * longer owed), else 0.
     */
    double due(long now, long rtt, double cwnd, long queueMinOverRtt) {
        if (target <= 0 || cwnd >= target / 2 || queueMinOverRtt > nearZeroDelayMicros) {
            nearZeroSince = Long.MIN_VALUE;
            return 0;
        }
        if (lastRoomMadeAt != Long.MIN_VALUE && now - lastRoomMadeAt < 4L * reentryRtts * rtt) {
            nearZeroSince = Long.MIN_VALUE;   // a flow arrived a few RTTs ago and may still be ramping up
            return 0;
        }
        if (nearZeroSince == Long.MIN_VALUE) {
            nearZeroSince = now;
            return 0;
        }
        if (now - nearZeroSince < reentryRtts * rtt) {
            return 0;
        }
        nearZeroSince = Long.MIN_VALUE;
        reentries++;
        running = target;
        target = 0;
        return running;
    }

    /** Times a re-entry was due. */
    long reentries() {
        return reentries;
    }
}
