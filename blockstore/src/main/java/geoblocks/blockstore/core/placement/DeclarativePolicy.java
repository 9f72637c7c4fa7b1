package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.PlacementException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A policy written in HOCON ({@link DeclarativeSpec}). Copy i is picked by term i from the pool: the
 * candidates that are not forbidden, not over the disk or I/O limits, not picked already and whose
 * zone has fewer than max-per-zone copies; when the copies left are only just enough for the
 * requirements not yet met, the pool is narrowed to the regions of those requirements, so every
 * requirement is met by the end. A replacement copy goes to the nearest region (this node first)
 * that the same rules allow next to the copies that stay. When a pool is empty the placement is
 * refused with each region's reason.
 */
public final class DeclarativePolicy implements PlacementPolicy {
    private final DeclarativeSpec spec;
    private final Zones zones;
    private final Map<String, Double> egressCost;

    public DeclarativePolicy(DeclarativeSpec spec, Zones zones, Map<String, Double> egressCost) {
        this.spec = spec;
        this.zones = zones;
        this.egressCost = Map.copyOf(egressCost);
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public int copies() {
        return spec.copies();
    }

    public DeclarativeSpec spec() {
        return spec;
    }

    @Override
    public List<String> place(PlacementInput in) throws PlacementException {
        List<String> chosen = new ArrayList<>();
        for (int i = 0; i < spec.copies(); i++) {
            Term term = spec.terms().get(i);
            List<String> pool = pool(in, chosen, spec.copies() - i);
            String pick = term.pick(pool, in, egressCost).orElseThrow(() -> refuse(in, chosen, pool,
                    "copy " + (chosen.size() + 1) + " (" + term.id() + ")"));
            chosen.add(pick);
        }
        return chosen;
    }

    @Override
    public String replace(PlacementInput in) throws PlacementException {
        List<String> pool = pool(in, in.held(), 1);
        List<String> order = in.nearestFirst(pool);
        if (order.isEmpty()) {
            throw refuse(in, in.held(), pool, "a new copy next to " + in.held());
        }
        return order.get(0);
    }

    /** The regions copy number {@code copies - slotsLeft + 1} may go to, given the ones already {@code taken}. */
    private List<String> pool(PlacementInput in, List<String> taken, int slotsLeft) {
        List<String> pool = new ArrayList<>();
        for (String r : in.candidates()) {
            if (!taken.contains(r) && reason(in, taken, r) == null) {
                pool.add(r);
            }
        }
        Set<String> needed = unmetRequirements(taken);
        if (!needed.isEmpty() && countUnmet(taken) >= slotsLeft) {
            pool.retainAll(needed);
        }
        return pool;
    }

    /** Why a candidate region is not allowed next to {@code taken} by this policy's rules, or null. */
    private String reason(PlacementInput in, List<String> taken, String r) {
        for (String f : spec.forbid()) {
            if (zones.regionsOf(f).contains(r)) {
                return r + " is forbidden (" + zones.show(f) + ")";
            }
        }
        String zone = zones.zoneOf(r);
        if (spec.maxPerZone() > 0 && DeclarativeSpec.inZone(zones, taken, zone) >= spec.maxPerZone()) {
            return r + ": zone " + zone + " has " + spec.maxPerZone() + " cop" + (spec.maxPerZone() == 1 ? "y" : "ies")
                    + " already";
        }
        NodeLoad l = in.load(r).orElse(null);
        if (l != null && spec.maxDiskUse() < 1 && l.disk().known() && l.disk().used() > spec.maxDiskUse()) {
            return String.format(Locale.ROOT, "%s: disk %.0f%% full, over max-disk-use %.0f%%", r,
                    l.disk().used() * 100, spec.maxDiskUse() * 100);
        }
        if (l != null && spec.maxIoBytesPerSecond() > 0 && l.ioBytesPerSecond() > spec.maxIoBytesPerSecond()) {
            return r + ": " + (l.ioBytesPerSecond() >> 20) + " MiB/s of block I/O, over max-io-rate "
                    + (spec.maxIoBytesPerSecond() >> 20) + " MiB/s";
        }
        return null;
    }

    private Set<String> unmetRequirements(List<String> taken) {
        Set<String> needed = new TreeSet<>();
        for (String req : spec.require()) {
            if (taken.stream().noneMatch(zones.regionsOf(req)::contains)) {
                needed.addAll(zones.regionsOf(req));
            }
        }
        return needed;
    }

    private int countUnmet(List<String> taken) {
        return (int) spec.require().stream().filter(req -> taken.stream().noneMatch(zones.regionsOf(req)::contains))
                .count();
    }

    private PlacementException refuse(PlacementInput in, List<String> taken, List<String> pool, String what) {
        Set<String> all = new LinkedHashSet<>(in.rtt().upRegions());
        all.addAll(in.rtt().down());
        List<String> reasons = new ArrayList<>();
        Set<String> needed = unmetRequirements(taken);
        for (String r : new TreeSet<>(all)) {
            if (taken.contains(r)) {
                continue;
            }
            String why = in.whyNot(r);
            if (why == null) {
                why = reason(in, taken, r);
            }
            if (why == null && !pool.contains(r) && !needed.isEmpty() && !needed.contains(r)) {
                why = r + ": the remaining copies must go to " + needed;
            }
            if (why == null) {
                why = r.equals(in.self()) ? r + " is this node (the term picks another region)"
                        : r + " is not this node (local picks this node)";
            }
            reasons.add(why);
        }
        return new PlacementException(name() + ": no region for " + what + (taken.isEmpty() ? "" : " after " + taken)
                + ": " + String.join("; ", reasons));
    }

    @Override
    public String describe() {
        StringBuilder s = new StringBuilder("terms [");
        s.append(String.join(", ", spec.terms().stream().map(Term::id).toList())).append(']');
        if (!spec.require().isEmpty()) {
            s.append("; require ").append(zones.show(spec.require()));
        }
        if (!spec.forbid().isEmpty()) {
            s.append("; forbid ").append(zones.show(spec.forbid()));
        }
        if (spec.maxPerZone() > 0) {
            s.append("; at most ").append(spec.maxPerZone()).append(" per zone");
        }
        if (spec.maxDiskUse() < 1) {
            s.append(String.format(Locale.ROOT, "; skip disks over %.0f%% full", spec.maxDiskUse() * 100));
        }
        if (spec.maxIoBytesPerSecond() > 0) {
            s.append("; skip regions moving over ").append(spec.maxIoBytesPerSecond() >> 20).append(" MiB/s");
        }
        return s.toString();
    }
}
