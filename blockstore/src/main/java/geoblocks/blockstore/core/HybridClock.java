package geoblocks.blockstore.core;

import java.util.function.LongSupplier;

/**
 * A hybrid logical clock (Kulkarni, Demirbas et al., "Logical Physical Clocks and Consistent
 * Snapshots in Globally Distributed Databases", OPODIS 2014): one {@code long} whose upper 48 bits
 * are wall-clock milliseconds and whose lower 16 bits count events within one millisecond.
 *
 * <p>Invariants: every value {@link #now()} returns is greater than every value it returned before
 * and than every value {@link #observe(long) observed} before, and its physical part is never below
 * the wall clock it was given. So a version stamped after this node has seen another version
 * (through a publication, a lookup or anti-entropy) orders after it, whatever the two regions'
 * clocks say; versions made without such a causal link order by wall clock, to within the clocks'
 * offset. When the counter of one millisecond is exhausted the value moves into the next
 * millisecond (the addition carries), which keeps it monotonic.
 *
 * <p>Pure: the wall clock is injected; not thread-safe (one component owns it).
 */
public final class HybridClock {
    /** Bits of the logical counter. */
    public static final int LOGICAL_BITS = 16;
    /** Largest physical part: milliseconds that fit in 48 bits (year 10889). */
    public static final long MAX_PHYSICAL = (1L << (63 - LOGICAL_BITS)) - 1;

    private final LongSupplier wallMillis;
    private long last;

    public HybridClock(LongSupplier wallMillis) {
        this.wallMillis = wallMillis;
    }

    /** A clock value for physical time {@code millis} and counter {@code logical}. */
    public static long of(long millis, int logical) {
        if (millis < 0 || millis > MAX_PHYSICAL) {
            throw new IllegalArgumentException("clock milliseconds must be in 0.." + MAX_PHYSICAL + ", was " + millis);
        }
        if (logical < 0 || logical >= (1 << LOGICAL_BITS)) {
            throw new IllegalArgumentException("clock counter must be in 0.." + ((1 << LOGICAL_BITS) - 1) + ", was " + logical);
        }
        return millis << LOGICAL_BITS | logical;
    }

    /** The wall-clock milliseconds of a clock value. */
    public static long physicalMillis(long clock) {
        return clock >>> LOGICAL_BITS;
    }

    /** The counter of a clock value. */
    public static int logical(long clock) {
        return (int) (clock & ((1 << LOGICAL_BITS) - 1));
    }

    /** A new value for a local event (stamping a version): above everything seen, at least the wall clock. */
    public long now() {
        long wall = Math.max(0, Math.min(wallMillis.getAsLong(), MAX_PHYSICAL));
        if (wall > physicalMillis(last)) {
            last = of(wall, 0);
        } else {
            last = last + 1;
        }
        return last;
    }

    /** Takes in a value made elsewhere: every later {@link #now()} is above it. Negative values are ignored. */
    public void observe(long remote) {
        if (remote > last) {
            last = remote;
        }
    }

    /** The last value made or observed (0 before any). */
    public long last() {
        return last;
    }
}
