package geoblocks.node.http;

/**
 * Bounds a slow request body (a slow-loris that sends its head at once and then trickles the body
 * just fast enough to stay under the idle timeout): after {@code graceMs} from the body's start, the
 * body must keep an average of at least {@code minBytesPerSecond} counted from the end of the grace,
 * and it must end within {@code maxMs} of its start. In one formula, the body is too slow at
 * {@code now} when {@code now >= deadline(start, bytes)}, where {@code deadline = start + graceMs +
 * bytes * 1000 / minBytesPerSecond}, capped at {@code start + maxMs}: each byte received buys
 * {@code 1000 / minBytesPerSecond} ms more. A zero {@code minBytesPerSecond} or {@code maxMs} turns
 * that bound off. Pure: times are milliseconds on any monotonic clock, given by the caller.
 */
public record BodyDeadline(long graceMs, long minBytesPerSecond, long maxMs) {
    /** 10 s of grace, then 1 KiB/s on average; at most 6 h in all (the reference.conf defaults). */
    public static final BodyDeadline DEFAULT = new BodyDeadline(10_000, 1024, 6 * 3_600_000L);
    /** No bound on bodies. */
    public static final BodyDeadline NONE = new BodyDeadline(0, 0, 0);

    public BodyDeadline {
        if (graceMs < 0 || minBytesPerSecond < 0 || maxMs < 0) {
            throw new IllegalArgumentException("body grace, minimum rate and maximum time must be >= 0, were " + graceMs
                    + " ms, " + minBytesPerSecond + " B/s and " + maxMs + " ms");
        }
        if (minBytesPerSecond > Long.MAX_VALUE / 1000) {
            throw new IllegalArgumentException("body minimum rate too large: " + minBytesPerSecond + " B/s");
        }
    }

    /** Whether any bound is on. */
    public boolean enabled() {
        return minBytesPerSecond > 0 || maxMs > 0;
    }

    /** The time at which a body that started at {@code startMs} and has {@code bytes} so far is too slow; Long.MAX_VALUE when never. */
    public long deadline(long startMs, long bytes) {
        long byRate = Long.MAX_VALUE;
        if (minBytesPerSecond > 0) {
            // bytes * 1000 / rate, saturating instead of overflowing for any count a long holds
            long whole = bytes / minBytesPerSecond;
            long earned = whole > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE
                    : saturatedAdd(whole * 1000, bytes % minBytesPerSecond * 1000 / minBytesPerSecond);
            byRate = saturatedAdd(startMs, saturatedAdd(graceMs, earned));
        }
        long byTotal = maxMs > 0 ? saturatedAdd(startMs, maxMs) : Long.MAX_VALUE;
        return Math.min(byRate, byTotal);
    }

    /** Null while the body keeps within the bounds at {@code nowMs}; else why it does not. */
    public String verdict(long startMs, long nowMs, long bytes) {
        if (nowMs < deadline(startMs, bytes)) {
            return null;
        }
        long elapsed = nowMs - startMs;
        if (maxMs > 0 && elapsed >= maxMs) {
            return "the request body did not end within " + maxMs + " ms (" + bytes + " bytes received)";
        }
        return "the request body came slower than " + minBytesPerSecond + " bytes/s after a grace of " + graceMs + " ms ("
                + bytes + " bytes in " + elapsed + " ms)";
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
