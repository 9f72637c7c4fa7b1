package geoblocks.sim.scenario;

import static geoblocks.sim.scenario.Membership.NEWCOMER;
import static geoblocks.sim.scenario.Membership.WATCH_MS;

import geoblocks.blockstore.core.layout.RebalancePlan;
import geoblocks.sim.consistency.ConsistencyCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@link Membership}'s checks count from a run's records (the replica watch's {@code H}, {@code T},
 * {@code E} and {@code P} records): how long versions stayed below their promised copies, the bytes the
 * moves copied against the minimum, and how the spread copies ended up. Pure functions of the records;
 * the scenario itself (the plan, the run, the verdicts) stays in {@link Membership}.
 */
public final class MembershipFigures {
    private MembershipFigures() {}

    /**
     * How long acknowledged current versions had fewer copies than their policies promise, from the
     * replica watch ({@code H} and {@code T} records, every {@value Membership#WATCH_MS} ms): a version counts from
     * the return of the put or create that was acknowledged with it, while it is the head of its name at
     * some up node. It is below its promise at a look when its copies on disk (a crashed node's too: it
     * comes back with them) at the regions its policy may use then (every region before the drain was
     * applied, all but {@value Membership#DRAINED} after) are fewer than its policy's copies; short only of live
     * copies (a copy at the crashed node while it is down) is counted apart, as explained by the crash.
     * {@code drainDoneMs}: the first look from which on every node reported the drain's layout (or a
     * later one) with nothing left to drain (what its operator sees as TO-DRAIN 0); {@code boundMs}: from
     * the drain being applied until then, plus one look. Every stretch below promise must begin at or
     * after the drain was applied and end by {@code drainDoneMs} plus one look: so its length is within
     * {@code boundMs}, the time the rebalance needed.
     */
    public record Copies(int versions, int stretches, long longestMs, String longestVersion, long drainDoneMs,
            long boundMs, long longestCrashOnlyMs) {
        static Copies of(ConsistencyCheck.Report report, List<String[]> ticks, List<String[]> under, long drainMs,
                List<String> violations) {
            Map<String, Long> acked = new HashMap<>();
            for (ConsistencyCheck.Write w : report.writes()) {
                if (w.outcome().equals("ok") && !w.kind().equals("DELETE")) {
                    acked.merge(w.name() + "|" + w.version(), w.returnMs(), Math::min);
                }
            }
            long done = -1;
            for (int i = ticks.size() - 1; i >= 0; i--) {
                String[] t = ticks.get(i);
                long at = Long.parseLong(t[1]);
                if (drainMs < 0 || at < drainMs || !drained(t[2])) {
                    break;
                }
                done = at;
            }
            if (drainMs >= 0 && done < 0) {
                violations.add("TO-DRAIN never stayed at 0 on every node after the drain (" + drainMs + " ms); last look: "
                        + (ticks.isEmpty() ? "none" : String.join("|", ticks.get(ticks.size() - 1))));
            }
            long bound = done < 0 ? -1 : done - drainMs + WATCH_MS;
            // per version, the looks at which it was below its promise, and those short only of the crashed node's copies
            Map<String, TreeSet<Long>> below = new TreeMap<>();
            Map<String, TreeSet<Long>> crashOnly = new TreeMap<>();
            for (String[] h : under) {
                long at = Long.parseLong(h[1]);
                String key = h[2] + "|" + h[3];
                Long ackedAt = acked.get(key);
                if (ackedAt == null || at < ackedAt) {
                    continue;
                }
                boolean drainedNow = drainMs >= 0 && at >= drainMs;
                int promise = Integer.parseInt(h[5]);
                int durable = Integer.parseInt(h[drainedNow ? 7 : 6]);
                int live = Integer.parseInt(h[drainedNow ? 9 : 8]);
                if (durable < promise) {
                    below.computeIfAbsent(key, k -> new TreeSet<>()).add(at);
                } else if (live < promise) {
                    crashOnly.computeIfAbsent(key, k -> new TreeSet<>()).add(at);
                }
            }
            int stretches = 0;
            long longest = 0;
            String longestVersion = "";
            for (Map.Entry<String, TreeSet<Long>> e : below.entrySet()) {
                for (long[] st : stretches(e.getValue())) {
                    stretches++;
                    long length = st[1] - st[0] + WATCH_MS;
                    if (length > longest) {
                        longest = length;
                        longestVersion = e.getKey();
                    }
                    if (drainMs < 0 || st[0] < drainMs || done < 0 || st[1] > done + WATCH_MS) {
                        violations.add("version " + e.getKey() + " (acknowledged at " + acked.get(e.getKey())
                                + " ms) had fewer copies than its policy promises from " + st[0] + " to " + st[1]
                                + " ms, outside the rebalance: drain applied at " + drainMs + " ms, nothing left to drain"
                                + " from " + done + " ms");
                    }
                }
            }
            long crashLongest = 0;
            for (TreeSet<Long> at : crashOnly.values()) {
                for (long[] st : stretches(at)) {
                    crashLongest = Math.max(crashLongest, st[1] - st[0] + WATCH_MS);
                }
            }
            return new Copies(acked.size(), stretches, longest, longestVersion, done, bound, crashLongest);
        }

        /** True when every node of a {@code T} record reports layout version 2 or later and nothing left to drain. */
        static boolean drained(String nodes) {
            String[] each = nodes.split(",");
            if (each.length != Consistency.REGIONS.length) {
                return false;
            }
            for (String n : each) {
                String[] f = n.split(":");
                if (f.length != 3 || Long.parseLong(f[1]) < 2 || Long.parseLong(f[2]) != 0) {
                    return false;
                }
            }
            return true;
        }

        /** Runs of consecutive looks ({@value Membership#WATCH_MS} ms apart): first and last of each. */
        static List<long[]> stretches(TreeSet<Long> at) {
            List<long[]> out = new ArrayList<>();
            long[] cur = null;
            for (long t : at) {
                if (cur != null && t - cur[1] <= WATCH_MS + WATCH_MS / 2) {
                    cur[1] = t;
                } else {
                    cur = new long[] {t, t};
                    out.add(cur);
                }
            }
            return out;
        }
    }

