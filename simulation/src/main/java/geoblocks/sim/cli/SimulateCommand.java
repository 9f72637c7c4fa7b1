package geoblocks.sim.cli;

import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.scenario.BackgroundVsForeground;
import geoblocks.sim.ledbat.LedbatOptions;
import geoblocks.sim.scenario.Compression;
import geoblocks.sim.scenario.Consistency;
import geoblocks.sim.scenario.DataBridge;
import geoblocks.sim.scenario.FloodedServer;
import geoblocks.sim.scenario.HedgedReads;
import geoblocks.sim.scenario.LedbatFairness;
import geoblocks.sim.scenario.LedbatMetrics;
import geoblocks.sim.scenario.LedbatOnePeer;
import geoblocks.sim.scenario.LedbatVsTcp;
import geoblocks.sim.scenario.Placement;
import geoblocks.sim.scenario.PlacementCapacity;
import geoblocks.sim.scenario.StorageFaults;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code node.jar simulate NAME [--seed N] [--out DIR] [options]}: runs a simulator scenario, writes
 * its CSV files and PNG plots into the output directory and prints a summary table. The same seed
 * gives byte-identical CSV files (compression: with {@code --codec-speeds}; otherwise it measures the
 * codecs on this machine first).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a simulator scenario: ledbat-vs-tcp, ledbat-fairness, ledbat-one-peer, placement,",
            "placement-capacity, background-vs-foreground, consistency, storage-faults, hedged-reads, flooded-server,",
            "databridge, compression. Writes CSV files and PNG plots to --out and prints a summary."})
