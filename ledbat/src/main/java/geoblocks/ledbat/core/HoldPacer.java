package geoblocks.ledbat.core;

/**
 * How fast a flow held for the application's own foreground traffic with its peer may send new data
 * (pure; every call receives the time in microseconds). One per peer, shared by the flows to it, so
 * a flow opened during a hold is held the same way and the hold's age survives flows ending.
 *
 * <p>While held, new data is paced by a token bucket at
 * {@code max(floor, hold-share x the foreground's rate)}:
 * <ul>
 * <li>the foreground's rate is the one the application reported with the hold (its own foreground
 * bytes with the peer per second, {@code ForegroundActive}), so the background keeps a fixed small
 * share of what the foreground moves instead of stopping: a move or a repair to a peer that is
 * being served keeps going, at a rate that grows with the foreground it yields to;</li>
 * <li>the floor starts as the trickle (one MSS per {@code hold-trickle-ms}) and doubles every
 * {@code hold-age-ms} the hold has lasted (aging), so a hold that lasts, for foreground too light
 * to give the background a useful share, gives way step by step and the background cannot be starved
 * by it: after k ages the floor is 2^k trickles. A hold that starts again within {@code hold-age-ms}
 * of the last one's end continues its age: foreground that comes and goes (a steady stream of
 * requests with short pauses between them) would otherwise restart the floor at the trickle at every
 * pause and keep the background, e.g. a drain that must finish, at the trickle for as long as the
 * requests go on.</li>
 * </ul>
 * The bucket holds at most {@link #BURST_MICROS} of the rate (at least one MSS), so a held flow never
 * bursts into the foreground's queue; it starts a hold one MSS in debt, so the first segment of a
 * hold goes one pacing interval after its start.
 */
public final class HoldPacer {
    /** The most the bucket holds, in time at the current rate. */
    static final long BURST_MICROS = 10_000;
    /** Doublings of the floor stop here (by then the hold no longer limits any real path). */
    private static final int MAX_DOUBLINGS = 20;

    private final int mss;
    private final long trickleMicros;
    private final double share;
    private final long ageMicros;
    private long holdUntil = Long.MIN_VALUE;
    private long heldSince;
    private double foregroundBytesPerSecond;
    /** Bytes the flow may still send now; negative: it owes them. */
    private double tokens;
    private long refilledAt;

    /**
     * @param trickleMicros one MSS per this long is the floor of a new hold (> 0)
     * @param share the background's share of the foreground's rate while held (0..1)
     * @param ageMicros the floor doubles every this long a hold lasts (0: never)
     */
    public HoldPacer(int mss, long trickleMicros, double share, long ageMicros) {
        if (mss <= 0 || trickleMicros <= 0 || !(share >= 0 && share <= 1) || ageMicros < 0) {
            throw new IllegalArgumentException("bad hold pacing: mss " + mss + ", trickle " + trickleMicros
                    + " us, share " + share + ", age " + ageMicros + " us");
        }
        this.mss = mss;
        this.trickleMicros = trickleMicros;
        this.share = share;
        this.ageMicros = ageMicros;
    }

    public static HoldPacer of(LedbatSettings s) {
        return new HoldPacer(s.mss, s.holdTrickleMicros, s.holdShare, s.holdAgeMicros);
    }

    /**
     * Foreground traffic with the peer at {@code now}, moving {@code foregroundBytesPerSecond} (0:
     * not known yet): held until {@code until} (or a later time already set). A hold that had ended
     * starts its bucket afresh, and its age too unless it ended less than {@code ageMicros} ago (see
     * {@link #forgotten}); one still running keeps its age.
     */
    public void hold(long now, long until, long foregroundBytesPerSecond) {
        if (until <= now) {
            return;
        }
        if (now >= holdUntil) {
            if (forgotten(now)) {
                heldSince = now;
            }
            tokens = -mss;
            refilledAt = now;
        } else {
            refill(now);
        }
        holdUntil = Math.max(holdUntil, until);
        this.foregroundBytesPerSecond = Math.max(0, foregroundBytesPerSecond);
    }

    public boolean held(long now) {
        return now < holdUntil;
    }

    /**
     * Whether nothing of an earlier hold matters at {@code now}: never held, or the last hold ended
     * {@code ageMicros} or more ago (a new hold starts at the trickle). Until then the pacer is kept
     * for the age a new hold continues.
     */
    public boolean forgotten(long now) {
        return holdUntil == Long.MIN_VALUE || now - holdUntil >= ageMicros;
    }

    /** While held: whether a new segment may go now. */
    public boolean mayStart(long now) {
        refill(now);
        return tokens > 0;
    }

    /** A new segment of {@code bytes} went at {@code now} while held. */
    public void sent(long now, int bytes) {
        refill(now);
        tokens -= bytes;
    }

    /** The pacing rate at {@code now} while held, bytes per second. */
    public double rate(long now) {
        int doublings = ageMicros == 0 ? 0 : (int) Math.min(MAX_DOUBLINGS, Math.max(0, now - heldSince) / ageMicros);
        double floor = mss * 1e6 / trickleMicros * (1L << doublings);
        return Math.max(floor, share * foregroundBytesPerSecond);
    }

    private void refill(long now) {
        if (now <= refilledAt) {
            return;
        }
        double rate = rate(now);
        double cap = Math.max(mss, rate * BURST_MICROS / 1e6);
        tokens = Math.min(cap, tokens + rate * (now - refilledAt) / 1e6);
        refilledAt = now;
    }
}
