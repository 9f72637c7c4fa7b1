package geoblocks.blockstore.core;

/**
 * The interval of periodic work that usually finds nothing to do (an anti-entropy exchange between
 * converged nodes): each round that found nothing doubles it, up to {@code max}; any round that
 * found work, or any change that may have made some, brings it back to {@code base} at once. A busy
 * cluster runs at {@code base}; an idle one wakes up rarely. Pure; not thread-safe.
 */
public final class IdleBackoff {
    private final long base;
    private final long max;
    private long interval;

    public IdleBackoff(long base, long max) {
        if (base <= 0 || max < base) {
            throw new IllegalArgumentException("idle backoff needs 0 < base <= max, was base=" + base + " max=" + max);
        }
        this.base = base;
        this.max = max;
        this.interval = base;
    }

    /** The wait before the next round. */
    public long interval() {
        return interval;
    }

    /** The round found nothing to do: wait twice as long (at most {@code max}) before the next one. */
    public void quiet() {
        interval = Math.min(max, interval * 2);
    }

    /** The round found work, or something changed: back to {@code base}. */
    public void reset() {
        interval = base;
    }
}
