package geoblocks.blockstore.core.layout;

import java.util.HashMap;
import java.util.Map;

/**
 * When this node learned that each region was removed from the {@link Layout}, so that for
 * {@code graceNanos} after that it still serves the block reads the removed region's node asks for.
 * Those are the reads of clients that sent their requests to that node before they learned of the
 * removal: refusing them failed the clients' gets ("not a cluster member") in the second or so
 * between {@code cluster remove} and the clients following it. Only reads: nothing a removed node
 * sends changes this node's state. Pure; time is the caller's clock in nanoseconds.
 */
public final class RemovalGrace {
    private final long graceNanos;
    private final Map<String, Long> removedAt = new HashMap<>();

    public RemovalGrace(long graceNanos) {
        if (graceNanos < 0) {
            throw new IllegalArgumentException("grace must be >= 0 ns, was " + graceNanos);
        }
        this.graceNanos = graceNanos;
    }

    /** Notes the regions {@code l} removed that were not noted yet as removed at {@code now}. */
    public void layout(Layout l, long now) {
        for (Region r : l.regions().values()) {
            if (r.member()) {
                removedAt.remove(r.id());
            } else {
                removedAt.putIfAbsent(r.id(), now);
            }
        }
    }

    /** Whether {@code region} was removed less than the grace before {@code now}. */
    public boolean serves(String region, long now) {
        Long at = removedAt.get(region);
        return at != null && now - at < graceNanos;
    }
}
