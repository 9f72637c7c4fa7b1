package geoblocks.sim.consistency;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.MemoryBlockStorage;
import geoblocks.blockstore.core.placement.PlacementPolicy;
import geoblocks.blockstore.core.placement.PolicySet;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.sim.harness.SimRegistry;
import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * Watches the copies of every version over time, from outside the nodes (their stores, as a disk
 * would show them). Every {@code periodMs} until {@code untilMs} it records:
 * <ul>
 * <li>{@code T|t|region:layoutVersion:drainPending,...|movesCommitted|movedBytes}: each node's latest
 * snapshot (what its operator sees: layout version, kept versions its rebalancer's last full pass
 * found with copies at draining regions, -1 before a pass; {@code -} for a node down or not started)
 * and the sum over the nodes (and their earlier runs, before a restart) of committed moves and the
 * block bytes they copied;
 * <li>{@code H|t|name|version|policy|promise|durable|durableActive|live|liveActive} for each version that
 * is the head (not deleted, with blocks) of its name at some up node and has fewer than its promise
 * (its policy's copies) of live copies outside {@code drained}: a block's copy counts when a region
 * both holds the block and is named for it by some node's manifest of that version; a version's
 * copies are its least-copied block's. {@code durable}: copies anywhere (a down node's store counts:
 * it comes back with it); {@code live}: at up nodes only; {@code ...Active}: not counting
 * {@code drained};
 * <li>{@code E|t|name|version|policy|size|locEpoch|regions=length;...}: when a kept version's newest
 * homes change (the manifest with the highest location epoch any node has; each block's regions and
 * its stored length);
 * <li>{@code K|t|name|version|policy|bytes}: when the bytes of a kept version's (current or earlier)
 * copies at {@code drained} change (0 when they go).
 * </ul>
 */
