package geoblocks.blockstore.core.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules of one declarative policy, as written under {@code geoblocks.placement.policies.NAME}:
 * {@code copies}; one {@link Term} per copy, in order; regions or zones that must each get a copy
 * ({@code require}) or never get one ({@code forbid}); at most {@code maxPerZone} copies in one
 * zone (0: no limit); regions whose disk is more than {@code maxDiskUse} full (1: no limit) or
 * that move more than {@code maxIoBytesPerSecond} of blocks (0: no limit) are skipped.
 * {@link #check} refuses rules that contradict each other, naming the key.
 */
public record DeclarativeSpec(String name, int copies, List<Term> terms, List<String> require, List<String> forbid,
        int maxPerZone, double maxDiskUse, long maxIoBytesPerSecond) {

    public DeclarativeSpec {
        terms = List.copyOf(terms);
        require = List.copyOf(require);
        forbid = List.copyOf(forbid);
    }

    /**
     * Refuses rules no placement can satisfy in a cluster of {@code regions}, with a message that
     * starts with {@code key} (the policy's config path).
     */
    void check(String key, Zones zones, Collection<String> regions, Map<String, Double> egressCost) {
        if (copies < 1 || copies > regions.size()) {
            throw bad(key + ".copies must be in 1.." + regions.size() + " (the cluster has " + regions.size()
                    + " regions), was " + copies);
        }
        if (terms.size() != copies) {
            throw bad(key + ".terms has " + terms.size() + " entries; it needs one per copy (copies = " + copies + ")");
        }
        if (terms.stream().filter(t -> t == Term.LOCAL).count() > 1) {
            throw bad(key + ".terms names local more than once; this node can hold only one copy");
        }
        for (String item : concat(require, forbid)) {
            if (!zones.isZone(item) && !regions.contains(item)) {
                throw bad(key + (require.contains(item) ? ".require" : ".forbid") + ": '" + item
                        + "' is neither a region " + new TreeSet<>(regions) + " nor a zone " + zones.members().keySet());
            }
        }
        if (maxPerZone < 0) {
            throw bad(key + ".max-per-zone must be >= 0 (0 = no limit), was " + maxPerZone);
        }
        if (!(maxDiskUse > 0 && maxDiskUse <= 1)) {
            throw bad(key + ".max-disk-use must be a fraction in (0, 1], was " + maxDiskUse);
        }
        if (maxIoBytesPerSecond < 0) {
            throw bad(key + ".max-io-rate must be >= 0 bytes per second (0 = no limit), was " + maxIoBytesPerSecond);
        }
        if (terms.contains(Term.CHEAPEST)) {
            List<String> missing = regions.stream().filter(r -> !egressCost.containsKey(r)).sorted().toList();
            if (!missing.isEmpty()) {
                throw bad(key + ".terms uses cheapest, but geoblocks.placement.egress-cost has no cost for " + missing);
            }
        }
        Set<String> allowed = new TreeSet<>(regions);
        forbid.forEach(f -> allowed.removeAll(zones.regionsOf(f)));
        for (String r : require) {
            if (forbid.contains(r) || allowed.stream().noneMatch(zones.regionsOf(r)::contains)) {
                throw bad(key + ": require " + zones.show(r) + " conflicts with forbid " + zones.show(forbid)
                        + ": every region it names is forbidden");
            }
        }
        if (copies > allowed.size()) {
            throw bad(key + ": copies = " + copies + " but forbid " + zones.show(forbid) + " leaves only " + allowed);
        }
        if (!feasible(zones, new ArrayList<>(allowed))) {
            throw bad(key + ": no " + copies + " regions out of " + allowed + " satisfy require [" + zones.show(require)
                    + "]" + (maxPerZone > 0 ? " with at most " + maxPerZone + " per zone" : "")
                    + " (the rules conflict)");
        }
    }

    /** True when some set of {@code copies} allowed regions satisfies every requirement and the zone limit. */
    private boolean feasible(Zones zones, List<String> allowed) {
        if (allowed.size() > 20) {
            return true; // too many to try every set; the placement reports a conflict when it meets one
        }
        return search(zones, allowed, 0, new ArrayList<>());
    }

    private boolean search(Zones zones, List<String> allowed, int from, List<String> chosen) {
        if (chosen.size() == copies) {
            return require.stream().allMatch(r -> chosen.stream().anyMatch(zones.regionsOf(r)::contains));
        }
        for (int i = from; i < allowed.size(); i++) {
            String r = allowed.get(i);
            if (maxPerZone > 0 && inZone(zones, chosen, zones.zoneOf(r)) >= maxPerZone) {
                continue;
            }
            chosen.add(r);
            boolean ok = search(zones, allowed, i + 1, chosen);
            chosen.remove(chosen.size() - 1);
            if (ok) {
                return true;
            }
        }
        return false;
    }

    static int inZone(Zones zones, Collection<String> regions, String zone) {
        Map<String, Integer> n = new HashMap<>();
        regions.forEach(r -> n.merge(zones.zoneOf(r), 1, Integer::sum));
        return n.getOrDefault(zone, 0);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static IllegalArgumentException bad(String message) {
        return new IllegalArgumentException(message);
    }
}
