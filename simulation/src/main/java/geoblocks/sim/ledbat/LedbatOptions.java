package geoblocks.sim.ledbat;

import geoblocks.ledbat.core.LedbatSettings;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The LEDBAT settings a scenario varies, as serializable data: target delay, controller mode
 * ({@code rfc6817} or {@code ledbat++}), slow start, and any other {@code geoblocks.ledbat} key
 * ({@code extra}, e.g. {@code multiplicative-decrease=false}). Everything else keeps the
 * component's shipped defaults (its reference.conf).
 */
public record LedbatOptions(int targetMs, String mode, boolean slowStart, Map<String, String> extra)
        implements Serializable {
    public LedbatOptions(int targetMs, String mode, boolean slowStart) {
        this(targetMs, mode, slowStart, Map.of());
    }

    public LedbatOptions {
        extra = new TreeMap<>(extra);
        if (targetMs < 1 || targetMs > 100) {
            throw new IllegalArgumentException("LEDBAT target must be in 1..100 ms (RFC 6817), was " + targetMs);
        }
        if (!mode.equals("rfc6817") && !mode.equals("ledbat++")) {
            throw new IllegalArgumentException("LEDBAT mode must be rfc6817 or ledbat++, was '" + mode + "'");
        }
    }

    /** The same options with another target and mode. */
    public LedbatOptions with(int target, String m) {
        return new LedbatOptions(target, m, slowStart, extra);
    }

    public static LedbatOptions rfc(int targetMs) {
        return new LedbatOptions(targetMs, "rfc6817", true);
    }

    /** The component settings: shipped defaults with these options applied. */
    public LedbatSettings settings() {
        Map<String, Object> o = new TreeMap<>();
        o.put("target-ms", targetMs);
        o.put("mode", mode);
        o.put("slow-start", slowStart);
        o.putAll(extra);
        return LedbatSettings.defaults(o);
    }
}
