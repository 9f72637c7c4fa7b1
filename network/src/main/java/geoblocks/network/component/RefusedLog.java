package geoblocks.network.component;

import org.slf4j.Logger;

/**
 * Logs refused network input at most once per 10 s with a count of what was suppressed, so a flood
 * of garbage cannot flood the log (thread-safe).
 */
final class RefusedLog {
    private static final long PERIOD_NANOS = 10_000_000_000L;
    private final Logger log;
    private final String label;
    private long last = System.nanoTime() - PERIOD_NANOS;
    private long suppressed;

    RefusedLog(Logger log) {
        this(log, "refused");
    }

    /** Logs as {@code label: what}. */
    RefusedLog(Logger log, String label) {
        this.log = log;
        this.label = label;
    }

    synchronized void log(String what) {
        long now = System.nanoTime();
        if (now - last >= PERIOD_NANOS) {
            log.warn("{}: {}{}", label, what, suppressed > 0 ? " (" + suppressed + " more since the last report)" : "");
            last = now;
            suppressed = 0;
        } else {
            suppressed++;
        }
    }
}
