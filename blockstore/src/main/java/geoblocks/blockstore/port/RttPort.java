package geoblocks.blockstore.port;

import geoblocks.blockstore.core.MeasuredRttMatrix;
import geoblocks.blockstore.core.RttTable;
import geoblocks.blockstore.core.placement.NodeLoad;
import geoblocks.net.NetAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.PortType;

/**
 * What the RTT monitor knows: a fresh {@link RttTable} after every probe round, with the load
 * reports (disk space, recent I/O) it received since the previous update, this node's own included,
 * the cluster's RTT matrix as this node knows it, and how often each peer went from up to down since
 * the node started. Its users tell it when a peer proved it is alive ({@link Heard}): any message
 * from the peer counts for the failure detector, not only probe answers.
 */
public final class RttPort extends PortType {
    {
        indication(RttUpdate.class);
        request(Heard.class);
        request(Members.class);
    }

    public record RttUpdate(RttTable table, Map<String, NodeLoad> loads, MeasuredRttMatrix matrix,
            Map<String, Long> downTransitions) implements KompicsEvent {
        public RttUpdate {
            loads = Map.copyOf(loads);
            downTransitions = Map.copyOf(downTransitions);
        }

        public RttUpdate(RttTable table, Map<String, NodeLoad> loads, MeasuredRttMatrix matrix) {
            this(table, loads, matrix, Map.of());
        }

        public RttUpdate(RttTable table) {
            this(table, Map.of(), new MeasuredRttMatrix(List.of(table.self()), List.of()));
        }
    }

    /** The cluster's other members now, by region (the cluster layout changed): probe these. */
    public record Members(Map<String, NetAddress> peers) implements KompicsEvent {
        public Members {
            peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
        }
    }

    /** A message from {@code region} arrived at {@code atNanos} (System.nanoTime): it is alive. */
    public record Heard(String region, long atNanos) implements KompicsEvent {}
}