public final class SimulateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "scenario: ledbat-vs-tcp | ledbat-fairness | ledbat-one-peer"
            + " | placement | placement-capacity | background-vs-foreground | consistency | storage-faults | hedged-reads"
            + " | flooded-server"
            + " | databridge | compression")
    String name;

    @Option(names = "--seed", description = "random seed (default ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--out", description = "output directory (default sim-out/NAME)")
    Path out;

    @Option(names = "--rate-mbps", description = "bottleneck capacity in Mbit/s (default ${DEFAULT-VALUE})")
    double rateMbps = 10;

    @Option(names = "--buffer-ms", description = "bottleneck buffer, in ms at full rate"
            + " (default 400 for ledbat-vs-tcp: above 2 x target + RTT, as the real-link script; 200 for ledbat-fairness)")
    Double bufferMs;

    @Option(names = "--from", description = "sending region (default ${DEFAULT-VALUE})")
    String from = "dublin";

    @Option(names = "--to", description = "receiving region (default ${DEFAULT-VALUE})")
    String to = "mumbai";

    @Option(names = "--rtt-ms", description = "ledbat-vs-tcp, background-vs-foreground: an explicit path of this base RTT in ms (0..10000) between"
            + " --from and --to, instead of the RTT matrix's")
    Double rttMs;

    @Option(names = "--ledbat-start-s", description = "ledbat-vs-tcp: start LEDBAT this many seconds in (default ${DEFAULT-VALUE})")
    double ledbatStartS = 0;

    @Option(names = "--udp-overhead-bytes", description = "ledbat-vs-tcp: bytes each UDP (LEDBAT) packet takes on the"
            + " bottleneck beyond its message, e.g. 73 for Ethernet + IP + UDP + GeoNetwork's seal (default ${DEFAULT-VALUE})")
    int udpOverheadBytes = 0;

    @Option(names = "--tcp-overhead-bytes", description = "ledbat-vs-tcp: bytes each TCP packet takes beyond its IP and TCP"
            + " headers, e.g. 14 for Ethernet (default ${DEFAULT-VALUE})")
    int tcpOverheadBytes = 0;

    @Option(names = "--target-ms", description = "LEDBAT target queuing delay in ms, 1..100 (default ${DEFAULT-VALUE})")
    int targetMs = 100;

    @Option(names = "--mode", description = "LEDBAT controller: rfc6817 | ledbat++ (default ${DEFAULT-VALUE})")
    String mode = "rfc6817";

    @Option(names = "--ledbat", paramLabel = "KEY=VALUE",
            description = "any other geoblocks.ledbat setting, e.g. multiplicative-decrease=false (repeatable)")
    Map<String, String> ledbatExtra = new TreeMap<>();

    @Option(names = "--ledbat-flows", description = "parallel LEDBAT flows (ledbat-one-peer: streams to the one peer; default ${DEFAULT-VALUE})")
    int ledbatFlows = 1;

    @Option(names = "--block-bytes", description = "ledbat-one-peer: each stream slot sends blocks of this many bytes,"
            + " one stream per block (0 = endless streams; default ${DEFAULT-VALUE})")
    int blockBytes = 0;

    @Option(names = "--tcp-start", description = "ledbat-vs-tcp: TCP start in s (default ${DEFAULT-VALUE})")
    double tcpStart = 14;

    @Option(names = "--tcp-stop", description = "ledbat-vs-tcp: TCP stop in s (default ${DEFAULT-VALUE})")
    double tcpStop = 24;

    @Option(names = "--tcp", description = "ledbat-vs-tcp: TCP reno | cubic (RFC 8312) | linux-cubic (Linux 6.x: HyStart,"
            + " MSS 1448, delayed ACKs, SYN exchange, 200 ms minimum RTO) (default ${DEFAULT-VALUE})")
    String tcp = "reno";

    @Option(names = "--jitter-ms", description = "ledbat-vs-tcp: random extra one-way delay, |N(0, sigma)| ms (default ${DEFAULT-VALUE})")
    double jitterMs = 0;

    @Option(names = "--loss", description = "ledbat-vs-tcp: random loss probability per packet (default ${DEFAULT-VALUE})")
    double loss = 0;

    @Option(names = "--duration", description = "simulated seconds (default 30 for ledbat-vs-tcp, 60 for ledbat-fairness and ledbat-one-peer)")
    Double duration;

    @Option(names = "--flows", description = "ledbat-fairness: number of LEDBAT flows (default ${DEFAULT-VALUE})")
    int flows = 4;

    @Option(names = "--stagger-s", description = "ledbat-fairness: seconds between staggered starts (default ${DEFAULT-VALUE})")
    double staggerS = 10;

    @Option(names = "--upload-site", description = "placement: upload site (default: SPEC experiments 1 and 2)")
    String uploadSite;

    @Option(names = "--download-site", description = "placement: download site (default: SPEC experiments 1 and 2)")
    String downloadSite;

    @Option(names = "--runs", description = "placement: runs with different seeds (default ${DEFAULT-VALUE})")
    int runs = 3;

    @Option(names = "--files", description = "placement: files per policy and block size (default 10);"
            + " placement-capacity: files uploaded per policy (default 80)")
    Integer files;

    @Option(names = "--policies", split = ",", paramLabel = "NAME[,NAME...]",
            description = "placement, placement-capacity: policies to compare, any the nodes know (default: the five seeds;"
                    + " placement-capacity adds balanced)")
    List<String> policies;

    @Option(names = "--config", paramLabel = "FILE",
            description = "placement, placement-capacity: HOCON with geoblocks.placement (declarative policies, zones,"
                    + " custom classes, balanced settings) for every simulated node")
    Path config;

    @CommandLine.Mixin
    BackgroundVsForegroundOptions bgfg = new BackgroundVsForegroundOptions();

    @CommandLine.Mixin
    ReadsOptions reads = new ReadsOptions();

    @CommandLine.Mixin
    DataBridgeOptions databridge = new DataBridgeOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--seeds", description = "consistency, storage-faults: seeds to run, from --seed on (default ${DEFAULT-VALUE})")
    int seeds = 1;

    @Option(names = "--no-plot", description = "skip the PNG plots")
    boolean noPlot;

    /** Standalone entry point (the same command as {@code node.jar simulate}). */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SimulateCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path dir = out != null ? out : Path.of("sim-out", name);
        PrintStream o = System.out;
        switch (name) {
            case "ledbat-vs-tcp" -> ledbatVsTcp(dir, o);
            case "ledbat-fairness" -> LedbatFairness.runCli(dir, fairnessParams(), !noPlot, o);
            case "ledbat-one-peer" -> LedbatOnePeer.runCli(dir, new LedbatOnePeer.Params(seed, rateMbps, from, to,
                    bufferMs == null ? 400 : bufferMs, new LedbatOptions(targetMs, mode, true, ledbatExtra), ledbatFlows,
                    blockBytes, 20, duration == null ? 60 : duration), o);
            case "placement" -> Placement.runCli(dir, placementParams(), !noPlot, o);
            case "background-vs-foreground" -> BackgroundVsForeground.runCli(dir, bgfg.params(this), !noPlot, o,
                    plan -> run(plan, o));
            case "placement-capacity" -> PlacementCapacity.runCli(dir, capacityParams(), !noPlot, o);
            case "hedged-reads" -> HedgedReads.runCli(dir, reads.hedged(seed), !noPlot, o);
            case "flooded-server" -> FloodedServer.runCli(dir, reads.flooded(seed), !noPlot, o);
            case "compression" -> Compression.runCli(dir, compressionParams(), !noPlot, o);
            case "databridge" -> DataBridge.runCli(dir, databridge.params(this), !noPlot, o, plan -> run(plan, o));
            case "storage-faults" -> {
                return StorageFaults.runCli(seed, seeds, o);
            }
            case "consistency" -> {
                return Consistency.runCli(dir, seed, seeds, o);
            }
            default -> throw new IllegalArgumentException("unknown scenario '" + name + "'; known: ledbat-vs-tcp,"
                    + " ledbat-fairness, ledbat-one-peer, placement, placement-capacity, background-vs-foreground,"
                    + " consistency, storage-faults, hedged-reads, flooded-server, databridge, compression");
        }
        return 0;
    }

    private Placement.Params placementParams() throws IOException {
        Placement.Params spec = Placement.Params.spec(seed);
        List<Placement.Experiment> exps = spec.experiments();
        if (uploadSite != null || downloadSite != null) {
            String up = uploadSite != null ? uploadSite : "seoul";
            String down = downloadSite != null ? downloadSite : up;
            exps = List.of(new Placement.Experiment(up + "-" + down, up, down));
        }
        return new Placement.Params(seed, exps, runs, files != null ? files : 10, spec.fileBytes(), spec.blockSizes(),
                policies != null ? policies : spec.policies(), placementConf());
    }

    @Option(names = "--codec-speeds", paramLabel = "CSV",
            description = "compression: codec speeds (a codec_speeds.csv of an earlier run) instead of measuring them,"
                    + " for byte-identical results")
    Path codecSpeeds;

    private Compression.Params compressionParams() throws IOException {
        Compression.Params spec = Compression.Params.spec(seed);
        List<Compression.Speed> speeds = null;
        if (codecSpeeds != null) {
            speeds = new ArrayList<>();
            List<String> lines = Files.readAllLines(codecSpeeds);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split(",");
                if (f.length != 4) {
                    throw new IllegalArgumentException(codecSpeeds + ": expected content,mode,compress_mbps,decompress_mbps,"
                            + " got '" + line + "'");
                }
                speeds.add(new Compression.Speed(f[0], f[1], Double.parseDouble(f[2]),
                        Double.parseDouble(f[3])));
            }
        }
        return new Compression.Params(seed, spec.linksMbps(), spec.sizes(), spec.modes(),
                spec.blockSize(), speeds);
    }

    private PlacementCapacity.Params capacityParams() throws IOException {
        PlacementCapacity.Params d = PlacementCapacity.Params.defaults(seed);
        return new PlacementCapacity.Params(seed, policies != null ? policies : d.policies(), files != null ? files : d.files(),
                d.fileBytes(), d.blockBytes(), d.capacities(), d.reserveBytes(), placementConf());
    }

    /** The --config file's text ("" without one); a bad policy is refused before anything runs. */
    private String placementConf() throws IOException {
        if (config == null) {
            return "";
        }
        if (!Files.isRegularFile(config)) {
            throw new IllegalArgumentException("config file " + config + " does not exist");
        }
        return Files.readString(config);
    }

    private LedbatFairness.Params fairnessParams() {
        return new LedbatFairness.Params(seed, rateMbps, from, to, bufferMs == null ? 200 : bufferMs, new LedbatOptions(targetMs, mode, true, ledbatExtra),
                flows, staggerS, duration == null ? 60 : duration);
    }

    private void ledbatVsTcp(Path dir, PrintStream o) throws Exception {
        LedbatVsTcp.Params p = new LedbatVsTcp.Params(seed, rateMbps, from, to, bufferMs == null ? 400 : bufferMs,
                new LedbatOptions(targetMs, mode, true, ledbatExtra), ledbatFlows, tcpStart, tcpStop,
                duration == null ? 30 : duration, tcp, jitterMs, loss, rttMs == null ? Double.NaN : rttMs, ledbatStartS,
                udpOverheadBytes, tcpOverheadBytes);
        o.printf(Locale.ROOT, "ledbat-vs-tcp: %.0f Mbit/s %s->%s (RTT %.1f ms), buffer %.0f ms, LEDBAT %s target %d ms x%d,"
                + " TCP %s %.1f-%.1f s, %.0f s simulated, seed %d%n", p.rateMbps(), p.from(), p.to(), p.baseRttMs(),
                p.bufferMs(), mode, targetMs, ledbatFlows, tcp, tcpStart, tcpStop, p.durationS(), seed);
        SimResult r = run(LedbatVsTcp.plan(p), o);
        LedbatMetrics m = LedbatVsTcp.metrics(p, r);
        LedbatVsTcp.write(dir, p, r, m, !noPlot);
        printTable(o, LedbatVsTcp.summaryRows(p, m, r));
        o.printf(Locale.ROOT, "wall time %.1f s; wrote %s%n", r.wallMs() / 1000.0, dir.toAbsolutePath());
    }

    /** True when the command line gave {@code option} (so a scenario may use its own default otherwise). */
    boolean given(String option) {
        return spec != null && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /** Runs a plan, printing progress, and fails if a simulated component faulted. */
    public static SimResult run(SimPlan plan, PrintStream o) {
        o.print("simulating " + plan.durationMs() / 1000 + " s:");
        o.flush();
        System.setProperty("geoblocks.sim.progress", "true");
        SimResult r = SimRunner.run(plan);
        o.printf(Locale.ROOT, "  done (%.1f s wall)%n", r.wallMs() / 1000.0);
        if (!r.faults().isEmpty()) {
            throw new IllegalStateException("simulated component failed: " + r.faults().get(0));
        }
        return r;
    }

    /** Prints metric,value rows as an aligned two-column table. */
    public static void printTable(PrintStream o, List<String> rows) {
        int w = rows.stream().mapToInt(r -> r.indexOf(',')).max().orElse(10);
        o.println();
        for (String r : rows) {
            int c = r.indexOf(',');
            String v = r.substring(c + 1);
            o.printf(Locale.ROOT, "  %-" + w + "s  %s%n", r.substring(0, c), v.isEmpty() ? "n/a (not reached)" : v);
        }
        o.println();
    }
}
