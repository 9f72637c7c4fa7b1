package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.gc.GcNodes;
import geoblocks.sim.gc.GcStep;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.NetworkSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Block collection while uploads and moves fail, with the real nodes: the four regions of SPEC.md,
 * each with a client machine that from 6 s to 40 s puts (acknowledged by all replicas or the first),
 * creates-if-absent names others may hold (refused creates), abandons uploads part way (its
 * coordinator's upload expires with blocks written) and moves its files to other regions. A
 * partition (1|3 or 2|2 regions, chosen by the seed) cuts the cluster for 6 to 9 s, failing the
 * uploads and moves that cross it; one region's node (chosen by the seed) is killed while it
 * coordinates the move of a 40-block file and started again a few seconds later, from what its
 * metadata engine and block store kept. Every node collects with a 20 s grace and sweeps every 5 s.
 * At 115 s a probe judges every block on every node ({@link geoblocks.sim.gc.GcProbeHost}); from
 * 116 s every client downloads each version it was acknowledged at the next region. Everything
 * follows from the seed. {@link #run} returns what, if anything, was leaked or lost.
 */
public final class GcUnderFaults {
    static final String[] REGIONS = {"seoul", "dublin", "saopaulo", "mumbai"};
    static final long GRACE_MS = 20_000;
    static final long INTERVAL_MS = 5_000;
    static final long START_MS = 6_000;
    static final long STOP_MS = 40_000;
    static final long CHECK_AT_MS = 115_000;
    static final long VERIFY_AT_MS = 116_000;
    static final long END_MS = 145_000;
    /** Blocks of the file whose move the restart interrupts. */
    static final int BIG_BLOCKS = 40;
    static final String[] POLICIES = {"local", "localclosest", "tworandom", "random", "localclosest3"};

    private GcUnderFaults() {}

    /** What the seed breaks: a partition, and the node killed mid-move and when it comes back. */
    public record Faults(long cutFromMs, long cutToMs, Set<String> sideA, Set<String> sideB, String restarted,
            long killMs, long restartMs, List<String> bigTargets) {}

    public static Faults faults(long seed) {
        Random r = new Random(seed ^ 0x6C0FFEEL);
        long from = 10_000 + r.nextInt(2_000);
        long to = from + 6_000 + r.nextInt(3_000);
        List<String> order = new ArrayList<>(List.of(REGIONS));
        Collections.shuffle(order, r);
        int k = 1 + r.nextInt(2);
        String restarted = REGIONS[r.nextInt(REGIONS.length)];
        long kill = 27_000 + r.nextInt(2_000);
        long back = kill + 4_000 + r.nextInt(3_000);
        List<String> others = new ArrayList<>(List.of(REGIONS));
        others.remove(restarted);
        Collections.shuffle(others, r);
        return new Faults(from, to, new TreeSet<>(order.subList(0, k)), new TreeSet<>(order.subList(k, order.size())),
                restarted, kill, back, List.copyOf(others.subList(0, 2)));
    }

    /** The name whose move the restart interrupts. */
    static String big(Faults f) {
        return "big/" + f.restarted();
    }

    /** The script of the client in region {@code index}. */
    static List<GcStep> script(long seed, int index) {
        Random r = new Random(seed * 31 + index);
        String region = REGIONS[index];
        List<GcStep> steps = new ArrayList<>();
        List<String> mine = new ArrayList<>();
        long think = START_MS + r.nextInt(2000);
        for (long t = think; t < STOP_MS; t += think) {
            int dice = r.nextInt(100);
            String policy = POLICIES[r.nextInt(POLICIES.length)];
            String ack = r.nextInt(5) == 0 ? "local" : "all";
            int size = 1 + r.nextInt(3 * GcNodes.BLOCK);
            if (dice < 40 || mine.isEmpty()) {
                String name = "g/" + region + "/" + r.nextInt(6);
                mine.add(name);
                steps.add(new GcStep(GcStep.Kind.PUT, name, policy, ack, size, r.nextLong(), 0, List.of(), think));
            } else if (dice < 55) {
                steps.add(new GcStep(GcStep.Kind.CREATE, "s/" + r.nextInt(4), "tworandom", "all", size, r.nextLong(), 0,
                        List.of(), think));
            } else if (dice < 70) {
                int n = 2 * GcNodes.BLOCK + r.nextInt(2 * GcNodes.BLOCK);
                steps.add(new GcStep(GcStep.Kind.ABANDON, "g/" + region + "/a" + r.nextInt(3), policy, "all", n,
                        r.nextLong(), GcNodes.BLOCK + r.nextInt(n - GcNodes.BLOCK), List.of(), think));
            } else {
                List<String> targets = new ArrayList<>(List.of(REGIONS));
                Collections.shuffle(targets, r);
                steps.add(new GcStep(GcStep.Kind.MOVE, mine.get(r.nextInt(mine.size())), "", "", 0, 0, 0,
                        targets.subList(0, 1 + r.nextInt(2)), think));
            }
            think = 300 + r.nextInt(2500);
        }
        return steps;
    }

    /** The mover of the restarted region: puts the big file at 6 s, moves it shortly before its node is killed. */
    static List<GcStep> moverScript(long seed, Faults f) {
        return List.of(
                new GcStep(GcStep.Kind.PUT, big(f), "local", "all", BIG_BLOCKS * GcNodes.BLOCK, seed * 7919, 0, List.of(),
                        START_MS),
                new GcStep(GcStep.Kind.MOVE, big(f), "", "", 0, 0, 0, f.bigTargets(), f.killMs() - 1_500 - START_MS - 2_000));
    }

    static SimPlan plan(long seed) {
        Faults f = faults(seed);
        Map<String, String> regions = new LinkedHashMap<>();
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults());
        for (int i = 0; i < REGIONS.length; i++) {
            regions.put(REGIONS[i], "10.0." + i + ".1:47000");
            net.host("10.0." + i + ".1", REGIONS[i]).host("10.0." + i + ".100", REGIONS[i])
                    .host("10.0." + i + ".101", REGIONS[i]);
        }
        net.host("10.0.0.200", "seoul");
        net.partition(f.cutFromMs(), f.cutToMs(), f.sideA(), f.sideB());
        List<NodePlan> nodes = new ArrayList<>();
        for (int i = 0; i < REGIONS.length; i++) {
            nodes.add(new NodePlan(REGIONS[i], 0, "10.0." + i + ".1", 47000,
                    new GcNodes.Node(REGIONS[i], regions, seed * 7 + i, GRACE_MS, INTERVAL_MS)));
        }
        for (int i = 0; i < REGIONS.length; i++) {
            nodes.add(new NodePlan("client-" + REGIONS[i], 0, "10.0." + i + ".100", 48000,
                    new GcNodes.Client(REGIONS[i], regions, script(seed, i), STOP_MS, VERIFY_AT_MS)));
        }
        int k = List.of(REGIONS).indexOf(f.restarted());
        nodes.add(new NodePlan("mover", 0, "10.0." + k + ".101", 48000,
                new GcNodes.Client(f.restarted(), regions, moverScript(seed, f), STOP_MS, VERIFY_AT_MS)));
        nodes.add(new NodePlan("probe", 0, "10.0.0.200", 49000, new GcNodes.Probe(regions, CHECK_AT_MS, GRACE_MS, List.of(big(f)))));
        return new SimPlan(seed, net.build(), nodes, END_MS, 10_000,
                List.of(new SimPlan.Restart(f.restarted(), f.killMs(), f.restartMs())));
    }

    /**
     * What one seed did: acknowledged writes and how many failed, moves tried and finished, blocks
     * every node's collector deleted, and the violations (empty when nothing was leaked or lost and
     * the interrupted move completed everywhere).
     */
    public record Report(long seed, Faults faults, int acked, int failedWrites, int moves, int movesOk,
            long collectedBlocks, List<String> violations, List<String> records) {
        public boolean ok() {
            return violations.isEmpty();
        }
    }

    /** Runs the scenario for {@code seed} (deterministic) and checks it. */
    public static Report run(long seed) {
        SimResult r = SimRunner.run(plan(seed));
        Faults f = faults(seed);
        List<String> violations = new ArrayList<>();
        r.faults().forEach(x -> violations.add("component fault: " + x));
        int acked = 0;
        int failed = 0;
        int moves = 0;
        int movesOk = 0;
        long collected = 0;
        int nodes = 0;
        int verified = 0;
        int passes = 0;
        Map<String, String> moved = new LinkedHashMap<>();
        for (String line : r.extra()) {
            String[] p = line.split("\\|", -1);
            switch (p[0]) {
                case "W" -> {
                    if (p[4].equals("ok")) {
                        acked++;
                    } else {
                        failed++;
                    }
                }
                case "M" -> {
                    moves++;
                    movesOk += p[4].equals("ok") ? 1 : 0;
                }
                case "G" -> {
                    verified++;
                    if (!p[4].equals("true")) {
                        violations.add("acknowledged version " + p[3] + " of '" + p[2] + "' (written at " + p[1]
                                + ") is not readable: " + p[5]);
                    }
                }
                case "L" -> violations.add("leaked at " + p[1] + ": " + p[2] + ", " + p[3] + " ms old, reference " + p[4]);
                case "X" -> violations.add("missing at " + p[1] + ": " + p[2] + " of '" + p[3] + "'");
                case "E" -> violations.add("probe: " + p[1]);
                case "C" -> collected += Long.parseLong(p[2]);
                case "N" -> nodes++;
                case "V" -> moved.put(p[1], p[3] + "|" + p[4]);
                case "S" -> passes += Long.parseLong(p[3]) > 0 ? 1 : 0;
                default -> { }
            }
        }
        if (nodes != REGIONS.length) {
            violations.add("the probe judged " + nodes + " nodes, not " + REGIONS.length);
        }
        if (passes != REGIONS.length) {
            violations.add("only " + passes + " of " + REGIONS.length + " nodes finished a collection pass");
        }
        if (verified != acked) {
            violations.add(verified + " of " + acked + " acknowledged versions were read back");
        }
        String want = String.join(",", f.bigTargets());
        for (String region : REGIONS) {
            String got = moved.get(region);
            if (got == null || got.startsWith("0|") || !got.endsWith("|" + want)) {
                violations.add("the move of '" + big(f) + "' to " + want + " interrupted by " + f.restarted()
                        + "'s restart is not complete at " + region + ": epoch|replicas " + got);
            }
        }
        return new Report(seed, f, acked, failed, moves, movesOk, collected, List.copyOf(violations), r.extra());
    }
}
