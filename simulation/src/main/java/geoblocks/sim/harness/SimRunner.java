package geoblocks.sim.harness;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import se.sics.kompics.simulator.result.SimulationResultMap;
import se.sics.kompics.simulator.result.SimulationResultSingleton;

/**
 * Runs a {@link SimPlan} in the Kompics simulator (blocking, single-threaded, deterministic for a
 * given seed) and collects what the {@link Sampler} recorded. One simulation at a time per JVM.
 */
public final class SimRunner {
    private SimRunner() {}

    /** The simulator logs one INFO line per run from outside its loader; keep the console clean. */
    private static void quietInstrumentationLog() {
        Logger l = LoggerFactory.getLogger("CodeInstrumentation");
        if (l instanceof ch.qos.logback.classic.Logger lb) {
            lb.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    public static synchronized SimResult run(SimPlan plan) {
        SimulationResultMap res = SimulationResultSingleton.getInstance();
        List<String> flows = new ArrayList<>();
        List<double[]> flowRows = new ArrayList<>();
        List<String> links = new ArrayList<>();
        List<double[]> linkRows = new ArrayList<>();
        List<double[]> linkTotals = new ArrayList<>();
        List<String> faults = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        res.put(ResultKeys.FLOWS, flows);
        res.put(ResultKeys.FLOW_ROWS, flowRows);
        res.put(ResultKeys.LINKS, links);
        res.put(ResultKeys.LINK_ROWS, linkRows);
        res.put(ResultKeys.LINK_TOTALS, linkTotals);
        res.put(ResultKeys.FAULTS, faults);
        res.put(ResultKeys.EXTRA, extra);
        quietInstrumentationLog();
        long t0 = System.nanoTime();
        new PlanScenario(plan).simulate(SeededLauncher.class);
        long wallMs = (System.nanoTime() - t0) / 1_000_000;

        List<FlowSample> fs = new ArrayList<>(flowRows.size());
        for (double[] r : flowRows) {
            String[] nk = flows.get((int) r[1]).split("\t", 2);
            fs.add(new FlowSample((long) r[0], nk[0], nk[1], r[2], r[3], r[4], r[5], r[6]));
        }
        List<LinkSample> ls = new ArrayList<>(linkRows.size());
        for (double[] r : linkRows) {
            ls.add(new LinkSample((long) r[0], links.get((int) r[1]), r[2], (long) r[3], r[4]));
        }
        List<LinkTotals> lt = new ArrayList<>();
        for (double[] r : linkTotals) {
            lt.add(new LinkTotals(links.get((int) r[0]), (long) r[1], (long) r[2], (long) r[3], r[4], r[5]));
        }
        return new SimResult(fs, ls, lt, List.copyOf(extra), List.copyOf(faults), wallMs);
    }
}
