package geoblocks.blockstore.core;

/**
 * The round trip one pong measured, from its ping's send time and its own arrival (both on the prober's
 * clock) and the hold the answering node reported (a duration on its clock; negative: none): NTP's delay,
 * {@code (arrival - sent) - hold}.
 *
 * <p>The network stamps a ping before it is sealed, plus the sealing it expects (up to 1 ms), and the
 * answering node measures its hold the same way, so each end may be late by what a sealing took less than
 * expected. On a link whose round trip is shorter than those errors (loopback, a LAN at 0.05 ms) the
 * difference can come out below zero, a pong read "before" its ping left: that is a round trip too short
 * for the stamps to tell, taken as 0. It is not thrown away: a peer whose every answer came out so would
 * never have the samples that make it up. Only an echo of a ping older than {@link #MAX_NANOS}, or one
 * below zero by more than the stamps can err ({@link #MAX_STAMP_ERROR_NANOS}: not times this node took),
 * measures nothing ({@link #NONE}). Pure.
 */
public final class RoundTrip {
    /** An echo of a ping older than this measures nothing: a minute. */
    public static final long MAX_NANOS = 60_000_000_000L;
    /** How far below zero stamps' errors may take a round trip: each end's expected sealing is at most 1 ms. */
    public static final long MAX_STAMP_ERROR_NANOS = 5_000_000L;
    /** What {@link #nanos} returns for a pong that measures nothing. */
    public static final long NONE = -1;

    private RoundTrip() {}

    /**
     * The round trip in nanoseconds (>= 0) of a pong that arrived at {@code arrivedNanos} for a ping sent at
     * {@code sentNanos}, less {@code holdNanos} when that is not negative; {@link #NONE} when it measures nothing.
     */
    public static long nanos(long sentNanos, long arrivedNanos, long holdNanos) {
        long whole = arrivedNanos - sentNanos;
        if (whole > MAX_NANOS || whole < -MAX_STAMP_ERROR_NANOS) {
            return NONE;
        }
        long held = whole - Math.max(0, holdNanos);
        if (held < -MAX_STAMP_ERROR_NANOS) {
            return NONE; // a hold longer than the whole round trip by more than the stamps err
        }
        return Math.max(0, held);
    }
}