    /**
     * The bytes moves copied against the minimum that had to move ({@link #minimumBytes}). {@code bytes},
     * {@code moves}: the larger of two counts. The replica watch's ({@code E} records): for each new
     * location epoch of a kept version (a committed move: a drain's, a fill's), the bytes of its blocks'
     * copies at regions they were not at before (and one copy for each further move between two looks).
     * The nodes' own, {@code countedBytes} and {@code countedMoves} (the {@code geoblocks_moved_bytes_total}
     * and moves committed of their snapshots, summed over the nodes and a crashed node's runs, at the
     * watch's last look): it misses what a crashed node committed after its last snapshot (about once a
     * second). {@code drainSpreadBytes},
     * {@code drainOtherBytes}: the bytes of kept versions' copies at {@value Membership#DRAINED} from the drain
     * being applied on (each version's largest, whether it was there then or arrived later), of spread
     * policies and of the others; {@code fillBytes}: what moves had to bring the active regions (the
     * newcomer and the others, as the workload shifts every region's share) to hold their even share
     * of the current spread copies at the end ({@link Spread#fillBytes}).
     */
    public record Moved(long bytes, long moves, long countedBytes, long countedMoves, long drainSpreadBytes,
            long drainOtherBytes, long fillBytes) {
        /**
         * The least any rebalance could move: the drained copies of non-spread versions, plus the larger of
         * the drained spread copies and the active regions' deficits filled by moves (a drained spread copy
         * moved to a region short of its share serves both).
         */
        public long minimumBytes() {
            return drainOtherBytes + Math.max(drainSpreadBytes, fillBytes);
        }

        public long minimum() {
            return minimumBytes();
        }

        public double ratio() {
            return minimumBytes() == 0 ? (bytes == 0 ? 1 : Double.POSITIVE_INFINITY) : (double) bytes / minimumBytes();
        }

        static Moved of(List<String[]> ticks, List<String[]> atDrained, List<String> homes, long drainMs, Spread spread) {
            long counted = 0;
            long countedMoves = 0;
            if (!ticks.isEmpty()) {
                String[] last = ticks.get(ticks.size() - 1);
                countedMoves = Long.parseLong(last[3]);
                counted = Long.parseLong(last[4]);
            }
            // from the manifests: each new location epoch of a version, the bytes of the copies at regions new to it
            long bytes = 0;
            long moves = 0;
            Map<String, String[]> seen = new HashMap<>();
            for (String line : homes) {
                String[] e = line.split("\\|", -1);
                String key = e[2] + "|" + e[3];
                long epoch = Long.parseLong(e[6]);
                String[] blocks = e[7].split(";");
                String[] before = seen.put(key, e);
                long beforeEpoch = before == null ? 0 : Long.parseLong(before[6]);
                if (epoch <= beforeEpoch) {
                    continue;
                }
                moves += epoch - beforeEpoch;
                String[] was = before == null ? null : before[7].split(";");
                for (int i = 0; i < blocks.length; i++) {
                    int eq = blocks[i].lastIndexOf('=');
                    long length = Long.parseLong(blocks[i].substring(eq + 1));
                    Set<String> now = new TreeSet<>(List.of(blocks[i].substring(0, eq).split(",")));
                    if (was == null || i >= was.length) {
                        bytes += length * epoch; // moved before the watch saw it: at least one copy a move
                        continue;
                    }
                    now.removeAll(List.of(was[i].substring(0, was[i].lastIndexOf('=')).split(",")));
                    // moves between two looks: the copies at new regions, and at least one copy for each other move
                    bytes += length * (now.size() + epoch - beforeEpoch - 1);
                }
            }
            Map<String, Long> most = new HashMap<>();
            Map<String, String> policy = new HashMap<>();
            Map<String, Long> atDrain = new HashMap<>();
            for (String[] k : atDrained) {
                long at = Long.parseLong(k[1]);
                String key = k[2] + "|" + k[3];
                long b = Long.parseLong(k[5]);
                if (!k[4].equals("?")) {
                    policy.put(key, k[4]);
                }
                if (drainMs < 0) {
                    continue;
                }
                if (at <= drainMs) {
                    atDrain.put(key, b); // its bytes there when the drain was applied: the last value before
                } else {
                    most.merge(key, b, Math::max);
                }
            }
            atDrain.forEach((k, b) -> most.merge(k, b, Math::max));
            long spreadBytes = 0;
            long other = 0;
            for (Map.Entry<String, Long> e : most.entrySet()) {
                if (RebalancePlan.SPREAD.contains(policy.get(e.getKey()))) {
                    spreadBytes += e.getValue();
                } else {
                    other += e.getValue();
                }
            }
            long fill = spread.fillBytes();
            // the check takes the larger count: the nodes' misses a crashed node's last second, the watch's may
            // miss a copy when a version moved twice between two looks
            return new Moved(Math.max(bytes, counted), Math.max(moves, countedMoves), counted, countedMoves, spreadBytes,
                    other, fill);
        }
    }

