package geoblocks.blockstore.port;

import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.layout.Layout;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * The cluster layout this node acts on, as the membership component keeps it: {@link LayoutChanged} once at
 * start and after every layout it adopts (an operator's change, or a newer one from a peer), and
 * {@link LayoutReports} whenever a region reports the layout version it holds. To answer an operator's
 * {@code cluster} request the membership asks for the node's figures ({@link FiguresWanted}); whoever keeps
 * the manifests and the rebalancer answers with {@link ClusterFigures}. Every event is data.
 */
public final class LayoutPort extends PortType {
    {
        indication(LayoutChanged.class);
        indication(LayoutReports.class);
        indication(FiguresWanted.class);
        request(ClusterFigures.class);
    }

    /** The node acts on {@code layout} from now on (an immutable value). */
    public record LayoutChanged(Layout layout) implements KompicsEvent {
        public LayoutChanged {
            Objects.requireNonNull(layout, "layout");
        }
    }

    /** The highest layout version each region reported to this node, its own included. */
    public record LayoutReports(Map<String, Long> reported) implements KompicsEvent {
        public LayoutReports {
            reported = Map.copyOf(reported);
        }
    }

    /** The membership needs the node's figures to answer cluster request {@code id}. */
    public record FiguresWanted(long id) implements KompicsEvent {}

    /**
     * The figures of {@link FiguresWanted} {@code id}: per region, the block replicas of live heads and their
     * bytes; and what the rebalancer's last full pass found: the draining regions that hold nothing this node
     * keeps ({@code drained}), the versions each draining region still holds ({@code drainPending}), and the
     * bytes each region lacks of its share ({@code shortBy}).
     */
    public record ClusterFigures(long id, Map<String, ManifestStore.Placed> placed, Set<String> drained,
            Map<String, Long> drainPending, Map<String, Long> shortBy) implements KompicsEvent {
        public ClusterFigures {
            placed = Map.copyOf(placed);
            drained = Set.copyOf(drained);
            drainPending = Map.copyOf(drainPending);
            shortBy = Map.copyOf(shortBy);
        }
    }
}
