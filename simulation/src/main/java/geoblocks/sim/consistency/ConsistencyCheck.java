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
 * <li>every acknowledged version is readable, byte for byte, at its region and the next one;</li>
 * <li>one node's clock only moves forward: the versions one region stamps for its client's
 * successive writes ascend.</li>
 * </ol>
 */
public final class ConsistencyCheck {
    private ConsistencyCheck() {}

    /** A write as its client saw it. */
    public record Write(String region, String name, String kind, long callMs, long returnMs, String outcome,
            String version, String error) {}

    /** A read of a name's newest version. */
    public record Read(String region, String name, String why, long callMs, long returnMs, String head) {}

    /** One kept version at one region: id, tombstone or not, and where it was uploaded. */
    public record Kept(String id, boolean deleted, String uploadedAt) {}

    /** What one run produced and what broke. */
    public record Report(long seed, List<Write> writes, List<Read> reads, Map<String, Map<String, List<Kept>>> state,
            List<String> violations, int writesDuringCut, Set<String> regionsWritingDuringCut, List<String> records) {
        public boolean ok() {
            return violations.isEmpty();
        }
    }

    public static Report check(long seed, List<String> regions, List<String> records, List<String> faults,
            long cutFromMs, long cutToMs, Set<String> sideA) {
        List<Write> writes = new ArrayList<>();
        List<Read> reads = new ArrayList<>();
        List<String> violations = new ArrayList<>();
        Map<String, Map<String, List<Kept>>> state = new TreeMap<>(); // region -> name -> versions
        regions.forEach(r -> state.put(r, new TreeMap<>()));
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
                    for (String e : f[3].split(",")) {
                        String[] idAt = e.split("~", 2);
                        String id = idAt[0].replaceAll("/\\d+$", "");
                        boolean deleted = id.endsWith("(deleted)");
                        kept.add(new Kept(deleted ? id.substring(0, id.length() - 9) : id, deleted, idAt[1]));
                    }
                    state.get(f[1]).put(f[2], kept);
                }
                default -> violations.add("unknown record: " + line);
            }
        }
        Set<String> names = new TreeSet<>();
        state.values().forEach(m -> names.addAll(m.keySet()));
        writes.forEach(w -> names.add(w.name()));
        for (String name : names) {
            checkName(name, regions, writes, state, violations);
        }
        checkReadYourWrites(reads, violations);
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

    private static void checkName(String name, List<String> regions, List<Write> writes,
            Map<String, Map<String, List<Kept>>> state, List<String> violations) {
        List<Kept> first = state.get(regions.get(0)).getOrDefault(name, List.of());
        for (String r : regions) {
            List<Kept> here = state.get(r).getOrDefault(name, List.of());
            if (!here.equals(first)) {
                violations.add("'" + name + "' did not converge: " + regions.get(0) + " keeps " + first + ", " + r + " keeps " + here);
            }
        }
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

    private static void checkReadYourWrites(List<Read> reads, List<String> violations) {
        for (Read r : reads) {
            if (!r.why().startsWith("ryw:")) {
                continue;
            }
            Version own = Version.parse(r.why().substring(4));
            String head = r.head().replace("(deleted)", "");
            if (head.equals("none") || head.startsWith("error:")) {
                violations.add("read-your-writes: after writing " + own + " of '" + r.name() + "' at " + r.region()
                        + " the region answered " + r.head());
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
