package geoblocks.net;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Round-trip times in milliseconds between region ids, symmetric unless both directions are given.
 * A region's RTT to itself is 0. Invariant: every stored RTT is finite and non-negative.
 */
public final class RttMatrix {
    private final Map<String, Map<String, Double>> rtt = new HashMap<>();

    public RttMatrix put(String from, String to, double ms) {
        if (!(ms >= 0) || Double.isInfinite(ms)) {
            throw new IllegalArgumentException("rtt " + from + "->" + to + " must be >= 0 ms, was " + ms);
        }
        if (from.equals(to)) {
            throw new IllegalArgumentException("rtt of region '" + from + "' to itself is always 0");
        }
        rtt.computeIfAbsent(from, k -> new HashMap<>()).put(to, ms);
        return this;
    }

    /** RTT from one region to another: the given direction, else the reverse one. */
    public double rttMs(String from, String to) {
        if (from.equals(to)) {
            return 0;
        }
        Double d = rtt.getOrDefault(from, Map.of()).get(to);
        if (d == null) {
            d = rtt.getOrDefault(to, Map.of()).get(from);
        }
        if (d == null) {
            throw new IllegalArgumentException("no RTT configured between '" + from + "' and '" + to + "'");
        }
        return d;
    }

    public boolean has(String from, String to) {
        return from.equals(to)
                || rtt.getOrDefault(from, Map.of()).containsKey(to)
                || rtt.getOrDefault(to, Map.of()).containsKey(from);
    }

    public Set<String> regions() {
        Set<String> all = new TreeSet<>(rtt.keySet());
        rtt.values().forEach(m -> all.addAll(m.keySet()));
        return all;
    }

    /** The measured EC2 averages of SPEC.md (Sao Paulo - Mumbai estimated at 305 ms). */
    public static RttMatrix specDefaults() {
        return new RttMatrix()
                .put("seoul", "dublin", 252)
                .put("seoul", "saopaulo", 298)
                .put("seoul", "mumbai", 160)
                .put("dublin", "saopaulo", 184)
                .put("dublin", "mumbai", 122)
                .put("saopaulo", "mumbai", 305);
    }
}
