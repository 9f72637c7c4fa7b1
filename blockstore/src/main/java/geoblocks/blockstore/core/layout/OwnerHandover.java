package geoblocks.blockstore.core.layout;

import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * When a region may decide the conditional writes (creates) of a name, across a change of owners.
 * The rule: a region decides a name only when it is the name's owner in its current layout; and if
 * the last change of owners (at version V = {@link Layout#ownersSince()}) moved the name from P to
 * this region, only once (1) every member region reported a layout of version V or higher, which P
 * adopted before it reported (so P refuses the name from then on: it is not its owner any more), and
 * (2) this region completed an anti-entropy exchange, started after (1), with every member (so it
 * holds every version P decided before it adopted V). Before that, both P (no longer the owner) and
 * this region (not handed over yet) refuse, as "unavailable", and the coordinator's client retries.
 * So at any time at most one region decides a name, and it decides knowing every earlier decision.
 * {@link LayoutChanges#apply} refuses a further change until every member reported the current
 * version (unless forced), so a name is never between three owners.
 *
 * <p>This object tracks the versions the regions reported (from layout exchanges) and when (1)
 * first held; time is passed in (nanoseconds, any origin). Not thread-safe.
 */
public final class OwnerHandover {
    private final String self;
    private final Map<String, Long> reported = new TreeMap<>();
    /** The owners-since version whose reports were complete, and when that was first seen. */
    private long coveredVersion = -1;
    private long coveredAt;

    public OwnerHandover(String self) {
        this.self = self;
    }

    /** Region {@code region} holds a layout of {@code version} (it said so, or this node sent it one it adopted). */
    public void report(String region, long version) {
        reported.merge(region, version, Math::max);
    }

    /** The highest layout version each region reported (this region's own included once reported). */
    public Map<String, Long> reported() {
        return Collections.unmodifiableMap(reported);
    }

    /**
     * When every member of {@code layout} but this region was first seen to have reported
     * {@link Layout#ownersSince()} or higher (this call records {@code now} the first time it holds);
     * empty while some member has not.
     */
    public OptionalLong coveredSince(Layout layout, long now) {
        long v = layout.ownersSince();
        if (coveredVersion == v) {
            return OptionalLong.of(coveredAt);
        }
        for (String m : layout.members()) {
            if (!m.equals(self) && reported.getOrDefault(m, -1L) < v) {
                return OptionalLong.empty();
            }
        }
        coveredVersion = v;
        coveredAt = now;
        return OptionalLong.of(now);
    }

    /**
     * Null when this region may decide the conditional writes of {@code name} under {@code layout},
     * else why not. {@code handedOver}: (1) and (2) of the rule hold.
     */
    public String refusal(Layout layout, String name, boolean handedOver) {
        String owner = layout.ownerOf(name);
        if (!owner.equals(self)) {
            return "region " + self + " does not decide writes of '" + name + "': its owner in layout version "
                    + layout.version() + " is " + owner;
        }
        if (layout.moved(name) && !handedOver) {
            return "the owner of '" + name + "' moves from " + layout.previousOwnerOf(name) + " to " + self
                    + " (layout version " + layout.ownersSince() + "); " + self + " decides it once every region"
                    + " runs that layout and it has compared manifests with each of them; retry shortly";
        }
        return null;
    }
}
