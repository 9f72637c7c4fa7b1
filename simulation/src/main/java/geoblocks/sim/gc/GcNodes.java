package geoblocks.sim.gc;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.NodeFactory;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimClientHost;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;

/**
 * Node factories of the block collection scenario: real geoblocks nodes whose block store and
 * metadata engine live in {@link #BLOCKS} and {@link #ENGINES} (the node's "disk": a node killed and
 * started again finds them as it left them), with a short collection grace; client machines running
 * a script; and the probe that judges every block on every node at the end. Static because every
 * simulation runs in a fresh class loader on one thread.
 */
public final class GcNodes {
    static final Map<String, MemoryBlockStorage> BLOCKS = new LinkedHashMap<>();
    static final Map<String, MemoryMetaEngine> ENGINES = new LinkedHashMap<>();
    /** The manifest store each node runs on now (a restarted node opens a new one on its engine). */
    static final Map<String, ManifestStore> STORES = new LinkedHashMap<>();
    /** Block size of the clients' uploads. */
    public static final int BLOCK = 32 << 10;

    private GcNodes() {}

    /** A geoblocks node collecting blocks after {@code graceMs}, sweeping every {@code intervalMs}. */
    public record Node(String region, Map<String, String> regions, long seed, long graceMs, long intervalMs)
            implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        /** LEDBAT ticks every 20 ms: moves and queued copies ride it, but at this scale it need not tick every 5 ms. */
        @Override
        public Map<String, Object> config() {
            return Map.of("geoblocks.ledbat.tick-ms", 20L);
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            NodeSettings settings = NodeSettings.defaults().withVersions(3_600_000, 3_600_000, 1000, 0);
            // the replication queue lives in the node's metadata engine, as in production, so a restarted
            // node resumes the copies it still owed for puts acknowledged with --ack local
            return ProductionNode.durableNodeInit(region, regions, settings, seed, BLOCKS, ENGINES, STORES)
                    .withGc(new GcSettings(graceMs, intervalMs));
        }
    }

    /** A client machine in {@code region} running {@code script}, then verifying what it wrote from {@code verifyAtMs}. */
    public record Client(String region, Map<String, String> regions, List<GcStep> script, long stopMs, long verifyAtMs)
            implements SimClientHost.Plan {
        public Client {
            regions = new LinkedHashMap<>(regions);
            script = List.copyOf(script);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return GcClientHost.class;
        }
    }

    /** The probe: at {@code atMs} judges every block of every node ({@link GcProbeHost}). */
    public record Probe(Map<String, String> regions, long atMs, long graceMs, List<String> watched) implements NodeFactory {
        public Probe {
            regions = new LinkedHashMap<>(regions);
            watched = List.copyOf(watched);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return GcProbeHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new GcProbeHost.ProbeInit(self, regions, atMs, graceMs, watched);
        }
    }
}
