package geoblocks.blockstore.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Foreground first toward a peer: when this node moves foreground data to or from a peer (it serves
 * a block a peer fetches for a user's download, fetches one itself, or sends an upload's replica),
 * its background transfers to that peer hold back at once, for {@code holdNanos} after the last such
 * message, instead of waiting for LEDBAT's delay signal (which is for traffic the node does not own).
 * Background to other peers is not affected. This decides when to tell the transport: at the first
 * foreground message with a peer, then again whenever a quarter of the hold has passed since it was
 * last told, so a stream of blocks costs a few requests a second and the hold never lapses while
 * foreground data keeps moving (it ends between 3/4 of the hold and the hold after the last message).
 * Time is passed in (nanoseconds); pure.
 */
public final class ForegroundHold {
    /** The hold after the last foreground message with a peer. */
    public static final long DEFAULT_HOLD_NANOS = 2_000_000_000L;

    private final long holdNanos;
    private final Map<String, Long> lastTold = new HashMap<>();

    public ForegroundHold(long holdNanos) {
        if (holdNanos <= 0) {
            throw new IllegalArgumentException("foreground hold must be > 0 ns, was " + holdNanos);
        }
        this.holdNanos = holdNanos;
    }

    /**
     * Foreground data with {@code peer} at {@code nowNanos}: true when the transport should be told
     * (again) to hold the background to that peer for {@link #holdNanos()} from now.
     */
    public boolean onForeground(String peer, long nowNanos) {
        Long last = lastTold.get(peer);
        if (last != null && nowNanos - last < holdNanos / 4) {
            return false;
        }
        lastTold.put(peer, nowNanos);
        return true;
    }

    public long holdNanos() {
        return holdNanos;
    }
}