    /**
     * The current versions' spread copies at the end (from the {@code P} records; spread policies
     * only, block by block as the rebalancer counts: a version's blocks may live at different regions):
     * the newcomer's bytes, those of them moves brought, and the even share of all such bytes over the
     * three active regions (the rebalance's target); {@code movedToNewcomer}: kept versions of any
     * policy with a copy at the newcomer whose homes changed since the upload. A region's copy of a
     * version was <em>brought by a move</em> when the version's location epoch is above 0 and the
     * region was not among its homes at the upload (the replica watch's first {@code E} record of it,
     * at epoch 0; every region counts as brought when the watch first saw it already moved).
     * {@code fillBytes}: what moves had to bring the active regions to hold their even share, summed
     * over them: for each, its share less the bytes no move brought (0 when uploads gave it enough),
     * but no more than moves brought it (the rebalancer stops within its tolerance of the share).
     */
    public record Spread(int movedToNewcomer, long newcomerBytes, long newcomerMovedBytes, long shareBytes, long fillBytes) {
        static Spread of(List<String[]> placed, List<String> homes) {
            Map<String, Set<String>> uploaded = new HashMap<>();
            for (String line : homes) {
                String[] e = line.split("\\|", -1);
                String key = e[2] + "|" + e[3];
                if (uploaded.containsKey(key)) {
                    continue;
                }
                Set<String> at = null; // unknown: first seen already moved
                if (Long.parseLong(e[6]) == 0) {
                    at = new TreeSet<>();
                    for (String b : e[7].split(";")) {
                        at.addAll(List.of(b.substring(0, b.lastIndexOf('=')).split(",")));
                    }
                }
                uploaded.put(key, at);
            }
            int moved = 0;
            long total = 0;
            Map<String, Long> bytes = new TreeMap<>();
            Map<String, Long> brought = new TreeMap<>();
            for (String[] f : placed) {
                List<String> at = List.of(f[4].split(";"));
                long epoch = Long.parseLong(f[9]);
                if (at.contains(NEWCOMER) && epoch > 0) {
                    moved++;
                }
                if (Boolean.parseBoolean(f[5]) && RebalancePlan.SPREAD.contains(f[7])) {
                    Set<String> first = uploaded.get(f[1] + "|" + f[2]);
                    for (String e : f[10].split(";")) {
                        String[] rb = e.split("=");
                        long size = Long.parseLong(rb[1]);
                        total += size;
                        bytes.merge(rb[0], size, Long::sum);
                        if (epoch > 0 && (first == null || !first.contains(rb[0]))) {
                            brought.merge(rb[0], size, Long::sum);
                        }
                    }
                }
            }
            long share = total / 3;
            long fill = 0;
            for (Map.Entry<String, Long> e : bytes.entrySet()) {
                long b = brought.getOrDefault(e.getKey(), 0L);
                fill += Math.min(b, Math.max(0, share - (e.getValue() - b)));
            }
            return new Spread(moved, bytes.getOrDefault(NEWCOMER, 0L), brought.getOrDefault(NEWCOMER, 0L), share, fill);
        }
    }
}
