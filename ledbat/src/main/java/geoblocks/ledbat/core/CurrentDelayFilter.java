package geoblocks.ledbat.core;

/**
 * The current delay of RFC 6817 section 2.4.2 ("FILTER(current_delays)"): the MIN of the last
 * CURRENT_FILTER one-way delay samples, ignoring samples older than one RTT except the newest
 * (section 3.4.2: the filter should cover at least 4 samples but none older than an RTT).
 * Invariant: holds at most {@code size} samples, newest last.
 */
public final class CurrentDelayFilter {
    private final long[] delays;
    private final long[] times;
    private int count;
    private int next;

    public CurrentDelayFilter(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("current filter needs at least 1 sample, was " + size);
        }
        delays = new long[size];
        times = new long[size];
    }

    public void add(long nowMicros, long delayMicros) {
        delays[next] = delayMicros;
        times[next] = nowMicros;
        next = (next + 1) % delays.length;
        count = Math.min(count + 1, delays.length);
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** MIN of the samples no older than {@code maxAgeMicros} (the newest always counts). */
    public long current(long nowMicros, long maxAgeMicros) {
        if (count == 0) {
            throw new IllegalStateException("no delay sample yet");
        }
        int newest = (next - 1 + delays.length) % delays.length;
        long min = delays[newest];
        for (int i = 0; i < count; i++) {
            if (delays[i] < min && nowMicros - times[i] <= maxAgeMicros) {
                min = delays[i];
            }
        }
        return min;
    }
}
