package geoblocks.blockstore.core;

import java.util.HashMap;
import java.util.Map;

/**
 * At most one action per key per interval: {@link #due} says yes the first time for a key, then
 * again only once {@code intervalNanos} have passed since the last yes. Time is given on every
 * call (nanoseconds of any monotonic clock). Pure: no clock, no I/O.
 *
 * @param <K> the key (a peer)
 */
public final class TouchThrottle<K> {
    private final long intervalNanos;
    private final Map<K, Long> last = new HashMap<>();

    public TouchThrottle(long intervalNanos) {
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("interval must be >= 0 ns, was " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
    }

    /** True (and remembered) when {@code key} had no yes yet, or its last one is at least the interval before {@code nowNanos}. */
    public boolean due(K key, long nowNanos) {
        Long before = last.get(key);
        if (before != null && nowNanos - before < intervalNanos) {
            return false;
        }
        last.put(key, nowNanos);
        return true;
    }
}
