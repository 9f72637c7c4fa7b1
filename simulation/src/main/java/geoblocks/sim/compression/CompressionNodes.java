package geoblocks.sim.compression;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;

/** The hosts of the compression scenario: production nodes on memory storage, and the client machines. */
public final class CompressionNodes {
    private CompressionNodes() {}

    /** A geoblocks node of {@code region} in slot {@code slot}. */
    public record Node(String region, Map<String, String> regions, long seed, int slot) implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            MemoryBlockStorage blocks = ProductionNode.memoryBlocks();
            CompressionBoard.store(slot, blocks);
            return ProductionNode.nodeInit(region, regions, NodeSettings.defaults(), blocks, seed);
        }
    }

    /** A client machine that runs its jobs one after the other through the node of {@code region}. */
    public record Client(String region, Map<String, String> regions, List<CompressionJob> jobs, int blockSize,
            long startDelayMs, int clients) implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
            jobs = List.copyOf(jobs);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return CompressionClientHost.class;
        }
    }
}
