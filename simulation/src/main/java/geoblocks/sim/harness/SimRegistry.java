package geoblocks.sim.harness;

import geoblocks.net.NetAddress;
import geoblocks.sim.net.PathModel;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.simulator.result.SimulationResultSingleton;

/**
 * Measurement hooks shared by the components of one simulation: the network's path model and the
 * flow probes, in registration order. Static because the simulator runs every simulation in a
 * fresh class loader (so each run starts empty) and runs it on one thread; nothing outside the
 * measurement code (drivers, sampler, network model) may depend on it.
 */
public final class SimRegistry {
    private static PathModel path;
    private static final Map<String, FlowProbe> FLOWS = new LinkedHashMap<>();
    private static final Map<String, FlowProbe> STREAMS = new LinkedHashMap<>();

    private SimRegistry() {}

    public static void reset() {
        path = null;
        FLOWS.clear();
        STREAMS.clear();
    }

    /** Binds a transport stream (sender address, stream id) to its flow's probe. */
    public static void stream(NetAddress sender, int streamId, FlowProbe probe) {
        STREAMS.put(sender + "#" + streamId, probe);
    }

    /** The probe of a transport stream, or null when no sender bound it. */
    public static FlowProbe stream(NetAddress sender, int streamId) {
        return STREAMS.get(sender + "#" + streamId);
    }

    public static void path(PathModel p) {
        path = p;
    }

    /** The path model of the running simulation, or null before the network is set up. */
    public static PathModel path() {
        return path;
    }

    /** The probe of flow {@code name}, created on first use by either end of the flow. */
    public static FlowProbe flow(String name, String kind, NetAddress source, NetAddress destination) {
        return FLOWS.computeIfAbsent(name, n -> new FlowProbe(n, kind, source, destination));
    }

    /** The run's list of scenario-specific records (strings), read by the scenario after the run. */
    @SuppressWarnings("unchecked")
    public static List<String> extraRecords() {
        return SimulationResultSingleton.getInstance().get(ResultKeys.EXTRA, List.class);
    }

    public static Collection<FlowProbe> flows() {
        return Collections.unmodifiableCollection(FLOWS.values());
    }
}
