package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.cli.SimulateCommand;
import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SamplerNode;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.ledbat.LedbatNodes;
import geoblocks.sim.ledbat.LedbatOptions;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.XYChart;

/**
 * "LEDBAT fairness": several LEDBAT flows, each between its own pair of hosts (so each keeps its own
 * base-delay history, as separate machines would), share one bottleneck. Run twice: all flows
 * starting together, and staggered (flow i starts at i x stagger). Reports Jain's fairness index
 * of the flows' 1-second mean throughputs and the bottleneck queuing delay over time, for the RFC
 * 6817 controller and, when the component offers it, LEDBAT++.
 */
public final class LedbatFairness {
    private LedbatFairness() {}

    public record Params(long seed, double rateMbps, String from, String to, double bufferMs, LedbatOptions ledbat,
            int flows, double staggerS, double durationS) {
        public Params {
            if (flows < 2 || flows > 32) {
                throw new IllegalArgumentException("fairness needs 2..32 flows, was " + flows);
            }
            if (!(staggerS >= 0) || !(durationS > staggerS * (flows - 1))) {
                throw new IllegalArgumentException("every flow must start before the end: " + flows + " flows x "
                        + staggerS + " s stagger, duration " + durationS + " s");
            }
        }

        public Params with(LedbatOptions o) {
            return new Params(seed, rateMbps, from, to, bufferMs, o, flows, staggerS, durationS);
        }

        public double baseRttMs() {
            return RttMatrix.specDefaults().rttMs(from, to);
        }
    }

    /**
     * One run's figures over the window where every flow is active (its last half). The median
     * queuing delay is the one to compare with the target under LEDBAT++, whose periodic slowdowns
     * empty the queue on purpose and pull the mean down.
     */
    public record Figures(String variant, double jain, double utilization, double meanQueuingDelayMs,
            double medianQueuingDelayMs, double maxQueuingDelayMs, double[] flowMbps) {}

