package geoblocks.blockstore.core;

/**
 * How often the file service's timer ticks (timeouts, the admission queue's deadlines, scrubber
 * pacing, the replication queue, a snapshot about once a second): every {@code fastNanos} while the
 * node works, every {@code slowNanos} once it has been idle for {@code lingerNanos}, so an idle node
 * takes a quarter of the timer events. Work is what the caller reports: a message of a transfer or a
 * client request in or out, a LEDBAT event ({@link #activity}), or a state that needs the fast tick
 * (memory reserved, requests waiting for it, copies owed: {@code busy} at {@link #intervalAt}).
 * Time is passed in (nanoseconds); pure.
 */
public final class TickPace {
    private final long fastNanos;
    private final long slowNanos;
    private final long lingerNanos;
    private long lastActivity;
    private boolean active;

    public TickPace(long fastNanos, long slowNanos, long lingerNanos) {
        if (fastNanos <= 0 || slowNanos < fastNanos || lingerNanos < 0) {
            throw new IllegalArgumentException("need 0 < fast <= slow and linger >= 0, were " + fastNanos + ", "
                    + slowNanos + ", " + lingerNanos + " ns");
        }
        this.fastNanos = fastNanos;
        this.slowNanos = slowNanos;
        this.lingerNanos = lingerNanos;
    }

    /** Work happened at {@code nowNanos}; true when the tick should turn fast at once (it was slow). */
    public boolean activity(long nowNanos, long currentIntervalNanos) {
        lastActivity = nowNanos;
        active = true;
        return currentIntervalNanos > fastNanos;
    }

    /** The interval the tick should have at {@code nowNanos}, {@code busy} saying whether work is under way. */
    public long intervalAt(long nowNanos, boolean busy) {
        if (busy || active && nowNanos - lastActivity < lingerNanos) {
            return fastNanos;
        }
        active = false;
        return slowNanos;
    }

    public long fastNanos() {
        return fastNanos;
    }

    public long slowNanos() {
        return slowNanos;
    }
}