public final class ReplicaWatchHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    private final WatchInit init;
    private final List<String> out = SimRegistry.extraRecords();
    private final Map<String, Long> atDrained = new HashMap<>();
    private final Map<String, String> homes = new HashMap<>();
    private final Map<String, Integer> promise = new HashMap<>();
    private final PolicySet policies = PolicySet.defaults();

    /** Node {@code region} is down from {@code downMs} until {@code upMs}. */
    public record Down(String region, long downMs, long upMs) implements Serializable {}

    public ReplicaWatchHost(WatchInit init) {
        this.init = init;
        onStart(s -> {
            SchedulePeriodicTimeout st = new SchedulePeriodicTimeout(init.periodMs, init.periodMs);
            st.setTimeoutEvent(new Tick(st));
            trigger(st, timer);
        });
        handle(timer, Tick.class, t -> {
            long now = System.currentTimeMillis();
            if (now <= init.untilMs) {
                tick(now);
            }
        });
    }

    private boolean up(String region, long now) {
        for (Down d : init.down) {
            if (d.region().equals(region) && now >= d.downMs() && now < d.upMs()) {
                return false;
            }
        }
        return true;
    }

    private void tick(long now) {
        StringJoiner nodes = new StringJoiner(",");
        long moves = 0;
        long bytes = 0;
        for (String region : ConsistencyNodes.STORES.keySet()) {
            NodeSnapshot s = ConsistencyNodes.SNAPSHOTS.get(region);
            nodes.add(region + ":" + (s == null || !up(region, now) ? "-" : s.layout().version() + ":" + s.layout().drainPending()));
            if (s != null) {
                moves += s.layout().movesCommitted();
                bytes += s.layout().movedBytes();
            }
            long[] earlier = ConsistencyNodes.EARLIER_MOVES.get(region);
            if (earlier != null) {
                moves += earlier[0];
                bytes += earlier[1];
            }
        }
        out.add("T|" + now + "|" + nodes + "|" + moves + "|" + bytes);
        // every node's manifests of each version, united: the regions named for each block
        Map<String, Manifest> versions = new TreeMap<>();
        Map<String, Map<Integer, Set<String>>> named = new HashMap<>();
        Set<String> heads = new TreeSet<>();
        for (Map.Entry<String, ManifestStore> e : ConsistencyNodes.STORES.entrySet()) {
            boolean up = up(e.getKey(), now);
            for (ManifestHistory h : e.getValue().histories("", Integer.MAX_VALUE)) {
                for (Manifest m : h.versions()) {
                    if (m.deleted() || m.blocks().isEmpty()) {
                        continue;
                    }
                    String key = m.name() + "|" + m.version().id();
                    versions.merge(key, m, (a, b) -> b.locEpoch() > a.locEpoch() ? b : a); // the newest homes
                    Map<Integer, Set<String>> byBlock = named.computeIfAbsent(key, k -> new HashMap<>());
                    for (int i = 0; i < m.blocks().size(); i++) {
                        byBlock.computeIfAbsent(i, x -> new TreeSet<>()).addAll(m.blocks().get(i).replicas());
                    }
                }
                if (up && !h.head().deleted() && !h.head().blocks().isEmpty()) {
                    heads.add(h.name() + "|" + h.head().version().id());
                }
            }
        }
        Map<String, MemoryBlockStorage> blocks = new LinkedHashMap<>(ConsistencyNodes.BLOCKS);
        for (Map.Entry<String, Manifest> e : versions.entrySet()) {
            Manifest m = e.getValue();
            Map<Integer, Set<String>> byBlock = named.get(e.getKey());
            int durable = Integer.MAX_VALUE;
            int durableActive = Integer.MAX_VALUE;
            int live = Integer.MAX_VALUE;
            int liveActive = Integer.MAX_VALUE;
            long drainedBytes = 0;
            for (int i = 0; i < m.blocks().size(); i++) {
                BlockId id = BlockId.ofFileBlock(m.fileId(), i);
                int d = 0;
                int da = 0;
                int l = 0;
                int la = 0;
                for (String r : byBlock.getOrDefault(i, Set.of())) {
                    MemoryBlockStorage store = blocks.get(r);
                    if (store == null || !store.contains(id)) {
                        continue;
                    }
                    boolean active = !r.equals(init.drained);
                    boolean up = up(r, now);
                    d++;
                    da += active ? 1 : 0;
                    l += up ? 1 : 0;
                    la += up && active ? 1 : 0;
                    if (!active) {
                        drainedBytes += m.blocks().get(i).length();
                    }
                }
                durable = Math.min(durable, d);
                durableActive = Math.min(durableActive, da);
                live = Math.min(live, l);
                liveActive = Math.min(liveActive, la);
            }
            StringJoiner where = new StringJoiner(";");
            for (Manifest.BlockRef b : m.blocks()) {
                where.add(String.join(",", b.replicas()) + "=" + b.length());
            }
            String home = m.locEpoch() + "|" + where;
            if (!home.equals(homes.put(e.getKey(), home))) {
                out.add("E|" + now + "|" + e.getKey() + "|" + m.policy() + "|" + m.size() + "|" + home);
            }
            Long before = atDrained.get(e.getKey());
            if ((before == null && drainedBytes > 0) || (before != null && before != drainedBytes)) {
                atDrained.put(e.getKey(), drainedBytes);
                out.add("K|" + now + "|" + e.getKey() + "|" + m.policy() + "|" + drainedBytes);
            }
            int promised = promise.computeIfAbsent(m.policy(),
                    p -> policies.find(p).map(PlacementPolicy::copies).orElseThrow(
                            () -> new IllegalStateException("unknown policy " + p)));
            if (heads.contains(e.getKey()) && liveActive < promised) {
                out.add("H|" + now + "|" + e.getKey() + "|" + m.policy() + "|" + promised + "|" + durable + "|"
                        + durableActive + "|" + live + "|" + liveActive);
            }
        }
        // versions no node keeps any more: nothing of them is left at the drained region to move
        for (Map.Entry<String, Long> e : atDrained.entrySet()) {
            if (e.getValue() > 0 && !versions.containsKey(e.getKey())) {
                out.add("K|" + now + "|" + e.getKey() + "|?|0");
                e.setValue(0L);
            }
        }
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout st) {
            super(st);
        }
    }

    /** How often to look, until when, the region being drained, and when nodes are down. */
    public static final class WatchInit extends Init<ReplicaWatchHost> {
        final long periodMs;
        final long untilMs;
        final String drained;
        final List<Down> down;

        WatchInit(long periodMs, long untilMs, String drained, List<Down> down) {
            this.periodMs = periodMs;
            this.untilMs = untilMs;
            this.drained = drained;
            this.down = List.copyOf(down);
        }
    }
}
