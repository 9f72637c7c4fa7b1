package geoblocks.ledbat.core;

/**
 * The minimum of a time series over a sliding window, pure: a monotonic deque of (time, value)
 * with both increasing, so the minimum over the last d is its first element newer than now - d.
 * Amortised O(1) per sample, O(log n) per query, no allocation once the ring has grown.
 */
final class SlidingMinimum {
    private final LongRing samples = new LongRing();

    /** Adds the value seen at {@code now} (times never decrease) and forgets samples older than {@code keep}. */
    void add(long now, long value, long keep) {
        while (!samples.isEmpty() && samples.peekLastB() >= value) {
            samples.pollLast();
        }
        samples.add(now, value);
        while (now - samples.peekA() > keep) {
            samples.poll();
        }
    }

    boolean isEmpty() {
        return samples.isEmpty();
    }

    void clear() {
        samples.clear();
    }

    /** Minimum over the samples of the last {@code window} (the newest counts always); not empty. */
    long minOver(long now, long window) {
        int lo = 0;
        int hi = samples.size() - 1;   // the newest element is never dropped
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (now - samples.a(mid) > window) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return samples.b(lo);
    }
}
