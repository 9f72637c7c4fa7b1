package geoblocks.blockstore.core.placement;

import java.util.List;

/**
 * One placement question: where do the copies of a block of {@code blockBytes} go under policy
 * {@code policy}? For an upload ({@code held} empty) the answer is every replica region, first the
 * primary; for a replacement ({@code held} = the regions that keep their copy, when another copy is
 * lost) it is one new region.
 */
public record PlacementRequest(String policy, long blockBytes, List<String> held) {
    public PlacementRequest {
        held = List.copyOf(held);
        if (policy == null || policy.isBlank()) {
            throw new IllegalArgumentException("a placement request needs a policy name");
        }
        if (blockBytes < 0) {
            throw new IllegalArgumentException("block size must be >= 0 bytes, was " + blockBytes);
        }
    }

    /** The replicas of a new block of an upload. */
    public static PlacementRequest upload(String policy, long blockBytes) {
        return new PlacementRequest(policy, blockBytes, List.of());
    }

    /** One region for a new copy of a block the regions {@code held} keep (re-replication). */
    public static PlacementRequest replacement(String policy, long blockBytes, List<String> held) {
        return new PlacementRequest(policy, blockBytes, held);
    }

    public boolean isReplacement() {
        return !held.isEmpty();
    }
}
