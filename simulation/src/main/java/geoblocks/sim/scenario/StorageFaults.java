package geoblocks.sim.scenario;

import geoblocks.sim.consistency.ConsistencyCheck;
import geoblocks.sim.consistency.ConsistencyNodes;
import geoblocks.sim.consistency.StorageFaultNodes;
import geoblocks.sim.faults.FaultSchedule;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The consistency scenario ({@link Consistency}: the same clients, scripts, clock offsets and
 * partition) with every node on a faulty disk ({@link geoblocks.sim.faults.Disks}), at times drawn
 * from the seed: one node's metadata syncs fail for 2 to 8 s; two nodes lose power and start again
 * 3 to 8 s later (their unsynced metadata writes are lost, block deletions of the last 2 s may come
 * back, blocks put in the last second may be torn), in every other seed the first of them the node
 * whose syncs fail, while they do (so it loses what it wrote since they began); one node's block
 * disk is full for 3 to 10 s, and 4 to 8 bits flip in stored blocks between 8 and 70 s. Nodes
 * scrub every 5 s. Then {@link ConsistencyCheck} must find every acknowledged write kept everywhere and readable byte for
 * byte, and this scenario adds: a node that lost power kept, in its own metadata, every write it
 * had acknowledged before (its peers would otherwise hide such a loss by anti-entropy), no damaged
 * block is left where a kept version names it and none is missing there (redundancy is restored), a
 * node whose syncs failed for 2 s or more said so (a storage fault in its status, so not ready), and
 * no node still says so at the end (it recovered).
 */
public final class StorageFaults {
    static final long FAULTS_FROM_MS = 8_000;
    static final long FLIPS_TO_MS = 70_000;
    /**
     * The clients give up on their node after 10 s without a word from it (Consistency's: 60 s), so
     * that a client whose node lost power with its request goes on with its script once the node is
     * back, instead of waiting out the writes.
     */
    static final long CLIENT_TIMEOUT_MS = 10_000;
    /**
     * Syncs that failed this long before one worked again must show in the node's status: it
     * publishes a snapshot about once a second (a shorter run of failures may fall between two).
     */
    static final long REPORT_WITHIN_MS = 2_000;

    private StorageFaults() {}

