package geoblocks.sim.reads;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import geoblocks.sim.placement.PlacementNodes;
import java.util.LinkedHashMap;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;

/** Node factories of the reads simulations: production nodes (memory storage) and client machines. */
public final class ReadsNodes {
    private ReadsNodes() {}

    /** Declarative policies the scenarios place with, besides the built-in ones. */
    public static final String POLICIES = "geoblocks.placement.policies {\n"
            + "  at-dublin { copies = 1, terms = [random], require = [dublin] }\n"
            + "  no-dublin { copies = 2, terms = [local, closest], forbid = [dublin] }\n"
            + "  with-saopaulo { copies = 3, terms = [local, closest, random], require = [saopaulo] }\n"
            + "}\n";

    /** A geoblocks node (the production {@link NodeParent}) for {@code region} with {@link #POLICIES}. */
    public record Node(String region, Map<String, String> regions, long seed) implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            return ProductionNode.nodeInit(region, regions, NodeSettings.defaults().withInlineMax(0),
                    ProductionNode.memoryBlocks(), seed)
                    .withPolicies(PlacementNodes.policies(POLICIES, regions.keySet()));
        }
    }

    /** A client machine in {@code region} ({@code linkRegion}: its region's name in the network model). */
    public record Client(String region, String linkRegion, Map<String, String> regions, ReadsRole role, int index,
            ReadsScript script, long startDelayMs) implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return ReadsClientHost.class;
        }
    }
}