    public static SimPlan plan(Params p, boolean staggered) {
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults())
                .path(p.from(), p.to(), LinkSpec.ofMbps(p.rateMbps(), p.bufferMs()));
        List<NodePlan> nodes = new ArrayList<>();
        nodes.add(new NodePlan("sampler", 0, "10.9.0.1", 1, new SamplerNode(100)));
        for (int i = 1; i <= p.flows(); i++) {
            String tx = "10.1.0." + i;
            String rx = "10.2.0." + i;
            net.host(tx, p.from()).host(rx, p.to());
            long start = staggered ? Math.round((i - 1) * p.staggerS() * 1000) : 0;
            nodes.add(new NodePlan("rx" + i, 0, rx, 7000, new LedbatNodes.Receiver(p.ledbat())));
            nodes.add(new NodePlan("tx" + i, start, tx, 7000,
                    new LedbatNodes.Sender(rx, 7000, List.of("ledbat" + i), p.ledbat())));
        }
        return new SimPlan(p.seed(), net.build(), nodes, Math.round(p.durationS() * 1000), 100);
    }

    /** Per sample time: {Jain over active flows' trailing 1 s means, total Mbit/s, mean queuing delay ms}. */
    static TreeMap<Long, double[]> overTime(SimResult r) {
        Map<String, List<Double>> trailing = new LinkedHashMap<>();
        TreeMap<Long, List<FlowSample>> byTime = new TreeMap<>();
        for (FlowSample s : r.flows()) {
            byTime.computeIfAbsent(s.timeMs(), k -> new ArrayList<>()).add(s);
        }
        TreeMap<Long, double[]> out = new TreeMap<>();
        for (Map.Entry<Long, List<FlowSample>> e : byTime.entrySet()) {
            List<Double> means = new ArrayList<>();
            double total = 0;
            double q = 0;
            int qn = 0;
            for (FlowSample s : e.getValue()) {
                List<Double> w = trailing.computeIfAbsent(s.flow(), k -> new ArrayList<>());
                w.add(s.throughputMbps());
                if (w.size() > 10) {
                    w.remove(0);
                }
                total += s.throughputMbps();
                if (s.cwndBytes() > 0 || s.throughputMbps() > 0) {
                    means.add(w.stream().mapToDouble(Double::doubleValue).average().orElse(0));
                }
                if (!Double.isNaN(s.queuingDelayMs())) {
                    q += s.queuingDelayMs();
                    qn++;
                }
            }
            double jain = means.size() < 2 ? Double.NaN
                    : LedbatMetrics.jain(means.stream().mapToDouble(Double::doubleValue).toArray());
            out.put(e.getKey(), new double[] {jain, total, qn == 0 ? Double.NaN : q / qn});
        }
        return out;
    }

    static Figures figures(String variant, Params p, SimResult r) {
        double from = p.durationS() / 2;
        List<String> names = r.flowNames();
        double[] mbps = new double[names.size()];
        for (int i = 0; i < names.size(); i++) {
            mbps[i] = r.flow(names.get(i)).stream().filter(s -> s.timeMs() / 1000.0 > from)
                    .mapToDouble(FlowSample::throughputMbps).average().orElse(0);
        }
        double total = Arrays.stream(mbps).sum();
        double qSum = 0;
        double qMax = 0;
        List<Double> qs = new ArrayList<>();
        for (Map.Entry<Long, double[]> e : overTime(r).entrySet()) {
            if (e.getKey() / 1000.0 > from && !Double.isNaN(e.getValue()[2])) {
                qSum += e.getValue()[2];
                qMax = Math.max(qMax, e.getValue()[2]);
                qs.add(e.getValue()[2]);
            }
        }
        Collections.sort(qs);
        double median = qs.isEmpty() ? Double.NaN : qs.size() % 2 == 1 ? qs.get(qs.size() / 2)
                : (qs.get(qs.size() / 2 - 1) + qs.get(qs.size() / 2)) / 2;
        return new Figures(variant, LedbatMetrics.jain(mbps), total / p.rateMbps(),
                qs.isEmpty() ? Double.NaN : qSum / qs.size(), median, qMax, mbps);
    }

    /** Runs the four variants (RFC 6817 and LEDBAT++, simultaneous and staggered), writes files, prints the table. */
    public static void runCli(Path dir, Params base, boolean plot, PrintStream o) throws IOException {
        o.printf(Locale.ROOT, "ledbat-fairness: %d LEDBAT flows, %.0f Mbit/s %s->%s (RTT %.0f ms), buffer %.0f ms,"
                + " target %d ms, stagger %.1f s, %.0f s simulated, seed %d%n", base.flows(), base.rateMbps(), base.from(),
                base.to(), base.baseRttMs(), base.bufferMs(), base.ledbat().targetMs(), base.staggerS(), base.durationS(),
                base.seed());
        List<Figures> figs = new ArrayList<>();
        Map<String, SimResult> results = new LinkedHashMap<>();
        long wall = 0;
        Map<String, Integer> targets = new LinkedHashMap<>();
        for (String mode : List.of("rfc6817", "ledbat++")) {
            // LEDBAT++ runs with the draft's 60 ms target unless a lower one was asked for
            int target = mode.equals("ledbat++") ? Math.min(60, base.ledbat().targetMs()) : base.ledbat().targetMs();
            Params p = base.with(base.ledbat().with(target, mode));
            for (boolean staggered : new boolean[] {false, true}) {
                String variant = mode + "-" + (staggered ? "staggered" : "simultaneous");
                o.println("variant " + variant);
                SimResult r = SimulateCommand.run(plan(p, staggered), o);
                wall += r.wallMs();
                results.put(variant, r);
                figs.add(figures(variant, p, r));
                targets.put(variant, target);
                Csv.writeTimeseries(dir.resolve("timeseries-" + variant + ".csv"), r.flows());
            }
        }
        List<String> overTimeRows = new ArrayList<>();
        for (Map.Entry<String, SimResult> e : results.entrySet()) {
            for (Map.Entry<Long, double[]> t : overTime(e.getValue()).entrySet()) {
                overTimeRows.add(Csv.num(t.getKey() / 1000.0, 1) + "," + e.getKey() + "," + Csv.num(t.getValue()[0], 4)
                        + "," + Csv.num(t.getValue()[1], 3) + "," + Csv.num(t.getValue()[2], 2));
            }
        }
        Csv.write(dir.resolve("fairness.csv"), "time_s,variant,jain,total_mbps,queuing_delay_ms", overTimeRows);
        List<String> rows = new ArrayList<>();
        for (Figures f : figs) {
            StringBuilder flows = new StringBuilder();
            for (double m : f.flowMbps()) {
                flows.append(flows.length() == 0 ? "" : " ").append(Csv.num(m, 2));
            }
            rows.add(f.variant() + "," + targets.get(f.variant()) + "," + Csv.num(f.jain(), 4) + ","
                    + Csv.num(f.utilization(), 4) + "," + Csv.num(f.meanQueuingDelayMs(), 2) + ","
                    + Csv.num(f.medianQueuingDelayMs(), 2) + "," + Csv.num(f.maxQueuingDelayMs(), 2) + "," + flows);
        }
        String header = "variant,target_ms,jain_last_half,utilization_last_half,mean_queuing_delay_ms,"
                + "median_queuing_delay_ms,max_queuing_delay_ms,flow_mbps";
        Csv.write(dir.resolve("summary.csv"), header, rows);
        if (plot) {
            Charts.writeStacked(dir.resolve("ledbat-fairness.png"), panels(base, results, targets));
        }
        o.println();
        o.printf(Locale.ROOT, "  %-22s %6s %6s %6s %9s %9s %9s  %s%n", "variant", "target", "jain", "util", "q mean ms",
                "q median", "q max ms", "per-flow Mbit/s (last half)");
        for (String r : rows) {
            String[] c = r.split(",");
            o.printf(Locale.ROOT, "  %-22s %6s %6s %6s %9s %9s %9s  %s%n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        }
        o.printf(Locale.ROOT, "%nwall time %.1f s (4 runs); wrote %s%n", wall / 1000.0, dir.toAbsolutePath());
    }

    static List<XYChart> panels(Params p, Map<String, SimResult> results, Map<String, Integer> targets) {
        List<XYChart> panels = new ArrayList<>();
        for (String variant : List.of("rfc6817-staggered", "ledbat++-staggered")) {
            SimResult r = results.get(variant);
            Map<String, double[][]> thr = new LinkedHashMap<>();
            for (String f : r.flowNames()) {
                thr.put(f, smooth(LedbatVsTcp.xy(r.flow(f), FlowSample::throughputMbps, 1), 10));
            }
            panels.add(Charts.timeSeries(String.format(Locale.ROOT, "%s: %d flows, %.0f Mbit/s, RTT %.0f ms, target %d ms (1 s means)",
                    variant, p.flows(), p.rateMbps(), p.baseRttMs(), targets.get(variant)), "throughput (Mbit/s)",
                    thr, 900, 260, 1.5 * p.rateMbps()));
        }
        Map<String, double[][]> jain = new LinkedHashMap<>();
        Map<String, double[][]> delay = new LinkedHashMap<>();
        for (Map.Entry<String, SimResult> e : results.entrySet()) {
            TreeMap<Long, double[]> t = overTime(e.getValue());
            jain.put(e.getKey(), column(t, 0));
            delay.put(e.getKey(), column(t, 2));
        }
        panels.add(Charts.timeSeries("Jain's fairness index (1 s means of active flows)", "Jain index", jain, 900, 260));
        panels.add(Charts.timeSeries("Queuing delay at the bottleneck", "ms", delay, 900, 260));
        return panels;
    }

    /** Trailing mean over {@code n} points. */
    static double[][] smooth(double[][] xy, int n) {
        double[][] out = new double[2][xy[0].length];
        double sum = 0;
        for (int i = 0; i < xy[0].length; i++) {
            sum += xy[1][i];
            if (i >= n) {
                sum -= xy[1][i - n];
            }
            out[0][i] = xy[0][i];
            out[1][i] = sum / Math.min(i + 1, n);
        }
        return out;
    }

    private static double[][] column(TreeMap<Long, double[]> t, int col) {
        List<double[]> pts = new ArrayList<>();
        for (Map.Entry<Long, double[]> e : t.entrySet()) {
            if (!Double.isNaN(e.getValue()[col])) {
                pts.add(new double[] {e.getKey() / 1000.0, e.getValue()[col]});
            }
        }
        double[][] out = new double[2][pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            out[0][i] = pts.get(i)[0];
            out[1][i] = pts.get(i)[1];
        }
        return out;
    }
}
