package geoblocks.sim.harness;

import geoblocks.sim.net.BottleneckLink;
import geoblocks.sim.net.PathModel;
import geoblocks.sim.net.SimNetworkModel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.simulator.result.SimulationResultMap;
import se.sics.kompics.simulator.result.SimulationResultSingleton;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A passive simulated node that records every flow and link each period (100 ms by default) into
 * the simulator's result map. Flow row: {time ms, flow index, throughput Mbit/s, cwnd bytes, RTT
 * ms, queuing delay ms (mean over the flow's packets in the period, measured on the links), the
 * flow's own queuing-delay estimate}. Link row: {time ms, link index, backlog ms, drops so far,
 * utilization in the period}.
 */
public final class Sampler extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    /** Print the simulated time every 5 s (set by the simulate command). */
    private static final boolean PROGRESS = Boolean.getBoolean("geoblocks.sim.progress");

    private final long periodMs;
    private final Map<String, Integer> flowIndex = new HashMap<>();
    private final Map<String, Long> lastDelivered = new HashMap<>();
    private final Map<String, Long> lastLinkBytes = new HashMap<>();
    private List<String> flows;
    private List<double[]> flowRows;
    private List<String> links;
    private List<double[]> linkRows;
    private List<double[]> linkTotals;

    @SuppressWarnings("unchecked")
    public Sampler(SamplerInit init) {
        periodMs = init.periodMs;
        onStart(s -> {
            SimulationResultMap res = SimulationResultSingleton.getInstance();
            flows = res.get(ResultKeys.FLOWS, List.class);
            flowRows = res.get(ResultKeys.FLOW_ROWS, List.class);
            links = res.get(ResultKeys.LINKS, List.class);
            linkRows = res.get(ResultKeys.LINK_ROWS, List.class);
            linkTotals = res.get(ResultKeys.LINK_TOTALS, List.class);
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(periodMs, periodMs);
            spt.setTimeoutEvent(new Tick(spt));
            trigger(spt, timer);
        });
        handle(timer, Tick.class, t -> sample());
    }

    private void sample() {
        double t = System.currentTimeMillis();
        if (PROGRESS && (long) t % 5000 == 0) {
            System.out.print("  " + (long) t / 1000 + " s");
            System.out.flush();
        }
        double seconds = periodMs / 1000.0;
        PathModel path = SimRegistry.path();
        for (FlowProbe f : SimRegistry.flows()) {
            Integer idx = flowIndex.get(f.name());
            if (idx == null) {
                idx = flows.size();
                flowIndex.put(f.name(), idx);
                flows.add(f.name() + "\t" + f.kind());
            }
            long delivered = f.deliveredBytes();
            long delta = delivered - lastDelivered.getOrDefault(f.name(), 0L);
            lastDelivered.put(f.name(), delivered);
            double queue = Double.NaN;
            if (path != null) {
                PathModel.FlowAccount a = path.flow(new SimNetworkModel.FlowKey(f.source(), f.destination()));
                queue = a.meanQueueDelayMs();
                a.reset();
            }
            flowRows.add(new double[] {t, idx, delta * 8 / seconds / 1e6, f.cwndBytes(), f.takeRttMs(), queue,
                f.ownQueueDelayMs()});
        }
        if (path == null) {
            return;
        }
        linkTotals.clear();
        int i = 0;
        for (Map.Entry<String, BottleneckLink> e : path.links().entrySet()) {
            BottleneckLink l = e.getValue();
            if (links.size() <= i) {
                links.add(e.getKey());
            }
            long bytes = l.bytes();
            long delta = bytes - lastLinkBytes.getOrDefault(e.getKey(), 0L);
            lastLinkBytes.put(e.getKey(), bytes);
            long nowNs = (long) t * 1_000_000L;
            linkRows.add(new double[] {t, i, l.backlogNs(nowNs) / 1e6, l.drops(),
                delta * 8 / seconds / l.spec().capacityBps()});
            linkTotals.add(new double[] {i, l.packets(), l.bytes(), l.drops(), l.meanQueueDelayMs(), l.maxQueueDelayMs()});
            i++;
        }
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    /** The sampling period in simulated ms. */
    public static final class SamplerInit extends Init<Sampler> {
        final long periodMs;

        public SamplerInit(long periodMs) {
            if (periodMs <= 0) {
                throw new IllegalArgumentException("sampling period must be > 0 ms, was " + periodMs);
            }
            this.periodMs = periodMs;
        }
    }
}
