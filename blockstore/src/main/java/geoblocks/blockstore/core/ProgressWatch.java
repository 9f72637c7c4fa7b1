package geoblocks.blockstore.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Whether a cumulative count per key (bytes a peer acknowledged) went up since it was last seen:
 * the first value seen for a key is no progress, a larger one is, an equal or smaller one is not.
 * Pure: no clock, no I/O.
 *
 * @param <K> the key (a peer)
 */
public final class ProgressWatch<K> {
    private final Map<K, Long> seen = new HashMap<>();

    /** Records {@code count} for {@code key}; true when it is larger than the count seen before. */
    public boolean advanced(K key, long count) {
        Long before = seen.put(key, count);
        return before != null && count > before;
    }
}
