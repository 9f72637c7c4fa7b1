package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.consistency.ConsistencyCheck;
import geoblocks.sim.consistency.ConsistencyNodes;
import geoblocks.sim.consistency.PorcupineHistory;
import geoblocks.sim.consistency.Step;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.NetworkSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Concurrent writers and a partition, with the real nodes: the four regions of SPEC.md, each with
 * a wall clock off by up to 2 s and a client machine that, from 6 s to 50 s, puts (overwrites),
 * deletes and reads three shared names, and creates-if-absent (and reads) a new name every 6 s
 * that all clients race for, a few seconds apart.
 * Between about 12 and 45 s a partition (1|3 or 2|2 regions, chosen by the seed) cuts the regions
 * apart for 12 to 25 s. From 75 s every client downloads each version it was acknowledged at the
 * next region; at 95 s a probe records every node's versions. Everything follows from
 * the seed. {@link ConsistencyCheck} then says what, if anything, broke the consistency model.
 */
public final class Consistency {
    static final String[] REGIONS = {"seoul", "dublin", "saopaulo", "mumbai"};
    static final List<String> SHARED = List.of("f/0", "f/1", "f/2");
    /** Create-if-absent names: one per window of this many ms of script time, so the clients race for each. */
    static final long CREATE_WINDOW_MS = 6_000;
    static final long START_MS = 6_000;
    static final long STOP_WRITES_MS = 50_000;
    static final long VERIFY_AT_MS = 75_000;
    static final long PROBE_AT_MS = 95_000;
    /**
     * Retention of the main run (nothing is dropped) and of the retention run (everything superseded
     * is): 5 s, so that 5 s + the tombstone grace (12 s: 3 anti-entropy rounds of 1 s over 4 regions)
     * is shorter than the longer partitions (up to 25 s), and a delete made early in one would be
     * forgotten before it heals if acknowledgements did not hold the tombstone back.
     */
    static final long KEEP_MS = 3_600_000;
    static final long SHORT_RETENTION_MS = 5_000;
    /** The retention run's first probe: versions superseded by the last writes are still kept then. */
    static final long RETENTION_FIRST_PROBE_AT_MS = STOP_WRITES_MS + 2_000;
    /** The retention run's final probe: after the last write + the retention + the grace + clock offsets. */
    static final long RETENTION_PROBE_AT_MS = 110_000;
    /** Largest file: up to three blocks of {@link ConsistencyNodes#BLOCK}. */
    static final int SIZE = 3 * (32 << 10);
    static final String[] POLICIES = {"local", "local", "localclosest", "tworandom", "random"};

    private Consistency() {}

    /** The partition a seed chooses: when and which regions are cut apart. */
    public record Cut(long fromMs, long toMs, Set<String> sideA, Set<String> sideB) {}

    public static Cut cut(long seed) {
        Random r = new Random(seed ^ 0x5A17L);
        long from = 12_000 + r.nextInt(8_000);
        long to = from + 12_000 + r.nextInt(13_000);
        List<String> order = new ArrayList<>(List.of(REGIONS));
        Collections.shuffle(order, r);
        int k = 1 + r.nextInt(2);
        return new Cut(from, to, new TreeSet<>(order.subList(0, k)), new TreeSet<>(order.subList(k, order.size())));
    }

    /** The script of the client in region {@code index}. */
    static List<Step> script(long seed, int index) {
        Random r = new Random(seed * 31 + index);
        List<Step> steps = new ArrayList<>();
        long think = START_MS + r.nextInt(2000); // the first step waits from the client's start
        for (long t = think; t < STOP_WRITES_MS; t += think) { // the host stops writing at STOP_WRITES_MS anyway
            int dice = r.nextInt(100);
            String shared = SHARED.get(r.nextInt(SHARED.size()));
            String created = "c/" + (t / CREATE_WINDOW_MS + (r.nextInt(4) == 0 ? -1 : 0)); // now and then an older one
            Step.Kind kind = dice < 45 ? Step.Kind.PUT : dice < 60 ? Step.Kind.DELETE : dice < 85 ? Step.Kind.CREATE : Step.Kind.READ;
            String name = kind == Step.Kind.PUT || kind == Step.Kind.DELETE ? shared : created;
            steps.add(new Step(kind, name, POLICIES[r.nextInt(POLICIES.length)], 1 + r.nextInt(SIZE), r.nextLong(), think));
            think = 500 + r.nextInt(3500);
        }
        return steps;
    }

    /**
     * The retention run's script of {@code region}'s client: first a put of {@code d/REGION} (before
     * any partition), then the usual steps, with a delete of that name among them from about one
     * second into the partition (by the steps' think times; the steps themselves take time, so it
     * may come later). Nobody writes the name again, so it must end up absent everywhere: a region
     * that forgot the tombstone while the other side of the partition still held the put would get
     * the put back when the partition heals.
     */
    static List<Step> withDeleteInCut(List<Step> steps, String region, long cutFromMs) {
        String name = "d/" + region;
        List<Step> out = new ArrayList<>();
        out.add(new Step(Step.Kind.PUT, name, "tworandom", 4096, name.hashCode(), steps.get(0).thinkMs()));
        long at = steps.get(0).thinkMs();
        boolean deleted = false;
        for (int i = 0; i < steps.size(); i++) {
            Step st = steps.get(i);
            long think = i == 0 ? 500 : st.thinkMs();
            at += think;
            if (!deleted && at >= cutFromMs + 1_000) {
                out.add(new Step(Step.Kind.DELETE, name, "", 0, 0, think));
                think = 300;
                deleted = true;
            }
            out.add(new Step(st.kind(), st.name(), st.policy(), st.size(), st.key(), think));
        }
        return out;
    }

