package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.databridge.DataBridgeNodes;
import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.databridge.DataBridgeReport;
import geoblocks.sim.databridge.DataBridgeResult;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code simulate databridge}: experiment 7 in the simulator, the twin of {@code bench databridge}.
 * Four production nodes (one per region of the RTT matrix) and a client machine in the near region;
 * every TCP message rides simulated TCP, the migration LEDBAT over UDP; random loss applies to every
 * packet between two regions and to none within one. One simulation per size, loss and path (direct
 * or redirected), each from the plan's seed, so a seed gives the same figures.
 *
 * @param rateMbps capacity of the near-to-home path in Mbit/s, NaN for none (the live emulated WAN
 *     has none: delay and loss only)
 * @param bufferMs that path's buffer, in ms at full rate
 * @param lanMbps capacity of the near region's LAN (client to near node), NaN for none
 */
public record DataBridge(DataBridgePlan plan, double rateMbps, double bufferMs, double lanMbps) {
    /** RTT monitors need three answered probes (1 s apart) before a peer counts as up. */
    static final long START_MS = 5_000;
    static final String CLIENT = "10.200.0.100:48000";

    public DataBridge {
        if (!Double.isNaN(rateMbps) && !(rateMbps > 0 && rateMbps <= 100_000)) {
            throw new IllegalArgumentException("rate must be in (0, 100000] Mbit/s, was " + rateMbps);
        }
        if (!Double.isNaN(lanMbps) && !(lanMbps > 0 && lanMbps <= 100_000)) {
            throw new IllegalArgumentException("LAN rate must be in (0, 100000] Mbit/s, was " + lanMbps);
        }
        if (!(bufferMs > 0)) {
            throw new IllegalArgumentException("buffer must be > 0 ms, was " + bufferMs);
        }
        RttMatrix m = RttMatrix.specDefaults();
        if (!m.has(plan.near(), plan.home())) {
            throw new IllegalArgumentException("no RTT between '" + plan.near() + "' and '" + plan.home() + "' in the matrix");
        }
    }

    /** The regions of the simulation: near, home and the other regions of SPEC.md's matrix. */
    List<String> regions() {
        List<String> r = new ArrayList<>(List.of(plan.near(), plan.home()));
        for (String s : Placement.REGIONS) {
            if (!r.contains(s)) {
                r.add(s);
            }
        }
        return r;
    }

    /** One simulation: the nodes and the client uploading {@code bytes} along {@code path} at {@code lossPercent}. */
    public SimPlan simPlan(long bytes, double lossPercent, String path) {
        RttMatrix m = RttMatrix.specDefaults();
        NetworkSpec.Builder net = NetworkSpec.builder(m).lossRate(lossPercent / 100).lossBetweenRegionsOnly(true);
        Map<String, String> regions = new LinkedHashMap<>();
        List<String> rs = regions();
        for (int i = 0; i < rs.size(); i++) {
            String ip = "10." + (i + 1) + ".0.1";
            net.host(ip, rs.get(i));
            regions.put(rs.get(i), ip + ":47000");
        }
        net.host(CLIENT.substring(0, CLIENT.indexOf(':')), plan.near());
        if (!Double.isNaN(rateMbps)) {
            net.path(plan.near(), plan.home(), LinkSpec.ofMbps(rateMbps, bufferMs));
        }
        if (!Double.isNaN(lanMbps)) {
            net.lan(plan.near(), LinkSpec.ofMbps(lanMbps, bufferMs));
        }
        // a cap far above any expected run: the file at 5 kB/s per copy, plus two minutes
        long capMs = START_MS + 120_000 + 2 * bytes / 5;
        List<NodePlan> nodes = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) {
            nodes.add(new NodePlan(rs.get(i), 0, "10." + (i + 1) + ".0.1", 47000,
                    new DataBridgeNodes.Node(rs.get(i), regions, CLIENT, plan.seed() * 31 + i)));
        }
        nodes.add(new NodePlan("client", 0, "10.200.0.100", 48000, new DataBridgeNodes.Client(regions, plan.near(),
                plan.home(), path, bytes, plan.blockSize(), plan.seed(), START_MS, capMs)));
        return new SimPlan(plan.seed(), net.build(), nodes, capMs, 1000);
    }

    /** The result of one simulation: its R record (times from the put), or a failure if it has none. */
    static DataBridgeResult result(String path, long bytes, double loss, SimResult r) {
        for (String rec : r.extra()) {
            if (rec.startsWith("R|")) {
                String[] f = rec.split("\\|", 4);
                long wait = Long.parseLong(f[1]);
                long home = Long.parseLong(f[2]);
                return new DataBridgeResult(path, bytes, loss, wait < 0 ? Double.NaN : wait, home < 0 ? Double.NaN : home,
                        f[3]);
            }
        }
        return new DataBridgeResult(path, bytes, loss, Double.NaN, Double.NaN, "not done within the simulated time");
    }

    /** Runs every size, loss and path with {@code runner}, printing the table as rows complete. */
    public List<DataBridgeResult> run(Function<SimPlan, SimResult> runner, PrintStream o) {
        List<DataBridgeResult> all = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (double loss : plan.lossPercents()) {
            for (long bytes : plan.sizes()) {
                DataBridgeResult d = result(DataBridgeResult.DIRECT, bytes, loss,
                        runner.apply(simPlan(bytes, loss, DataBridgeResult.DIRECT)));
                DataBridgeResult r = result(DataBridgeResult.REDIRECT, bytes, loss,
                        runner.apply(simPlan(bytes, loss, DataBridgeResult.REDIRECT)));
                all.add(d);
                all.add(r);
                rows.add(DataBridgeReport.row(bytes, loss, d, r));
            }
        }
        o.println();
        o.println(DataBridgeReport.header());
        rows.forEach(o::println);
        return all;
    }

    public static List<DataBridgeResult> runCli(Path dir, DataBridge d, boolean plot, PrintStream o,
            Function<SimPlan, SimResult> runner) throws IOException {
        DataBridgePlan p = d.plan();
        o.printf(Locale.ROOT, "databridge: client in %s, home %s, blocks of %d B, sizes %s, loss %s %%, %s, %s, seed %d%n",
                p.near(), p.home(), p.blockSize(), p.sizes().stream().map(DataBridgeReport::mb).toList(), p.lossPercents(),
                Double.isNaN(d.rateMbps()) ? "no WAN bottleneck" : d.rateMbps() + " Mbit/s " + p.near() + ">" + p.home(),
                Double.isNaN(d.lanMbps()) ? "no LAN limit" : d.lanMbps() + " Mbit/s LAN at " + p.near(), p.seed());
        List<DataBridgeResult> all = d.run(runner, o);
        DataBridgeReport.write(dir, "DataBridge simulated: " + p.near() + " client, home " + p.home() + " (seed "
                + p.seed() + ")", all, plot);
        o.printf(Locale.ROOT, "%nwrote %s%n", dir.toAbsolutePath());
        return all;
    }
}
