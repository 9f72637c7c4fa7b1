package geoblocks.sim.consistency;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.sim.harness.SimRegistry;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * Records, at set times, every node's versions of every name it keeps:
 * {@code S|probe|region|name|v1,v2,...} ascending (the last is the head), each
 * {@code id[(deleted)][/epoch]~uploadedAt~fileId} (a tombstone is marked {@code (deleted)}, a moved
 * version carries its location epoch), and the blocks it holds: {@code B|probe|region|blockId}.
 * Probes count from 0; the last one is the final state.
 */
public final class ConsistencyProbeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    public ConsistencyProbeHost(ProbeInit init) {
        onStart(s -> {
            for (int i = 0; i < init.atMs.size(); i++) {
                ScheduleTimeout st = new ScheduleTimeout(init.atMs.get(i));
                st.setTimeoutEvent(new Check(st, i));
                trigger(st, timer);
            }
        });
        handle(timer, Check.class, c -> {
            for (Map.Entry<String, ManifestStore> e : ConsistencyNodes.STORES.entrySet()) {
                for (ManifestHistory h : e.getValue().histories("", Integer.MAX_VALUE)) {
                    SimRegistry.extraRecords().add("S|" + c.probe + "|" + e.getKey() + "|" + h.name() + "|" + ids(h.versions()));
                }
            }
            ConsistencyNodes.BLOCKS.forEach((region, blocks) -> {
                for (BlockId id : blocks.list()) {
                    SimRegistry.extraRecords().add("B|" + c.probe + "|" + region + "|" + id.value());
                }
            });
        });
    }

    static String ids(List<Manifest> versions) {
        StringJoiner j = new StringJoiner(",");
        for (Manifest m : versions) {
            j.add(m.version().id() + (m.deleted() ? "(deleted)" : "") + (m.locEpoch() > 0 ? "/" + m.locEpoch() : "")
                    + "~" + m.uploadedAt() + "~" + m.fileId());
        }
        return j.toString();
    }

    static final class Check extends Timeout {
        final int probe;

        Check(ScheduleTimeout st, int probe) {
            super(st);
            this.probe = probe;
        }
    }

    public static final class ProbeInit extends Init<ConsistencyProbeHost> {
        final List<Long> atMs;

        ProbeInit(List<Long> atMs) {
            this.atMs = atMs;
        }
    }
}
