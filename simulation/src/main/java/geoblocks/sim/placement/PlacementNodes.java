package geoblocks.sim.placement;

import com.typesafe.config.ConfigFactory;
import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.placement.PlacementSettings;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;

/** Node factories of the placement scenario: real geoblocks nodes (memory storage) and client hosts. */
public final class PlacementNodes {
    private PlacementNodes() {}

    /**
     * A geoblocks node (the production {@link NodeParent}) for {@code region}, with the placement
     * policies of {@code placementConf} (HOCON with geoblocks.placement; "" for the built-in ones).
     */
    public record Node(String region, Map<String, String> regions, long seed, int run, String placementConf)
            implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        public Node(String region, Map<String, String> regions, long seed, int run) {
            this(region, regions, seed, run, "");
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            MemoryBlockStorage blocks = ProductionNode.memoryBlocks();
            PlacementBoard.store(run, blocks);
            return ProductionNode.nodeInit(region, regions, NodeSettings.defaults(), blocks, seed)
                    .withPolicies(policies(placementConf, regions.keySet()));
        }
    }

    /** The policies of {@code conf} (HOCON, may be empty) for a cluster of {@code regions}; custom classes from the class path. */
    public static PolicySet policies(String conf, Collection<String> regions) {
        return PolicySet.build(PlacementSettings.from(ConfigFactory.parseString(conf), regions),
                PolicySet.class.getClassLoader());
    }

    /** A client machine in {@code region} that uploads (or downloads) the jobs through that region's node. */
    public record Client(String region, Map<String, String> regions, boolean upload, List<PlacementJob> jobs,
            long startDelayMs, String downloadDir, int run, boolean last) implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
            jobs = List.copyOf(jobs);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return PlacementClientHost.class;
        }
    }
}
