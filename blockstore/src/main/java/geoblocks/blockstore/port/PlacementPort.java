package geoblocks.blockstore.port;

import geoblocks.blockstore.core.placement.PlacementRequest;
import geoblocks.blockstore.wire.FailureCode;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        request(LayoutZones.class);
        indication(Placed.class);
        indication(PlacementRefused.class);
    }

    public record Place(long req, PlacementRequest request) implements KompicsEvent {}

    public record Placed(long req, List<String> regions) implements KompicsEvent {
        public Placed {
            regions = List.copyOf(regions);
        }
    }

    /** Why no regions: {@code code} INSUFFICIENT_STORAGE when room kept a region out, else UNAVAILABLE. */
    public record PlacementRefused(long req, String reason, FailureCode code) implements KompicsEvent {}

    /** From now on no copy goes to {@code regions} (regions of the cluster layout that are not active: draining or removed). */
    public record NotPlaceable(Set<String> regions) implements KompicsEvent {
        public NotPlaceable {
            regions = Set.copyOf(regions);
        }
    }

    /**
     * From now on the regions are in these zones of the cluster layout (region to zone; a region
     * missing, or its own zone, is a zone of its own): seed and built-in policies spread a block's
     * copies over zones (ZoneSpread).
     */
    public record LayoutZones(Map<String, String> zoneOf) implements KompicsEvent {
        public LayoutZones {
            zoneOf = Map.copyOf(zoneOf);
        }
    }
}
