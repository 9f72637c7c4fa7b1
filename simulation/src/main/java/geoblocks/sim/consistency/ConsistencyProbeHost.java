package geoblocks.sim.consistency;

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
 * Records, at a set time, every node's versions of every name it keeps:
 * {@code S|region|name|v1,v2,...} ascending (the last is the head), each {@code id[(deleted)][/epoch]~uploadedAt}
 * (a tombstone is marked {@code (deleted)}, a moved version carries its location epoch).
 */
public final class ConsistencyProbeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    public ConsistencyProbeHost(ProbeInit init) {
        onStart(s -> {
            ScheduleTimeout st = new ScheduleTimeout(init.atMs);
            st.setTimeoutEvent(new Check(st));
            trigger(st, timer);
        });
        handle(timer, Check.class, c -> {
            for (Map.Entry<String, ManifestStore> e : ConsistencyNodes.STORES.entrySet()) {
                for (ManifestHistory h : e.getValue().histories("", Integer.MAX_VALUE)) {
                    SimRegistry.extraRecords().add("S|" + e.getKey() + "|" + h.name() + "|" + ids(h.versions()));
                }
            }
        });
    }

    static String ids(List<Manifest> versions) {
        StringJoiner j = new StringJoiner(",");
        for (Manifest m : versions) {
            j.add(m.version().id() + (m.deleted() ? "(deleted)" : "") + (m.locEpoch() > 0 ? "/" + m.locEpoch() : "")
                    + "~" + m.uploadedAt());
        }
        return j.toString();
    }

    static final class Check extends Timeout {
        Check(ScheduleTimeout st) {
            super(st);
        }
    }

    public static final class ProbeInit extends Init<ConsistencyProbeHost> {
        final long atMs;

        ProbeInit(long atMs) {
            this.atMs = atMs;
        }
    }
}