    static SimPlan plan(long seed) {
        return plan(seed, false);
    }

    /**
     * The plan of a seed; with {@code retention} the nodes keep superseded versions only 5 s (and a
     * lone tombstone until every region acknowledged it, the 5 s passed and the grace after), each
     * client deletes a name of its own during the partition ({@link #withDeleteInCut}), nobody
     * verifies old versions, and a first probe at 52 s records what the retention then drops by the
     * final probe at 110 s.
     */
    static SimPlan plan(long seed, boolean retention) {
        Random r = new Random(seed);
        Map<String, String> regions = new LinkedHashMap<>();
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults());
        for (int i = 0; i < REGIONS.length; i++) {
            regions.put(REGIONS[i], "10.0." + i + ".1:47000");
            net.host("10.0." + i + ".1", REGIONS[i]).host("10.0." + i + ".100", REGIONS[i]);
        }
        net.host("10.0.0.200", "seoul");
        Cut c = cut(seed);
        net.partition(c.fromMs(), c.toMs(), c.sideA(), c.sideB());
        List<NodePlan> nodes = new ArrayList<>();
        for (int i = 0; i < REGIONS.length; i++) {
            long offset = r.nextInt(4001) - 2000;
            nodes.add(new NodePlan(REGIONS[i], 0, "10.0." + i + ".1", 47000,
                    new ConsistencyNodes.Node(REGIONS[i], regions, seed * 7 + i, offset,
                            retention ? SHORT_RETENTION_MS : KEEP_MS)));
        }
        for (int i = 0; i < REGIONS.length; i++) {
            nodes.add(new NodePlan("client-" + REGIONS[i], 0, "10.0." + i + ".100", 48000,
                    new ConsistencyNodes.Client(REGIONS[i], regions,
                            retention ? withDeleteInCut(script(seed, i), REGIONS[i], c.fromMs()) : script(seed, i),
                            STOP_WRITES_MS,
                            retention ? Long.MAX_VALUE : VERIFY_AT_MS)));
        }
        nodes.add(new NodePlan("probe", 0, "10.0.0.200", 49000, new ConsistencyNodes.Probe(
                retention ? List.of(RETENTION_FIRST_PROBE_AT_MS, RETENTION_PROBE_AT_MS) : List.of(PROBE_AT_MS))));
        return new SimPlan(seed, net.build(), nodes, (retention ? RETENTION_PROBE_AT_MS : PROBE_AT_MS) + 1_000, 10_000);
    }

    /**
     * {@code simulate consistency --seed S --seeds N --out DIR}: runs seeds S..S+N-1, prints one
     * line per failed seed and a summary, and writes DIR/violations.txt and DIR/histories.jsonl
     * (the create-if-absent histories for scripts/porcupine/check.sh). Returns 1 when a seed failed.
     */
    public static int runCli(Path dir, long first, int count, PrintStream o) throws IOException {
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        int failed = 0;
        long acked = 0;
        long creates = 0;
        long during = 0;
        int both = 0;
        try (BufferedWriter histories = Files.newBufferedWriter(dir.resolve("histories.jsonl"));
                BufferedWriter violations = Files.newBufferedWriter(dir.resolve("violations.txt"))) {
            for (long seed = first; seed < first + count; seed++) {
                ConsistencyCheck.Report r = run(seed);
                for (String line : PorcupineHistory.lines(r, List.of(REGIONS))) {
                    histories.write(line);
                    histories.newLine();
                }
                if (!r.ok()) {
                    failed++;
                    o.println("seed " + seed + " FAILED: " + r.violations());
                    violations.write("seed " + seed + ": " + r.violations());
                    violations.newLine();
                }
                acked += r.writes().stream().filter(w -> w.outcome().equals("ok")).count();
                creates += r.writes().stream().filter(w -> w.kind().equals("CREATE") && w.outcome().equals("ok")).count();
                during += r.writesDuringCut();
                both += r.regionsWritingDuringCut().size() == 2 ? 1 : 0;
                if ((seed - first + 1) % 100 == 0) {
                    o.printf(Locale.ROOT, "  %d seeds, %d failed, %.0f s%n", seed - first + 1, failed, (System.nanoTime() - t0) / 1e9);
                }
            }
        }
        o.printf(Locale.ROOT, "consistency: seeds %d..%d: %d failed; %d acknowledged writes (%d creates), %d during"
                + " partitions, %d seeds with writes on both sides; %.0f s wall; wrote %s%n", first, first + count - 1,
                failed, acked, creates, during, both, (System.nanoTime() - t0) / 1e9, dir.toAbsolutePath());
        return failed == 0 ? 0 : 1;
    }

    /** Runs the scenario for {@code seed} (deterministic) and checks it. */
    public static ConsistencyCheck.Report run(long seed) {
        return run(seed, false);
    }

    /** Runs the scenario, or its retention variant, for {@code seed} and checks it. */
    public static ConsistencyCheck.Report run(long seed, boolean retention) {
        SimResult r = SimRunner.run(plan(seed, retention));
        Cut c = cut(seed);
        return ConsistencyCheck.check(seed, List.of(REGIONS), r.extra(), r.faults(), c.fromMs(), c.toMs(), c.sideA(),
                retention);
    }
}
