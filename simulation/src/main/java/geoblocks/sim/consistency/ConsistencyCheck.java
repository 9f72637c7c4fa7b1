package geoblocks.sim.consistency;

import geoblocks.blockstore.core.Owners;
import geoblocks.blockstore.core.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks the records of one consistency run against the model docs/consistency.md states. Pure:
 * records in, violations out. What it checks:
 * <ol>
 * <li>convergence: every region keeps the same versions of every name (so the same head);</li>
 * <li>no acknowledged write is lost: every acknowledged version is kept at every region;</li>
 * <li>no phantom: a kept version nobody was told about stems from a write whose outcome the
 * client was told is unknown (at most one per such write, from that client's region);</li>
 * <li>the winner is the model's: the head of every name is the highest acknowledged version,
 * unless one of those unknown-outcome writes made a higher one;</li>
 * <li>create-if-absent is exclusive: at most one create of a name succeeds, and a name whose
 * create was refused as existing has a version;</li>
 * <li>read-your-writes: right after a write is acknowledged, its region serves that version or a
 * higher one;</li>
 * <li>every acknowledged version is readable, byte for byte, at the region after the writer's;</li>
 * <li>one node's clock only moves forward: the versions one region stamps for its client's
 * successive writes ascend.</li>
 * </ol>
 * With a short retention (the retention run) 2 to 5 and 7 give way to: every region keeps only
 * the winner (nothing when the winner is a delete), and a version a region dropped left none of
 * its blocks there.
 */
public final class ConsistencyCheck {
    private ConsistencyCheck() {}

    /** A write as its client saw it. */
    public record Write(String region, String name, String kind, long callMs, long returnMs, String outcome,
            String version, String error) {}

    /** A read of a name's newest version. */
    public record Read(String region, String name, String why, long callMs, long returnMs, String head) {}

    /** One kept version at one region: id, tombstone or not, where it was uploaded, and its file id. */
    public record Kept(String id, boolean deleted, String uploadedAt, String fileId) {}

    /** What one run produced and what broke. */
    public record Report(long seed, List<Write> writes, List<Read> reads, Map<String, Map<String, List<Kept>>> state,
            List<String> violations, int writesDuringCut, Set<String> regionsWritingDuringCut, List<String> records) {
        public boolean ok() {
            return violations.isEmpty();
        }
    }

    public static Report check(long seed, List<String> regions, List<String> records, List<String> faults,
            long cutFromMs, long cutToMs, Set<String> sideA, boolean retention) {
        return check(seed, regions, records, faults, cutFromMs, cutToMs, sideA, retention, Map.of());
    }

    /**
     * As above, with the times a region's node was down ({@code down}: region to {from, to} ms, a node
     * crashed and started again): a read-your-writes read at that region that got no answer (an error)
     * while it was outstanding across that window is not a violation (the node died with the request;
     * a stale or missing version answered by a running node still is).
     */
    public static Report check(long seed, List<String> regions, List<String> records, List<String> faults,
            long cutFromMs, long cutToMs, Set<String> sideA, boolean retention, Map<String, long[]> down) {
        List<Write> writes = new ArrayList<>();
        List<Read> reads = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        TreeMap<Integer, Map<String, Map<String, List<Kept>>>> probes = new TreeMap<>(); // probe -> region -> name -> versions
        TreeMap<Integer, Map<String, Set<String>>> blocks = new TreeMap<>(); // probe -> region -> block ids
        for (String f : faults) {
            violations.add("component fault: " + f);
        }
        for (String line : records) {
            String[] f = line.split("\\|", -1);
            switch (f[0]) {
                case "W" -> writes.add(new Write(f[1], f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]), f[6], f[7], f[9]));
                case "R" -> reads.add(new Read(f[1], f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]), f[6]));
                case "G" -> {
                    if (!Boolean.parseBoolean(f[5])) {
                        violations.add("acknowledged version " + f[4] + " of '" + f[3] + "' (written at " + f[1]
                                + ") is not readable at " + f[2] + ": " + f[6]);
                    }
                }
                case "S" -> {
                    List<Kept> kept = new ArrayList<>();
                    for (String e : f[4].split(",")) {
                        String[] parts = e.split("~", 3);
                        String id = parts[0].replaceAll("/\\d+$", "");
                        boolean deleted = id.endsWith("(deleted)");
                        kept.add(new Kept(deleted ? id.substring(0, id.length() - 9) : id, deleted, parts[1], parts[2]));
                    }
                    probes.computeIfAbsent(Integer.parseInt(f[1]), k -> new TreeMap<>())
                            .computeIfAbsent(f[2], k -> new TreeMap<>()).put(f[3], kept);
                }
                case "B" -> blocks.computeIfAbsent(Integer.parseInt(f[1]), k -> new TreeMap<>())
                        .computeIfAbsent(f[2], k -> new TreeSet<>()).add(f[3]);
                default -> violations.add("unknown record: " + line);
            }
        }
        Map<String, Map<String, List<Kept>>> state = new TreeMap<>(); // the last probe: region -> name -> versions
        regions.forEach(r -> state.put(r, new TreeMap<>(probes.isEmpty() ? Map.of()
                : probes.lastEntry().getValue().getOrDefault(r, Map.of()))));
        Set<String> names = new TreeSet<>();
        state.values().forEach(m -> names.addAll(m.keySet()));
        writes.forEach(w -> names.add(w.name()));
        for (String name : names) {
            converged(name, regions, state, violations);
            if (retention) {
                checkRetained(name, regions, writes, state, violations);
            } else {
                checkName(name, regions, writes, state, violations);
            }
        }
        if (retention) {
            checkDroppedBlocks(regions, probes, blocks, violations);
        }
        checkReadYourWrites(reads, down, violations);
        checkClocks(writes, violations);
        int during = 0;
        Set<String> writers = new TreeSet<>();
        for (Write w : writes) {
            if (w.outcome().equals("ok") && w.callMs() >= cutFromMs && w.returnMs() < cutToMs) {
                during++;
                writers.add(sideA.contains(w.region()) ? "A" : "B");
            }
        }
        return new Report(seed, writes, reads, state, violations, during, writers, records);
    }

    private static void converged(String name, List<String> regions, Map<String, Map<String, List<Kept>>> state,
            List<String> violations) {
        List<Kept> first = state.get(regions.get(0)).getOrDefault(name, List.of());
        for (String r : regions) {
            List<Kept> here = state.get(r).getOrDefault(name, List.of());
            if (!here.equals(first)) {
                violations.add("'" + name + "' did not converge: " + regions.get(0) + " keeps " + first + ", " + r + " keeps " + here);
            }
        }
    }

    /** With a short retention: only the winner is left (nothing when it is a delete). */
    private static void checkRetained(String name, List<String> regions, List<Write> writes,
            Map<String, Map<String, List<Kept>>> state, List<String> violations) {
        List<Kept> kept = state.get(regions.get(0)).getOrDefault(name, List.of());
        Write winner = null;
        boolean unknown = false;
        for (Write w : writes) {
            if (w.name().equals(name) && w.outcome().equals("ok")
                    && (winner == null || Version.parse(w.version()).compareTo(Version.parse(winner.version())) > 0)) {
                winner = w;
            }
            unknown |= w.name().equals(name) && w.outcome().equals("unknown");
        }
        if (kept.size() > 1) {
            violations.add("'" + name + "' still keeps " + kept.size() + " versions after the retention: " + kept);
        }
        if (winner == null || unknown) {
            return; // nothing acknowledged, or an unknown outcome may have won
        }
        if (winner.kind().equals("DELETE")) {
            if (!kept.isEmpty()) {
                violations.add("'" + name + "' was deleted last (" + winner.version() + ") but keeps " + kept
                        + " after the retention (every region acknowledged the tombstone by then)");
            }
        } else if (kept.size() != 1 || !kept.get(0).id().equals(winner.version())) {
            violations.add("'" + name + "' keeps " + kept + ", the model's winner is " + winner.version());
        }
    }

    /** A version a region kept at an earlier probe but no longer keeps left none of its blocks there. */
    private static void checkDroppedBlocks(List<String> regions, TreeMap<Integer, Map<String, Map<String, List<Kept>>>> probes,
            TreeMap<Integer, Map<String, Set<String>>> blocks, List<String> violations) {
        if (probes.size() < 2) {
            violations.add("the retention run needs two probes, got " + probes.keySet());
            return;
        }
        int last = probes.lastKey();
        for (String r : regions) {
            Set<String> keptNow = new TreeSet<>();
            probes.get(last).getOrDefault(r, Map.of()).values().forEach(l -> l.forEach(k -> keptNow.add(k.fileId())));
            Set<String> held = blocks.getOrDefault(last, Map.of()).getOrDefault(r, Set.of());
            for (Map<String, Map<String, List<Kept>>> earlier : probes.headMap(last).values()) {
                for (List<Kept> l : earlier.getOrDefault(r, Map.of()).values()) {
                    for (Kept k : l) {
                        if (keptNow.contains(k.fileId()) || k.deleted()) {
                            continue;
                        }
                        for (String b : held) {
                            if (b.startsWith("b-" + k.fileId() + "-")) {
                                violations.add(r + " dropped version " + k.id() + " but still holds its block " + b);
                            }
                        }
                    }
                }
            }
        }
    }

    private static void checkName(String name, List<String> regions, List<Write> writes,
            Map<String, Map<String, List<Kept>>> state, List<String> violations) {
        List<Kept> first = state.get(regions.get(0)).getOrDefault(name, List.of());
        Map<String, Kept> kept = new LinkedHashMap<>();
        first.forEach(k -> kept.put(k.id(), k));
        List<Write> mine = writes.stream().filter(w -> w.name().equals(name)).toList();
        Version highestAcked = null;
        int acked = 0;
        for (Write w : mine) {
            if (!w.outcome().equals("ok")) {
                continue;
            }
            acked++;
            Version v = Version.parse(w.version());
            highestAcked = highestAcked == null || v.compareTo(highestAcked) > 0 ? v : highestAcked;
            Kept k = kept.get(w.version());
            if (k == null) {
                violations.add("acknowledged " + w.kind() + " of '" + name + "' at " + w.region() + " (version "
                        + w.version() + ") is not among the versions kept: " + first);
            } else if (k.deleted() != w.kind().equals("DELETE")) {
                violations.add("version " + w.version() + " of '" + name + "' is kept as the wrong kind of write");
            }
        }
        Set<String> ackedIds = new TreeSet<>();
        mine.stream().filter(w -> w.outcome().equals("ok")).forEach(w -> ackedIds.add(w.version()));
        Map<String, Integer> unknownBy = new TreeMap<>();
        mine.stream().filter(w -> w.outcome().equals("unknown")).forEach(w -> unknownBy.merge(w.region(), 1, Integer::sum));
        Map<String, Integer> extraBy = new TreeMap<>();
        for (Kept k : first) {
            if (!ackedIds.contains(k.id())) {
                extraBy.merge(k.uploadedAt(), 1, Integer::sum);
            }
        }
        extraBy.forEach((region, n) -> {
            if (n > unknownBy.getOrDefault(region, 0)) {
                violations.add("'" + name + "' keeps " + n + " version(s) from " + region + " that no client was told about"
                        + " (unknown outcomes there: " + unknownBy.getOrDefault(region, 0) + "): " + first);
            }
        });
        if (!first.isEmpty()) {
            Version head = Version.parse(first.get(first.size() - 1).id());
            boolean headAcked = ackedIds.contains(head.id());
            if (highestAcked != null && head.compareTo(highestAcked) < 0) {
                violations.add("'" + name + "': head " + head + " is below the highest acknowledged version " + highestAcked);
            } else if (!headAcked && highestAcked != null && unknownBy.isEmpty()) {
                violations.add("'" + name + "': head " + head + " is not the model's winner " + highestAcked);
            }
        } else if (acked > 0) {
            violations.add("'" + name + "' has acknowledged writes but no region keeps any version");
        }
        List<Write> creates = mine.stream().filter(w -> w.kind().equals("CREATE")).toList();
        if (!creates.isEmpty()) {
            long won = creates.stream().filter(w -> w.outcome().equals("ok")).count();
            if (won > 1) {
                violations.add("'" + name + "' was created " + won + " times: " + creates);
            }
            if (first.size() > 1) {
                violations.add("'" + name + "' (only ever created if absent) keeps " + first.size() + " versions: " + first);
            }
            if (creates.stream().anyMatch(w -> w.outcome().equals("exists")) && first.isEmpty()) {
                violations.add("a create of '" + name + "' was refused as existing, but no version of it exists");
            }
        }
    }

    private static void checkReadYourWrites(List<Read> reads, Map<String, long[]> down, List<String> violations) {
        for (Read r : reads) {
            if (!r.why().startsWith("ryw:")) {
                continue;
            }
            long[] d = down.get(r.region());
            if (d != null && r.head().startsWith("error:") && r.callMs() <= d[1] && r.returnMs() >= d[0]) {
                continue; // the region's node was down while the read was outstanding: it died with the request
            }
            Version own = Version.parse(r.why().substring(4));
            String head = r.head().replace("(deleted)", "");
            if (head.equals("none") || head.startsWith("error:")) {
                violations.add("read-your-writes: after writing " + own + " of '" + r.name() + "' at " + r.region()
                        + " the region answered " + r.head() + " (read from " + r.callMs() + " to " + r.returnMs() + " ms)");
            } else if (Version.parse(head).compareTo(own) < 0) {
                violations.add("read-your-writes: after writing " + own + " of '" + r.name() + "' at " + r.region()
                        + " the region served the older " + head);
            }
        }
    }

    private static void checkClocks(List<Write> writes, List<String> violations) {
        Map<String, Version> last = new TreeMap<>();
        for (Write w : writes) {
            if (!w.outcome().equals("ok") || w.kind().equals("CREATE")) {
                continue; // a create is stamped by the name's owner, not by the writer's region
            }
            Version v = Version.parse(w.version());
            Version before = last.put(w.region(), v);
            if (!Objects.equals(v.region(), w.region())) {
                violations.add(w.kind() + " at " + w.region() + " was stamped by " + v.region());
            }
            if (before != null && v.compareTo(before) <= 0) {
                violations.add(w.region() + " stamped " + v + " after " + before + ": its clock went back");
            }
        }
    }

    /** The owner region of a name among {@code regions} (for histories of reads at the owner). */
    public static String owner(String name, List<String> regions) {
        return Owners.ownerOf(name, regions);
    }
}
