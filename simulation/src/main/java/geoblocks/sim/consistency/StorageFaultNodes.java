package geoblocks.sim.consistency;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.faults.Disks;
import geoblocks.sim.faults.FaultSchedule;
import geoblocks.sim.faults.FaultyBlockStorage;
import geoblocks.sim.harness.NodeFactory;
import geoblocks.sim.harness.ProductionNode;
import geoblocks.sim.harness.SimRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * Node factories of the storage-fault scenario: the consistency scenario's restartable node
 * ({@link ConsistencyNodes.Durable}) on a faulty disk ({@link Disks}: metadata whose unsynced writes
 * a power cut drops and whose syncs fail for a while, blocks that may be torn, flipped or full), and
 * the probe that reports the faults injected and the damage left. The disks are static for the same
 * reason as {@link ConsistencyNodes#STORES}: one simulation per class loader, on one thread.
 */
public final class StorageFaultNodes {
    static Disks disks;
    /** Scrub pass interval of the nodes: a flipped or torn block is found within seconds, not the default 10 min. */
    static final long SCRUB_PASS_MS = 5_000;

    private StorageFaultNodes() {}

    static Disks disks(FaultSchedule schedule) {
        if (disks == null) {
            disks = new Disks(schedule, () -> System.currentTimeMillis(), StorageFaultNodes::namedReplicas);
        }
        return disks;
    }

    /** The replicas that the versions {@code region}'s node keeps name, per block (none before it starts). */
    static Map<BlockId, Set<String>> namedReplicas(String region) {
        Map<BlockId, Set<String>> named = new HashMap<>();
        ManifestStore store = ConsistencyNodes.STORES.get(region);
        if (store == null) {
            return named;
        }
        for (ManifestHistory h : store.histories("", Integer.MAX_VALUE)) {
            for (Manifest m : h.versions()) {
                for (int i = 0; i < m.blocks().size(); i++) {
                    named.computeIfAbsent(BlockId.ofFileBlock(m.fileId(), i), k -> new HashSet<>())
                            .addAll(m.blocks().get(i).replicas());
                }
            }
        }
        return named;
    }

    /**
     * Records what a node's metadata kept through a power cut at {@code cutAtMs}, before it starts
     * again ({@code P|region|cutAtMs|name|version,version,...}): every write the node acknowledged
     * before the cut must be there, whatever its peers could later give back.
     */
    static void recordKept(String region, long cutAtMs, ManifestStore manifests) {
        for (ManifestHistory h : manifests.histories("", Integer.MAX_VALUE)) {
            StringBuilder ids = new StringBuilder();
            for (Manifest m : h.versions()) {
                ids.append(ids.length() == 0 ? "" : ",").append(m.version().id());
            }
            SimRegistry.extraRecords().add("P|" + region + "|" + cutAtMs + "|" + h.name() + "|" + ids);
        }
    }

    /** A restartable geoblocks node on a faulty disk that follows {@code schedule}. */
    public record Node(String region, Map<String, String> regions, long seed, long clockOffsetMs, long retentionMs,
            FaultSchedule schedule) implements NodeFactory {
        public Node {
            regions = new LinkedHashMap<>(regions);
        }

        @Override
        public Map<String, Object> config() {
            return ConsistencyNodes.CONFIG;
        }

        @Override
        public Class<? extends ComponentDefinition> component() {
            return ObservedNodeHost.class;
        }

        /** Opens the node's disk (after a crash: as the power cut left it) as production opens a restarted node. */
        @Override
        public ObservedNodeHost.ObservedInit init(NetAddress self) {
            Disks.Disk disk = disks(schedule).open(region);
            NodeSettings settings = ConsistencyNodes.settings(retentionMs, clockOffsetMs)
                    .withScrub(NodeSettings.defaults().scrubBytesPerSecond(), SCRUB_PASS_MS);
            NodeParent.NodeInit node = ProductionNode.reopenedNodeInit(region, regions, settings, seed, disk.blocks(),
                    disk.engine(), ConsistencyNodes.STORES);
            if (disk.cutAtMs() >= 0) {
                recordKept(region, disk.cutAtMs(), ConsistencyNodes.STORES.get(region));
            }
            return new ObservedNodeHost.ObservedInit(region, node.withGc(ConsistencyNodes.gc()));
        }
    }

    /** The probe of the faults, at {@code atMs}: see {@link FaultProbeHost}. */
    public record Probe(long atMs) implements NodeFactory {
        @Override
        public Class<? extends ComponentDefinition> component() {
            return FaultProbeHost.class;
        }

        @Override
        public Init<? extends ComponentDefinition> init(NetAddress self) {
            return new FaultProbeHost.ProbeInit(atMs);
        }
    }

    /**
     * At {@code atMs} records the faults injected ({@code X|kind|count}), per node the snapshots in
     * which it reported a storage fault and the longest its syncs failed until one worked again
     * ({@code Y|region|count|ms}), each node whose latest snapshot still
     * reports one ({@code Z|region|fault}), every block a kept version names at a node that the
     * node does not hold ({@code M|region|block}), how many such (node, block) replicas there are
     * ({@code N|count}), and every damaged block a node still
     * holds ({@code D|region|block|referenced}; referenced: a version the node keeps names it as a
     * replica there, so its scrubber should have repaired it).
     */
    public static final class FaultProbeHost extends ComponentDefinition {
        private final Positive<Network> net =
                requires(Network.class);
        private final Positive<Timer> timer = requires(Timer.class);

        public FaultProbeHost(ProbeInit init) {
            onStart(s -> {
                ScheduleTimeout st = new ScheduleTimeout(init.atMs);
                st.setTimeoutEvent(new Check(st));
                trigger(st, timer);
            });
            handle(timer, Check.class, c -> record());
        }

        private void record() {
            List<String> out = SimRegistry.extraRecords();
            if (disks == null) {
                return;
            }
            disks.tally().counts().forEach((kind, n) -> out.add("X|" + kind + "|" + n));
            disks.engines().forEach((region, e) -> out.add("Y|" + region + "|"
                    + ConsistencyNodes.STORAGE_FAULT_SNAPSHOTS.getOrDefault(region, 0) + "|" + e.longestFailureMs()));
            ConsistencyNodes.SNAPSHOTS.forEach((region, snap) -> {
                if (snap.storageFault() != null) {
                    out.add("Z|" + region + "|" + snap.storageFault().replace('|', '/'));
                }
            });
            int named = 0;
            for (Map.Entry<String, FaultyBlockStorage> e : disks.blocks().entrySet()) {
                Set<BlockId> referenced = referenced(e.getKey());
                named += referenced.size();
                for (BlockId id : e.getValue().damagedBlocks()) {
                    out.add("D|" + e.getKey() + "|" + id.value() + "|" + referenced.contains(id));
                }
                referenced.stream().filter(id -> !e.getValue().contains(id)).sorted()
                        .forEach(id -> out.add("M|" + e.getKey() + "|" + id.value()));
            }
            out.add("N|" + named);
        }

        private static Set<BlockId> referenced(String region) {
            Set<BlockId> ids = new HashSet<>();
            namedReplicas(region).forEach((id, replicas) -> {
                if (replicas.contains(region)) {
                    ids.add(id);
                }
            });
            return ids;
        }

        static final class Check extends Timeout {
            Check(ScheduleTimeout st) {
                super(st);
            }
        }

        /** When to look. */
        public static final class ProbeInit extends Init<FaultProbeHost> {
            final long atMs;

            ProbeInit(long atMs) {
                this.atMs = atMs;
            }
        }
    }
}
