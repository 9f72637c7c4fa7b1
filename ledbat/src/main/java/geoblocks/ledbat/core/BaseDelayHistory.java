package geoblocks.ledbat.core;

import java.util.Arrays;

/**
 * The base delay of RFC 6817 section 2.4.2 ("update_base_delay"): the minimum one-way delay over
 * the last BASE_HISTORY one-minute intervals. Each bucket remembers the minute it belongs to, so an
 * idle period never corrupts the history: minutes with no sample simply have no bucket, and buckets
 * older than BASE_HISTORY minutes are ignored and then overwritten. Invariant: {@link #base} is
 * the minimum of the samples seen in the last {@code minutes} minutes, or Long.MAX_VALUE if none.
 * Pure: the caller passes the time; shared by all streams to one peer (the path's base delay).
 */
public final class BaseDelayHistory {
    private static final long MINUTE_MICROS = 60_000_000L;

    private final int minutes;
    private final long[] bucketMinute;
    private final long[] bucketMin;
    private long base = Long.MAX_VALUE;
    private long baseMinute = Long.MIN_VALUE;

    public BaseDelayHistory(int minutes) {
        if (minutes < 1) {
            throw new IllegalArgumentException("base history must hold at least 1 minute, was " + minutes);
        }
        this.minutes = minutes;
        this.bucketMinute = new long[minutes];
        this.bucketMin = new long[minutes];
        Arrays.fill(bucketMinute, Long.MIN_VALUE);
    }

    /** Adds a one-way delay sample (µs, any offset) taken at {@code nowMicros}. */
    public void update(long nowMicros, long delayMicros) {
        long minute = Math.floorDiv(nowMicros, MINUTE_MICROS);
        int slot = (int) Math.floorMod(minute, (long) minutes);
        if (bucketMinute[slot] != minute) {
            bucketMinute[slot] = minute;
            bucketMin[slot] = delayMicros;
        } else if (delayMicros < bucketMin[slot]) {
            bucketMin[slot] = delayMicros;
        }
        if (minute != baseMinute) {
            baseMinute = minute;
            recompute(minute);
        } else if (delayMicros < base) {
            base = delayMicros;
        }
    }

    /** The base delay as of the last update, Long.MAX_VALUE before any sample. */
    public long base() {
        return base;
    }

    /** The base delay considering only minutes still inside the history at {@code nowMicros}. */
    public long base(long nowMicros) {
        long minute = Math.floorDiv(nowMicros, MINUTE_MICROS);
        if (minute != baseMinute) {
            baseMinute = minute;
            recompute(minute);
        }
        return base;
    }

    private void recompute(long minute) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < minutes; i++) {
            if (bucketMinute[i] > minute - minutes && bucketMinute[i] <= minute && bucketMin[i] < min) {
                min = bucketMin[i];
            }
        }
        base = min;
    }
}
