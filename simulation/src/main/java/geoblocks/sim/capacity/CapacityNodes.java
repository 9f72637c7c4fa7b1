package geoblocks.sim.capacity;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import geoblocks.sim.placement.PlacementNodes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;

/**
 * Node factories of placement-capacity: production nodes with a disk of a given size, and client
 * hosts. The nodes do not scrub: a finished run's blocks are deleted to free memory while its nodes
 * keep running, and their scrubbers would only report those as missing.
 */
public final class CapacityNodes {
    private CapacityNodes() {}

    /** A geoblocks node whose block store holds {@code capacityBytes} and keeps {@code reserveBytes} free. */
    public record Node(String region, Map<String, String> regions, long seed, int run, long capacityBytes,
            long reserveBytes, String placementConf) implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            MemoryBlockStorage blocks = new MemoryBlockStorage(capacityBytes, reserveBytes, () -> System.currentTimeMillis());
            CapacityBoard.store(run, region, blocks);
            return ProductionNode.nodeInit(region, regions, noScrub(), blocks, seed)
                    .withPolicies(PlacementNodes.policies(placementConf, regions.keySet()));
        }
    }

    static NodeSettings noScrub() {
        return NodeSettings.builder().scrubBytesPerSecond(0).build();
    }

    /** The client machine of {@code region} in run {@code run}. */
    public record Client(String region, Map<String, String> regions, int run, boolean last, String policy,
            List<CapacityOp> ops, long seed, long fileBytes, int blockBytes, long startDelayMs) implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
            ops = List.copyOf(ops);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return CapacityClientHost.class;
        }
    }
}
