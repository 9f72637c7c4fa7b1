package geoblocks.sim.consistency;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.GcSettings;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.meta.MemoryMetaEngine;
import geoblocks.blockstore.port.NodeSnapshot;
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
 * Node factories of the consistency scenario: real geoblocks nodes (the production
 * {@link NodeParent}, memory storage, each with its own clock offset), client machines that run a
 * script through the real client component, and the probe that records every node's versions at
 * the end. {@link #STORES} lets the probe read the nodes' manifest stores; it is static because
 * every simulation runs in a fresh class loader on one thread.
 */
public final class ConsistencyNodes {
    static final Map<String, ManifestStore> STORES = new LinkedHashMap<>();
    static final Map<String, MemoryBlockStorage> BLOCKS = new LinkedHashMap<>();
    /** The metadata engines of {@link Durable} nodes (their "disk", with {@link #BLOCKS}): a restarted node finds them as it left them. */
    static final Map<String, MemoryMetaEngine> ENGINES = new LinkedHashMap<>();
    /** The latest snapshot each {@link Durable} node published ({@link ObservedNodeHost}); cleared when it starts again. */
    static final Map<String, NodeSnapshot> SNAPSHOTS = new LinkedHashMap<>();
    /** Per {@link ObservedNodeHost} node, how many of its snapshots reported a storage fault (not ready). */
    static final Map<String, Integer> STORAGE_FAULT_SNAPSHOTS = new LinkedHashMap<>();
    /**
     * Per {@link Durable} node, what its earlier runs (before a restart) reported last: moves committed
     * and the block bytes they copied (a node counts from its start).
     */
    static final Map<String, long[]> EARLIER_MOVES = new LinkedHashMap<>();
    /** Block size of the clients' uploads. */
    public static final int BLOCK = 32 << 10;
    /**
     * Every node collects unreferenced blocks with a 20 s grace, sweeping every 5 s: the runs are
     * shorter than the default 10 min grace, and the model must hold with the collector running.
     */
    static final long GC_GRACE_MS = 20_000;
    static final long GC_INTERVAL_MS = 5_000;
    /** Tombstone retention of every node: beyond every run, so only acknowledgements collect tombstones. */
    static final long TOMBSTONE_FALLBACK_MS = 3_600_000;
    /**
     * Every node's config: LEDBAT ticks every 200 ms instead of 5: nothing in these scenarios rides
     * LEDBAT much (puts are acknowledged by every replica, little needs repair), and its idle ticks
     * would be most of the simulator's events (4 nodes x 200 a second).
     */
    static final Map<String, Object> CONFIG = Map.of("geoblocks.ledbat.tick-ms", 200L);

    private ConsistencyNodes() {}

    /**
     * A node's settings: superseded versions kept {@code retentionMs}, tombstones (the fallback) at
     * least {@link #TOMBSTONE_FALLBACK_MS}, the wall clock off by {@code clockOffsetMs}.
     */
    static NodeSettings settings(long retentionMs, long clockOffsetMs) {
        return NodeSettings.defaults().withVersions(retentionMs, Math.max(retentionMs, TOMBSTONE_FALLBACK_MS), 1000,
                clockOffsetMs);
    }

    /** A node's block collector: {@link #GC_GRACE_MS}, every {@link #GC_INTERVAL_MS}. */
    static GcSettings gc() {
        return new GcSettings(GC_GRACE_MS, GC_INTERVAL_MS);
    }

    /**
     * A geoblocks node whose wall clock is off by {@code clockOffsetMs}; superseded versions kept
     * {@code retentionMs}. The tombstone retention (the fallback) is an hour, longer than any run, so
     * a deleted name is forgotten only once every region acknowledged its tombstone.
     */
    public record Node(String region, Map<String, String> regions, long seed, long clockOffsetMs, long retentionMs)
            implements ProductionNode {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Map<String, Object> config() {
            return CONFIG;
        }

        @Override
        public NodeParent.NodeInit init(NetAddress self) {
            ManifestStore manifests = ProductionNode.memoryManifests();
            MemoryBlockStorage blocks = ProductionNode.memoryBlocks();
            STORES.put(region, manifests);
            BLOCKS.put(region, blocks);
            return ProductionNode.nodeInit(region, regions, settings(retentionMs, clockOffsetMs), blocks, manifests, seed)
                    .withGc(gc());
        }
    }

    /**
     * As {@link Node}, but restartable as production restarts a node: its block store and metadata
     * engine (manifests, layout, replication queue) live in {@link #BLOCKS} and {@link #ENGINES}, so
     * a node killed and started again opens what it left there (a new {@link ManifestStore} on the
     * engine, the copies it still owed loaded from the queue, as ServerCommand does); it runs under
     * {@link ObservedNodeHost}, which keeps its latest snapshot.
     */
    public record Durable(String region, Map<String, String> regions, long seed, long clockOffsetMs, long retentionMs)
            implements NodeFactory {
        public Durable {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Map<String, Object> config() {
            return CONFIG;
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return ObservedNodeHost.class;
        }

        @Override
        public ObservedNodeHost.ObservedInit init(NetAddress self) {
            NodeSnapshot last = SNAPSHOTS.remove(region);
            long[] earlier = EARLIER_MOVES.computeIfAbsent(region, r -> new long[2]);
            if (last != null) {
                earlier[0] += last.layout().movesCommitted();
                earlier[1] += last.layout().movedBytes();
            }
            return new ObservedNodeHost.ObservedInit(region, ProductionNode.durableNodeInit(region, regions,
                    settings(retentionMs, clockOffsetMs), seed, BLOCKS, ENGINES, STORES).withGc(gc()));
        }
    }

    /**
     * A client machine in {@code region} running {@code script} against that region's node; an
     * operation the node does not answer for {@code timeoutMs} ends with an unknown outcome.
     */
    public record Client(String region, Map<String, String> regions, List<Step> script, long stopWritesMs,
            long verifyAtMs, long timeoutMs) implements SimClientHost.Plan {
        /** The client's default timeout: longer than any wait of a put for its replicas in these scenarios. */
        public static final long TIMEOUT_MS = 60_000;

        public Client {
            regions = new LinkedHashMap<>(regions);
            script = List.copyOf(script);
        }

        public Client(String region, Map<String, String> regions, List<Step> script, long stopWritesMs, long verifyAtMs) {
            this(region, regions, script, stopWritesMs, verifyAtMs, TIMEOUT_MS);
        }

        /** This client with another timeout. */
        public Client withTimeout(long ms) {
            return new Client(region, regions, script, stopWritesMs, verifyAtMs, ms);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return ConsistencyClientHost.class;
        }
    }

    /** The operator: applies {@code changes} through the node at {@code node} (ip:port); reads the layouts at {@code finalAtMs}. */
    public record Operator(String node, List<OperatorHost.Change> changes, long finalAtMs) implements SimClientHost.Plan {
        public Operator {
            changes = List.copyOf(changes);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return OperatorHost.class;
        }
    }

    /** The replica watch ({@link ReplicaWatchHost}): every {@code periodMs} until {@code untilMs}. */
    public record Watch(long periodMs, long untilMs, String drained, List<ReplicaWatchHost.Down> down) implements NodeFactory {
        public Watch {
            down = List.copyOf(down);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return ReplicaWatchHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new ReplicaWatchHost.WatchInit(periodMs, untilMs, drained, down);
        }
    }

    /** The probe: at each of {@code atMs} records every node's versions of every name and its blocks. */
    public record Probe(List<Long> atMs) implements NodeFactory {
        public Probe {
            atMs = List.copyOf(atMs);
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return ConsistencyProbeHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new ConsistencyProbeHost.ProbeInit(atMs);
        }
    }
}
