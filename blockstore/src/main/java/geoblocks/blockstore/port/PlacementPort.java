package geoblocks.blockstore.port;

import geoblocks.blockstore.core.placement.PlacementRequest;
import java.util.List;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * Where the copies of a block go: {@link Place} asks, naming a policy, the block's size and the
 * regions that already hold it; {@link Placed} answers with the regions (first the primary), or
 * {@link PlacementRefused} says why none can be chosen. Both carry the request id. Served by the
 * PlacementComponent over the RTT monitor's latest table and node loads.
 */
public final class PlacementPort extends PortType {
    {
        request(Place.class);
        request(NotPlaceable.class);
        indication(Placed.class);
        indication(PlacementRefused.class);
    }

    public record Place(long req, PlacementRequest request) implements KompicsEvent {}

    public record Placed(long req, List<String> regions) implements KompicsEvent {
        public Placed {
            regions = List.copyOf(regions);
        }
    }

    public record PlacementRefused(long req, String reason) implements KompicsEvent {}

    /** From now on no copy goes to {@code regions} (members of the cluster layout that are not active: draining). */
    public record NotPlaceable(java.util.Set<String> regions) implements KompicsEvent {
        public NotPlaceable {
            regions = java.util.Set.copyOf(regions);
        }
    }
}
