package geoblocks.network.component;

import org.slf4j.Logger;

/**
 * Logs refused network input at most once per 10 s with a count of what was suppressed, so a flood
 * of garbage cannot flood the log (thread-safe).
 */
final class RefusedLog {
    private static final long PERIOD_NANOS = 10_000_000_000L;
    private final Logger log;
    private long last = System.nanoTime() - PERIOD_NANOS;
    private long suppressed;

    RefusedLog(Logger log) {
        this.log = log;
    }

    synchronized void log(String what) {
        long now = System.nanoTime();
        if (now - last >= PERIOD_NANOS) {
            log.warn("refused: {}{}", what, suppressed > 0 ? " (" + suppressed + " more since the last report)" : "");
            last = now;
            suppressed = 0;
        } else {
            suppressed++;
        }
    }
}
