package geoblocks.node;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * Caps what Kompics' and Netty's own loggers may print: at most {@code perMinute} events a minute
 * (Kompics logs an ERROR with a stack trace for every malformed or unauthenticated frame, so a
 * flood of bad input would otherwise flood the log). Our own components log refusals as a
 * periodic summary instead. Configured in logback.xml.
 */
public final class LogRateLimit extends TurboFilter {
    private int perMinute = 20;
    private long windowStart;
    private int inWindow;
    private long suppressed;
    private boolean reporting;

    public void setPerMinute(int perMinute) {
        this.perMinute = perMinute;
    }

    @Override
    public synchronized FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        String name = logger.getName();
        // no logger.isEnabledFor here: it calls the turbo filters again
        if (reporting || level == null || !level.isGreaterOrEqual(logger.getEffectiveLevel())
                || !name.startsWith("se.sics.kompics") && !name.startsWith("io.netty")) {
            return FilterReply.NEUTRAL;
        }
        long now = System.nanoTime();
        if (now - windowStart > 60_000_000_000L) {
            long dropped = suppressed;
            windowStart = now;
            inWindow = 0;
            suppressed = 0;
            if (dropped > 0) {
                reporting = true;
                try {
                    logger.warn("(suppressed {} more Kompics/Netty log events in the last minute)", dropped);
                } finally {
                    reporting = false;
                }
            }
        }
        if (inWindow < perMinute) {
            inWindow++;
            return FilterReply.NEUTRAL;
        }
        suppressed++;
        return FilterReply.DENY;
    }
}
