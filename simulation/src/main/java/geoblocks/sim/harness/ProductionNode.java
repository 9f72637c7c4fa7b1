package geoblocks.sim.harness;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.BlockStorage;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.meta.MetaEngine;
import geoblocks.blockstore.meta.MetaReplicationQueueStore;
import geoblocks.net.NetAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;

/**
 * A factory of the production geoblocks node ({@link NodeParent}, unchanged) as the simulator runs
 * it: stores in memory, the cluster of the simulated regions ({@link NodeFactory#cluster}, no
 * emulated WAN). A scenario's node record implements {@link #init} with {@link #nodeInit}.
 */
public interface ProductionNode extends NodeFactory {
    @Override
    default Class<? extends ComponentDefinition> component() {
        return NodeParent.class;
    }

    @Override
    NodeParent.NodeInit init(NetAddress self);

    /** The node of {@code region} (of {@code regions}: region -> "ip:port") over {@code blocks}, no manifests yet. */
    static NodeParent.NodeInit nodeInit(String region, Map<String, String> regions, NodeSettings settings,
            BlockStorage blocks, long seed) {
        return nodeInit(region, regions, settings, blocks, memoryManifests(), seed);
    }

    /** The node of {@code region} (of {@code regions}: region -> "ip:port") over {@code blocks} and {@code manifests}. */
    static NodeParent.NodeInit nodeInit(String region, Map<String, String> regions, NodeSettings settings,
            BlockStorage blocks, ManifestStore manifests, long seed) {
        // the simulator has no HTTP: its operator and client hosts send cluster changes, moves and purges
        // themselves, standing for the admin API (which production reaches through the S3 gateway's client)
        return new NodeParent.NodeInit(region, NodeFactory.cluster(regions), settings, blocks, manifests, seed)
                .withAdminClients(client -> true);
    }

    /** An empty manifest store in memory. */
    static ManifestStore memoryManifests() {
        try {
            return new ManifestStore(new MemoryMetaEngine());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a new memory store holds nothing to read
        }
    }

    /** An empty block store in memory, on the simulated clock. */
    static MemoryBlockStorage memoryBlocks() {
        return new MemoryBlockStorage(() -> System.currentTimeMillis());
    }

    /**
     * The node of {@code region} over the "disk" it left in {@code blocks} and {@code engines} (made
     * empty at its first start), opened as production opens a restarted node: see {@link #reopenedNodeInit}.
     */
    static NodeParent.NodeInit durableNodeInit(String region, Map<String, String> regions, NodeSettings settings,
            long seed, Map<String, MemoryBlockStorage> blocks, Map<String, MemoryMetaEngine> engines,
            Map<String, ManifestStore> stores) {
        MemoryBlockStorage disk = blocks.computeIfAbsent(region, r -> memoryBlocks());
        MemoryMetaEngine engine = engines.computeIfAbsent(region, r -> new MemoryMetaEngine());
        return reopenedNodeInit(region, regions, settings, seed, disk, engine, stores);
    }

    /**
     * The node of {@code region} over {@code blocks} and the metadata {@code engine} it left, opened
     * as production opens a restarted node (ServerCommand): a new {@link ManifestStore} on the engine,
     * put in {@code stores}, and the copies it still owed for puts acknowledged with {@code --ack local},
     * loaded from the replication queue kept there.
     */
    static NodeParent.NodeInit reopenedNodeInit(String region, Map<String, String> regions, NodeSettings settings,
            long seed, BlockStorage blocks, MetaEngine engine, Map<String, ManifestStore> stores) {
        MetaReplicationQueueStore queue = new MetaReplicationQueueStore(engine);
        ManifestStore manifests;
        List<ReplicationQueue.Copy> owed;
        try {
            manifests = new ManifestStore(engine);
            owed = queue.load();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stores.put(region, manifests);
        return nodeInit(region, regions, settings, blocks, manifests, seed).withReplicationQueue(queue, owed);
    }
}
