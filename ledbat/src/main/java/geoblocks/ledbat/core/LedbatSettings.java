package geoblocks.ledbat.core;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Validated LEDBAT parameters (RFC 6817 section 2.5 names in brackets), read from the
 * {@code geoblocks.ledbat} namespace of {@code reference.conf}. Invariant: every value is in its
 * documented range, min-cto <= initial-cto <= max-cto and min-cwnd <= init-cwnd, so no clamp can be
 * inverted. Durations are kept in microseconds.
 */
public final class LedbatSettings {
    /** Largest payload a data packet may carry (the datagram must stay under 1500 bytes). */
    public static final int MAX_MSS = 1400;
    public static final String NAMESPACE = "geoblocks.ledbat";

    /** The controller variant. */
    public enum Mode { RFC6817, LEDBAT_PLUS_PLUS }

    public final Mode mode;
    public final long targetMicros;            // TARGET
    public final double gain;                  // GAIN (increase)
    public final double gainDecrease;          // GAIN applied above target
    public final int baseHistoryMinutes;       // BASE_HISTORY
    public final int currentFilter;            // CURRENT_FILTER
    public final int mss;                      // MSS
    public final int initCwnd;                 // INIT_CWND, in MSS
    public final int minCwnd;                  // MIN_CWND, in MSS
    public final int allowedIncrease;          // ALLOWED_INCREASE, in MSS
    public final boolean slowStart;
    public final boolean multiplicativeDecrease;
    public final int slowStartReentryRtts;     // 0 = off
    public final long nearZeroDelayMicros;
    public final long yieldRiseMicros;         // 0 = off
    public final double yieldFactor;
    public final long maxCwndBytes;
    public final int receiveWindowPackets;
    public final int ackEvery;
    public final long initialCtoMicros;
    public final long minCtoMicros;
    public final long maxCtoMicros;
    public final int maxTimeouts;
    public final long tickMillis;
    public final long statsIntervalMillis;
    public final long progressBytes;
    /** A new hold for foreground traffic (see HoldPacer) paces new data at one segment per this long at least. */
    public final long holdTrickleMicros;
    /** While held, the flow may send this share of the foreground's reported rate (HoldPacer). */
    public final double holdShare;
    /** A hold's floor doubles every this long it lasts without a break (HoldPacer; 0: never). */
    public final long holdAgeMicros;
    /**
     * Whether a flow is held at all when the application reports foreground traffic with its peer
     * (ForegroundActive). On by default: see docs/ledbat.md, "Holding a flow for foreground traffic".
     */
    public final boolean foregroundHold;
    /**
     * Whether the path MTU to each peer is searched (PathMtuSearch, RFC 8899): segments start at what a
     * 1,200-byte datagram carries and grow as probes confirm larger sizes. False: every segment carries
     * {@code mss} bytes whatever the path.
     */
    public final boolean pathMtuSearch;
    /** Streams of one flow take the window in order (fifo: oldest first, to its end) or in turn (round-robin). */
    public final boolean fifoStreams;

