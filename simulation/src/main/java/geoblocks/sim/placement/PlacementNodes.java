package geoblocks.sim.placement;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/** Node factories of the placement scenario: real geoblocks nodes (memory storage) and client hosts. */
public final class PlacementNodes {
    private PlacementNodes() {}


    /** A geoblocks node (the production {@link NodeParent}) for {@code region}. */
    public record Node(String region, Map<String, String> regions, long seed, int run) implements NodeFactory {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return NodeParent.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            try {
                MemoryBlockStorage blocks = new MemoryBlockStorage();
                PlacementBoard.store(run, blocks);
                return new NodeParent.NodeInit(region, NodeFactory.cluster(regions), NodeSettings.defaults(), blocks,
                        new ManifestStore(new MemoryBlockStorage()), seed);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A client machine in {@code region} that uploads (or downloads) the jobs through that region's node. */
    public record Client(String region, Map<String, String> regions, boolean upload, List<PlacementJob> jobs,
            long startDelayMs, String downloadDir, int run, boolean last) implements NodeFactory {
        public Client {
            regions = new LinkedHashMap<>(regions);
            jobs = List.copyOf(jobs);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return PlacementClientHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new PlacementClientHost.PlacementClientInit(self, NetAddress.parse(regions.get(region)), region, upload,
                    jobs, startDelayMs, downloadDir, run, last);
        }
    }
}