    /** The faults of a seed. */
    public static FaultSchedule schedule(long seed) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L + 0x5F0L);
        List<String> order = new ArrayList<>(List.of(Consistency.REGIONS));
        Collections.shuffle(order, r);
        long syncFrom = FAULTS_FROM_MS + r.nextInt(40_000);
        FaultSchedule.Window sync = new FaultSchedule.Window(order.get(0), syncFrom, syncFrom + 2_000 + r.nextInt(6_000));
        List<FaultSchedule.Crash> crashes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            // every other seed, the node whose syncs fail loses power while they do: what it wrote since is lost
            boolean inWindow = i == 0 && r.nextBoolean();
            long kill = inWindow ? sync.fromMs() + 500 + r.nextInt((int) (sync.toMs() - sync.fromMs() - 500))
                    : FAULTS_FROM_MS + r.nextInt(37_000);
            crashes.add(new FaultSchedule.Crash(order.get(inWindow ? 0 : i + 1), kill, kill + 3_000 + r.nextInt(5_000)));
        }
        long fullFrom = FAULTS_FROM_MS + r.nextInt(40_000);
        FaultSchedule.Window full = new FaultSchedule.Window(Consistency.REGIONS[r.nextInt(Consistency.REGIONS.length)],
                fullFrom, fullFrom + 3_000 + r.nextInt(7_000));
        List<Long> flips = new ArrayList<>();
        int n = 4 + r.nextInt(5);
        for (int i = 0; i < n; i++) {
            flips.add(FAULTS_FROM_MS + (long) r.nextInt((int) (FLIPS_TO_MS - FAULTS_FROM_MS)));
        }
        Collections.sort(flips);
        return new FaultSchedule(crashes, List.of(sync), List.of(full), flips, r.nextLong(), false);
    }

    /** Consistency's plan of the seed, its nodes on faulty disks, its crashes, and the fault probe. */
    static SimPlan plan(long seed, FaultSchedule faults) {
        SimPlan base = Consistency.plan(seed);
        List<NodePlan> nodes = new ArrayList<>();
        for (NodePlan p : base.nodes()) {
            if (p.factory() instanceof ConsistencyNodes.Node n) {
                nodes.add(new NodePlan(p.name(), p.startMs(), p.ip(), p.port(), new StorageFaultNodes.Node(n.region(),
                        n.regions(), n.seed(), n.clockOffsetMs(), n.retentionMs(), faults)));
            } else if (p.factory() instanceof ConsistencyNodes.Client c) {
                nodes.add(new NodePlan(p.name(), p.startMs(), p.ip(), p.port(), c.withTimeout(CLIENT_TIMEOUT_MS)));
            } else {
                nodes.add(p);
            }
        }
        nodes.add(new NodePlan("fault-probe", 0, "10.0.0.200", 49100, new StorageFaultNodes.Probe(Consistency.PROBE_AT_MS)));
        List<SimPlan.Restart> restarts = faults.crashes().stream()
                .map(c -> new SimPlan.Restart(c.region(), c.killMs(), c.restartMs())).toList();
        return new SimPlan(seed, base.network(), nodes, base.durationMs(), base.sampleMs(),
                restarts);
    }

    /**
     * What a run showed: the consistency check, the faults injected by kind, the writes acknowledged
     * by a node before it lost power (each checked in what it kept), the nodes whose syncs failed for
     * {@link #REPORT_WITHIN_MS} or more (each checked for a report), the block replicas that kept
     * versions name at the end (each checked: held and intact), the snapshots in which each node
     * reported a storage fault, damaged blocks left, and this scenario's violations.
     */
    public record Outcome(long seed, ConsistencyCheck.Report consistency, Map<String, Long> faults,
            int ackedBeforeCuts, int longSyncFailures, int replicasChecked, Map<String, Integer> faultSnapshots,
            List<String> damagedLeft, List<String> violations) {
        public boolean ok() {
            return consistency.ok() && violations.isEmpty();
        }

        public long acknowledged() {
            return consistency.writes().stream().filter(w -> w.outcome().equals("ok")).count();
        }

        /** Every violation, the consistency check's first. */
        public List<String> allViolations() {
            List<String> all = new ArrayList<>(consistency.violations());
            all.addAll(violations);
            return all;
        }
    }

    /** Runs the scenario for {@code seed} (deterministic) and checks it. */
    public static Outcome run(long seed) {
        return run(seed, schedule(seed));
    }

    /** Runs the scenario for {@code seed} with {@code faults} instead of the seed's own (tests of the checks). */
    public static Outcome run(long seed, FaultSchedule faults) {
        SimResult result = SimRunner.run(plan(seed, faults));
        List<String> others = new ArrayList<>();
        Map<String, Long> injected = new TreeMap<>();
        Map<String, Integer> snapshots = new TreeMap<>();
        List<String> damaged = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        Map<String, Set<String>> keptAtCut = new TreeMap<>(); // region|name -> versions kept through its cut
        int longFailures = 0;
        int replicas = 0;
        for (String line : result.extra()) {
            String[] f = line.split("\\|", -1);
            switch (f[0]) {
                case "X" -> injected.put(f[1], Long.parseLong(f[2]));
                case "Y" -> {
                    snapshots.put(f[1], Integer.parseInt(f[2]));
                    longFailures += Long.parseLong(f[3]) >= REPORT_WITHIN_MS ? 1 : 0;
                    if (Long.parseLong(f[3]) >= REPORT_WITHIN_MS && Integer.parseInt(f[2]) == 0) {
                        violations.add(f[1] + "'s metadata syncs failed for " + f[3] + " ms, but its status never"
                                + " reported a storage fault");
                    }
                }
                case "D" -> {
                    damaged.add(f[1] + ":" + f[2]);
                    if (Boolean.parseBoolean(f[3])) {
                        violations.add("a damaged copy of " + f[2] + " is still held at " + f[1]
                                + " at the end, where a kept version names it");
                    }
                }
                case "N" -> replicas = Integer.parseInt(f[1]);
                case "M" -> violations.add("block " + f[2] + " is missing at " + f[1]
                        + " at the end, where a kept version names it");
                case "Z" -> violations.add(f[1] + " still reports a storage fault at the end, long after its syncs"
                        + " failed: " + f[2]);
                case "P" -> keptAtCut.put(f[1] + "|" + f[3], new TreeSet<>(List.of(f[4].split(","))));
                default -> others.add(line);
            }
        }
        Map<String, long[]> down = new LinkedHashMap<>();
        faults.crashes().forEach(c -> down.put(c.region(), new long[] {c.killMs(), c.restartMs()}));
        int beforeCuts = 0;
        for (String line : others) {
            String[] f = line.split("\\|", -1);
            long[] d = f[0].equals("W") && f[6].equals("ok") ? down.get(f[1]) : null;
            if (d == null || Long.parseLong(f[5]) > d[0]) {
                continue;
            }
            beforeCuts++;
            if (!keptAtCut.getOrDefault(f[1] + "|" + f[2], Set.of()).contains(f[7])) {
                violations.add(f[1] + " acknowledged " + f[3] + " " + f[7] + " of '" + f[2] + "' at " + f[5]
                        + " ms but its metadata did not keep it through the power cut at " + d[0] + " ms");
            }
        }
        Consistency.Cut c = Consistency.cut(seed);
        ConsistencyCheck.Report report = ConsistencyCheck.check(seed, List.of(Consistency.REGIONS), others,
                result.faults(), c.fromMs(), c.toMs(), c.sideA(), false, down);
        return new Outcome(seed, report, injected, beforeCuts, longFailures, replicas, snapshots, damaged, violations);
    }

    /** One line of a run: seed, acknowledged writes, faults injected by kind, violations. */
    public static String line(Outcome o) {
        return String.format(Locale.ROOT, "seed %d: %d acknowledged writes (%d by a node before it lost power);"
                + " faults %s; syncs failed 2 s or more at %d node(s); %d replicas checked at the end; %d violations%s",
                o.seed(), o.acknowledged(), o.ackedBeforeCuts(), o.faults(), o.longSyncFailures(), o.replicasChecked(),
                o.allViolations().size(), o.ok() ? "" : ": " + o.allViolations());
    }

    /**
     * {@code simulate storage-faults --seed S --seeds N}: runs seeds S..S+N-1, prints a line per
     * seed and the totals; returns 1 when a seed failed.
     */
    public static int runCli(long first, int count, PrintStream o) {
        long t0 = System.nanoTime();
        int failed = 0;
        long acked = 0;
        long beforeCuts = 0;
        long longFailures = 0;
        long replicas = 0;
        Map<String, Long> totals = new TreeMap<>();
        for (long seed = first; seed < first + count; seed++) {
            Outcome r = run(seed);
            o.println(line(r));
            failed += r.ok() ? 0 : 1;
            acked += r.acknowledged();
            beforeCuts += r.ackedBeforeCuts();
            longFailures += r.longSyncFailures();
            replicas += r.replicasChecked();
            r.faults().forEach((k, v) -> totals.merge(k, v, Long::sum));
        }
        o.printf(Locale.ROOT, "storage-faults: seeds %d..%d: %d failed; %d acknowledged writes (%d by a node before"
                + " it lost power); faults %s; syncs failed 2 s or more at %d node(s); %d replicas checked at the end;"
                + " %.0f s wall%n", first, first + count - 1, failed, acked, beforeCuts, totals, longFailures, replicas,
                (System.nanoTime() - t0) / 1e9);
        return failed == 0 ? 0 : 1;
    }
}
