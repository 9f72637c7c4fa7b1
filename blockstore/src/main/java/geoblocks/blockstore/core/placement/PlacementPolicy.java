package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.PlacementException;
import java.util.List;

/**
 * A placement policy: where the copies of a block go. The service-provider interface for custom
 * policies, found with {@link java.util.ServiceLoader} or named in {@code geoblocks.placement.classes}
 * (a public class with a public no-argument constructor). One instance per node; it is called on
 * the node's placement component only, one decision at a time, and must not block.
 *
 * <p>Whatever a policy returns is checked before it is used: exactly {@link #copies()} distinct
 * regions from {@link PlacementInput#candidates()} (up, not already holding the block, with room above
 * their disk reserve); anything else refuses the placement with a message naming the policy.
 */
public interface PlacementPolicy {
    /** The name clients give with {@code put --policy}: lower case letters, digits and '-'. */
    String name();

    /** How many regions {@link #place} returns. */
    int copies();

    /** The regions for the copies of a new block, first the primary. */
    List<String> place(PlacementInput in) throws PlacementException;

    /**
     * One region for a new copy of a block whose other copies stay where they are
     * ({@link PlacementInput#held()}); by default the candidate nearest to this node, this node first.
     */
    default String replace(PlacementInput in) throws PlacementException {
        List<String> order = in.nearestFirst(in.candidates());
        if (order.isEmpty()) {
            throw new PlacementException(name() + ": no region that is up, lacks the block and has room can take a new copy");
        }
        return order.get(0);
    }

    /** One line saying what the policy does, for {@code client policies}. */
    default String describe() {
        return "custom policy " + getClass().getName();
    }
}
