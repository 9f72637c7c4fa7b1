package geoblocks.network.session;

import geoblocks.net.NetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * What to log about failed connections, so a peer that stays down does not repeat one warning every
 * second (the RTT probes and every request to it dial it again): the first failure of an episode is
 * logged whole; the next ones are counted, and summed up at most once per {@code summaryNanos}; the
 * first connection that succeeds after failures ends the episode with one line that says how long it
 * lasted. Pure: the caller gives the time ({@code nowNanos}) and logs what it returns. Not thread-safe.
 */
public final class ConnectFailures {
    private final long summaryNanos;
    private final Map<NetAddress, Episode> failing = new HashMap<>();

    private static final class Episode {
        final long sinceNanos;
        long lastSummaryNanos;
        long failures;
        long sinceSummary;
        String last;

        Episode(long now, String why) {
            sinceNanos = now;
            lastSummaryNanos = now;
            failures = 1;
            last = why;
        }
    }

    public ConnectFailures(long summaryNanos) {
        if (summaryNanos <= 0) {
            throw new IllegalArgumentException("summary interval must be positive, was " + summaryNanos);
        }
        this.summaryNanos = summaryNanos;
    }

    /**
     * A connection to {@code peer} failed ({@code why}; {@code dropped} messages were given up): the line to log as
     * a warning, or null when it only counts (the peer has been failing and was summed up less than an interval ago).
     */
    public String failed(NetAddress peer, String why, int dropped, long nowNanos) {
        Episode e = failing.get(peer);
        if (e == null) {
            failing.put(peer, new Episode(nowNanos, why));
            return why + "; " + dropped + " queued message(s) dropped";
        }
        e.failures++;
        e.sinceSummary++;
        e.last = why;
        if (nowNanos - e.lastSummaryNanos < summaryNanos) {
            return null;
        }
        String line = "still cannot connect to " + peer + ": " + e.sinceSummary + " more attempt(s) failed in the last "
                + seconds(nowNanos - e.lastSummaryNanos) + " s, " + e.failures + " since " + seconds(nowNanos - e.sinceNanos)
                + " s ago (last: " + why + "; " + dropped + " queued message(s) dropped)";
        e.lastSummaryNanos = nowNanos;
        e.sinceSummary = 0;
        return line;
    }

    /** A connection to {@code peer} is up: the line to log (at info) when it had been failing, else null. */
    public String connected(NetAddress peer, long nowNanos) {
        Episode e = failing.remove(peer);
        if (e == null) {
            return null;
        }
        return "connected to " + peer + " again after " + e.failures + " failed attempt(s) over "
                + seconds(nowNanos - e.sinceNanos) + " s";
    }

    private static long seconds(long nanos) {
        return Math.round(nanos / 1e9);
    }
}
