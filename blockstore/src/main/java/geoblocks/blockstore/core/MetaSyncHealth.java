package geoblocks.blockstore.core;

/**
 * Whether the metadata engine's syncs work, and what to do when they fail. While syncs fail, every answer
 * that follows a metadata write is held (nothing unsynced is revealed), so the node is not ready: the
 * fault is reported (readiness, status) from the first failure until a sync succeeds. Failed syncs are
 * tried again after a delay that doubles from {@link #FIRST_RETRY_NANOS} to {@link #MAX_RETRY_NANOS} (a
 * disk that refuses writes is not hammered), and logged at the first failure and then at most every
 * {@link #LOG_EVERY_NANOS}. Time is passed in; one thread uses it.
 */
public final class MetaSyncHealth {
    public static final long FIRST_RETRY_NANOS = 50_000_000L;
    public static final long MAX_RETRY_NANOS = 5_000_000_000L;
    public static final long LOG_EVERY_NANOS = 10_000_000_000L;
    private long failingSince = -1;
    private long failures;
    private long lastLog = Long.MIN_VALUE;
    private String lastError;
    private long nextDelay = FIRST_RETRY_NANOS;

    /** What a failed sync leads to: when to try again, and whether to log it now. */
    public record Retry(long delayNanos, boolean log) {}

    /** A sync failed at {@code now} with {@code error}. */
    public Retry failed(long now, String error) {
        if (failingSince < 0) {
            failingSince = now;
        }
        failures++;
        lastError = error;
        long delay = nextDelay;
        nextDelay = Math.min(MAX_RETRY_NANOS, nextDelay * 2);
        boolean log = lastLog == Long.MIN_VALUE || now - lastLog >= LOG_EVERY_NANOS;
        if (log) {
            lastLog = now;
        }
        return new Retry(delay, log);
    }

    /** A sync succeeded at {@code now}: how long syncs had failed (nanos), or -1 when they had not. */
    public long succeeded(long now) {
        long was = failingSince < 0 ? -1 : now - failingSince;
        failingSince = -1;
        failures = 0;
        lastLog = Long.MIN_VALUE;
        nextDelay = FIRST_RETRY_NANOS;
        return was;
    }

    /** Null while syncs work, else what is wrong, for readiness and status. */
    public String fault(long now) {
        if (failingSince < 0) {
            return null;
        }
        return "syncing the metadata engine has failed " + failures + " time(s) over " + (now - failingSince) / 1_000_000_000L
                + " s, answers after metadata writes are held: " + lastError;
    }

    /** Failed syncs in a row (0 while they work). */
    public long failures() {
        return failures;
    }
}
