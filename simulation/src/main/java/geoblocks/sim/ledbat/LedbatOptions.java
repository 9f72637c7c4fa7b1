package geoblocks.sim.ledbat;

import geoblocks.ledbat.core.LedbatSettings;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The LEDBAT settings a scenario varies, as serializable data: target delay, controller mode
 * ({@code rfc6817} or {@code ledbat++}) and slow start. Everything else keeps the component's
 * shipped defaults ({@code geoblocks.ledbat} in its reference.conf).
 */
public record LedbatOptions(int targetMs, String mode, boolean slowStart) implements Serializable {
    public LedbatOptions {
        if (targetMs < 1 || targetMs > 100) {
            throw new IllegalArgumentException("LEDBAT target must be in 1..100 ms (RFC 6817), was " + targetMs);
        }
        if (!mode.equals("rfc6817") && !mode.equals("ledbat++")) {
            throw new IllegalArgumentException("LEDBAT mode must be rfc6817 or ledbat++, was '" + mode + "'");
        }
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
        return LedbatSettings.defaults(o);
    }
}
