package geoblocks.sim.net;

import java.io.Serializable;
import java.util.Set;
import java.util.TreeSet;

/**
 * A network partition: from {@code fromMs} until {@code toMs} (simulated milliseconds, the end
 * excluded) every message sent between a host of a region in {@code sideA} and a host of a region
 * in {@code sideB}, either way, is dropped (TCP and UDP alike: the simulator has no connection to
 * keep them for). Traffic within a side is untouched. Invariant: the sides are disjoint and not
 * empty, and the window is not empty.
 */
public record Partition(long fromMs, long toMs, Set<String> sideA, Set<String> sideB) implements Serializable {
    public Partition {
        sideA = new TreeSet<>(sideA);
        sideB = new TreeSet<>(sideB);
        if (fromMs < 0 || toMs <= fromMs) {
            throw new IllegalArgumentException("a partition needs 0 <= from < to, was " + fromMs + ".." + toMs + " ms");
        }
        if (sideA.isEmpty() || sideB.isEmpty()) {
            throw new IllegalArgumentException("a partition needs regions on both sides, was " + sideA + " | " + sideB);
        }
        for (String r : sideA) {
            if (sideB.contains(r)) {
                throw new IllegalArgumentException("region '" + r + "' is on both sides of a partition");
            }
        }
    }

    /** True when a message sent at {@code nowMs} from region {@code a} to region {@code b} is cut off. */
    public boolean cuts(long nowMs, String a, String b) {
        if (nowMs < fromMs || nowMs >= toMs || a == null || b == null) {
            return false;
        }
        return (sideA.contains(a) && sideB.contains(b)) || (sideB.contains(a) && sideA.contains(b));
    }
}