    private LedbatSettings(Function<String, Object> raw) {
        mode = parseMode(str(raw, "mode"));
        targetMicros = range(num(raw, "target-ms"), 1, 100, "target-ms").longValue() * 1000L;
        gain = range(num(raw, "gain"), 0.001, 1, "gain").doubleValue();
        gainDecrease = range(num(raw, "gain-decrease"), 0.001, 100, "gain-decrease").doubleValue();
        baseHistoryMinutes = range(num(raw, "base-history-minutes"), 1, 60, "base-history-minutes").intValue();
        currentFilter = range(num(raw, "current-filter"), 1, 64, "current-filter").intValue();
        mss = range(num(raw, "mss"), 200, MAX_MSS, "mss").intValue();
        initCwnd = range(num(raw, "init-cwnd"), 1, 2, "init-cwnd").intValue();
        minCwnd = range(num(raw, "min-cwnd"), 1, 2, "min-cwnd").intValue();
        allowedIncrease = range(num(raw, "allowed-increase"), 1, 16, "allowed-increase").intValue();
        slowStart = bool(raw, "slow-start");
        multiplicativeDecrease = bool(raw, "multiplicative-decrease");
        slowStartReentryRtts = range(num(raw, "slow-start-reentry-rtts"), 0, 100, "slow-start-reentry-rtts").intValue();
        nearZeroDelayMicros = Math.round(range(num(raw, "near-zero-delay-ms"), 0, 100, "near-zero-delay-ms").doubleValue()
                * 1000);
        yieldRiseMicros = Math.round(range(num(raw, "yield-rise-ms"), 0, 1000, "yield-rise-ms").doubleValue() * 1000);
        yieldFactor = range(num(raw, "yield-factor"), 0.01, 1, "yield-factor").doubleValue();
        maxCwndBytes = range(num(raw, "max-cwnd-bytes"), 4L * MAX_MSS, 1L << 30, "max-cwnd-bytes").longValue();
        receiveWindowPackets = range(num(raw, "receive-window-packets"), 16, 1 << 20, "receive-window-packets").intValue();
        ackEvery = range(num(raw, "ack-every"), 1, 64, "ack-every").intValue();
        initialCtoMicros = range(num(raw, "initial-cto-ms"), 1, 600_000, "initial-cto-ms").longValue() * 1000L;
        minCtoMicros = range(num(raw, "min-cto-ms"), 1, 600_000, "min-cto-ms").longValue() * 1000L;
        maxCtoMicros = range(num(raw, "max-cto-ms"), 1, 600_000, "max-cto-ms").longValue() * 1000L;
        maxTimeouts = range(num(raw, "max-timeouts"), 1, 100, "max-timeouts").intValue();
        tickMillis = range(num(raw, "tick-ms"), 1, 1000, "tick-ms").longValue();
        statsIntervalMillis = range(num(raw, "stats-interval-ms"), 0, 3_600_000, "stats-interval-ms").longValue();
        progressBytes = range(num(raw, "progress-bytes"), 1, 1L << 40, "progress-bytes").longValue();
        holdTrickleMicros = raw.apply("hold-trickle-ms") == null ? 200_000L
                : range(num(raw, "hold-trickle-ms"), 1, 60_000, "hold-trickle-ms").longValue() * 1000L;
        holdShare = raw.apply("hold-share") == null ? 0.01 : range(num(raw, "hold-share"), 0, 1, "hold-share").doubleValue();
        holdAgeMicros = raw.apply("hold-age-ms") == null ? 10_000_000L
                : range(num(raw, "hold-age-ms"), 0, 3_600_000, "hold-age-ms").longValue() * 1000L;
        foregroundHold = raw.apply("foreground-hold") == null || bool(raw, "foreground-hold");
        fifoStreams = parseScheduling(str(raw, "stream-scheduling"));
        pathMtuSearch = raw.apply("path-mtu-search") == null || bool(raw, "path-mtu-search");
        if (minCwnd > initCwnd) {
            throw new IllegalArgumentException("min-cwnd (" + minCwnd + ") must not exceed init-cwnd (" + initCwnd + ")");
        }
        if (minCtoMicros > initialCtoMicros || initialCtoMicros > maxCtoMicros) {
            throw new IllegalArgumentException("need min-cto-ms <= initial-cto-ms <= max-cto-ms, was "
                    + minCtoMicros / 1000 + " / " + initialCtoMicros / 1000 + " / " + maxCtoMicros / 1000);
        }
        if ((long) receiveWindowPackets * mss < maxCwndBytes) {
            throw new IllegalArgumentException("receive-window-packets x mss (" + (long) receiveWindowPackets * mss
                    + " bytes) must cover max-cwnd-bytes (" + maxCwndBytes + ")");
        }
    }

    /**
     * Reads the settings through {@code raw}, which maps a full key ({@code geoblocks.ledbat.target-ms})
     * to its unwrapped value (Number, String or Boolean) or null if absent.
     */
    public static LedbatSettings from(Function<String, Object> raw) {
        return new LedbatSettings(key -> raw.apply(NAMESPACE + "." + key));
    }

    /** Reads from a Typesafe config (e.g. {@code ConfigFactory.load()}). */
    public static LedbatSettings from(Config config) {
        return from(k -> config.hasPath(k) ? config.getValue(k).unwrapped() : null);
    }

    /** The shipped defaults overridden by {@code overrides} (keys relative to the namespace). */
    public static LedbatSettings defaults(Map<String, ?> overrides) {
        Config base = ConfigFactory.parseResources(
                LedbatSettings.class.getClassLoader(), "reference.conf");
        Config over = ConfigFactory.parseMap(overrides)
                .atPath(NAMESPACE);
        return from(over.withFallback(base).resolve());
    }

    /** MIN_CWND in bytes. */
    public long minCwndBytes() {
        return (long) minCwnd * mss;
    }

    private static Mode parseMode(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "rfc6817": return Mode.RFC6817;
            case "ledbat++": case "ledbatplusplus": return Mode.LEDBAT_PLUS_PLUS;
            default: throw new IllegalArgumentException("mode must be rfc6817 or ledbat++, was '" + s + "'");
        }
    }

    private static boolean parseScheduling(String s) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "fifo": return true;
            case "round-robin": return false;
            default: throw new IllegalArgumentException(NAMESPACE + ".stream-scheduling must be fifo or round-robin, was '"
                    + s + "'");
        }
    }

    private static Object need(Function<String, Object> raw, String key) {
        return Objects.requireNonNull(raw.apply(key), () -> NAMESPACE + "." + key + " is missing");
    }

    private static String str(Function<String, Object> raw, String key) {
        return String.valueOf(need(raw, key));
    }

    private static boolean bool(Function<String, Object> raw, String key) {
        Object v = need(raw, key);
        if (v instanceof Boolean b) {
            return b;
        }
        if ("true".equals(v) || "false".equals(v)) {
            return Boolean.parseBoolean((String) v);
        }
        throw new IllegalArgumentException(NAMESPACE + "." + key + " must be true or false, was '" + v + "'");
    }

    private static Number num(Function<String, Object> raw, String key) {
        Object v = need(raw, key);
        if (v instanceof Number n) {
            return n;
        }
        try {
            return Double.parseDouble(String.valueOf(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(NAMESPACE + "." + key + " must be a number, was '" + v + "'");
        }
    }

    private static Number range(Number v, double min, double max, String key) {
        double d = v.doubleValue();
        if (!(d >= min && d <= max)) {
            throw new IllegalArgumentException(NAMESPACE + "." + key + " must be in " + fmt(min) + ".." + fmt(max)
                    + ", was " + v);
        }
        return v;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
