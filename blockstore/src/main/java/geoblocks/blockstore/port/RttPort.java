package geoblocks.blockstore.port;

import geoblocks.blockstore.core.MeasuredRttMatrix;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.placement.NodeLoad;
import java.util.Map;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * What the RTT monitor knows: a fresh {@link RttTable} after every probe round, with the load
 * reports (disk space, recent I/O) it received since the previous update, this node's own included,
 * and the cluster's RTT matrix as this node knows it.
 */
public final class RttPort extends PortType {
    {
        indication(RttUpdate.class);
    }

    public record RttUpdate(RttTable table, Map<String, NodeLoad> loads, MeasuredRttMatrix matrix) implements KompicsEvent {
        public RttUpdate {
            loads = Map.copyOf(loads);
        }

        public RttUpdate(RttTable table) {
            this(table, Map.of(), new MeasuredRttMatrix(java.util.List.of(table.self()), java.util.List.of()));
        }
    }
}
