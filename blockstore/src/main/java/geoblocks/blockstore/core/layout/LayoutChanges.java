package geoblocks.blockstore.core.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules for changing a {@link Layout}: {@link #apply} checks a {@link LayoutChange} against the
 * current layout and what the cluster reported, and returns version + 1, or throws
 * {@link IllegalArgumentException} (the change makes no sense: unknown region, already active, the
 * last active region) or {@link IllegalStateException} (not now: a region has not reported the
 * current version yet, or the region to remove still holds replicas) with a message that says what
 * to do. {@code force} turns the second kind into warnings. Pure.
 *
 * <p>Why every member must have reported the current version first: owner changes are handed over
 * one at a time ({@link OwnerHandover}); a second change while some node still decides by the
 * layout before the first would let three owners of one name coexist.
 */
public final class LayoutChanges {
    private LayoutChanges() {}

    /** A new layout and what {@code force} overrode (empty without force). */
    public record Applied(Layout layout, List<String> warnings) {
        public Applied {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Applies {@code change} to {@code current}. {@code reported}: the layout version each region
     * last reported (regions missing: none); {@code drained}: the regions that hold no copy of any
     * kept version (current or earlier).
     */
    public static Applied apply(Layout current, LayoutChange change, Map<String, Long> reported, Set<String> drained,
            boolean force) {
        List<String> warnings = new ArrayList<>();
        List<String> behind = new ArrayList<>();
        for (String m : current.members()) {
            if (reported.getOrDefault(m, -1L) < current.version()) {
                behind.add(m);
            }
        }
        if (!behind.isEmpty()) {
            String why = "region(s) " + behind + " have not reported layout version " + current.version()
                    + " yet, so a change of owners may still be under way";
            if (!force) {
                throw new IllegalStateException(why + "; wait until `cluster show` lists every region at version "
                        + current.version() + ", or use --force (a region that is down never reports)");
            }
            warnings.add("forced: " + why + "; creates of names whose owner changes may be decided twice");
        }
        Map<String, Region> next = new TreeMap<>(current.regions());
        Region r = current.region(change.region());
        if (change instanceof LayoutChange.Add a) {
                if (r != null && r.member()) {
                    throw new IllegalArgumentException("region '" + a.region() + "' is already in the layout ("
                            + r.state().label() + " at " + r.address() + ")");
                }
                for (Region o : current.regions().values()) {
                    if (o.member() && o.address().equals(a.address())) {
                        throw new IllegalArgumentException("address " + a.address() + " is already region '" + o.id() + "'s");
                    }
                    if (o.member() && !a.key().isEmpty() && (o.key().equals(a.key()) || o.previousKey().equals(a.key()))) {
                        throw new IllegalArgumentException("key " + a.key() + " is already region '" + o.id() + "'s: each"
                                + " node has a key of its own");
                    }
                }
                next.put(a.region(), new Region(a.region(), a.address(), a.zone() == null ? a.region() : a.zone(),
                        a.capacityBytes(), RegionState.ACTIVE, a.key()));
        } else if (change instanceof LayoutChange.Drain d) {
                known(r, d.region(), current);
                if (r.state() != RegionState.ACTIVE) {
                    throw new IllegalArgumentException("region '" + d.region() + "' is already " + r.state().label());
                }
                lastActive(current, d.region(), "drain");
                next.put(d.region(), r.withState(RegionState.DRAINING));
        } else if (change instanceof LayoutChange.Set s) {
                known(r, s.region(), current);
                Region changed = new Region(r.id(), r.address(), s.zone() == null ? r.zone() : s.zone(),
                        s.capacityBytes() < 0 ? r.capacityBytes() : s.capacityBytes(), r.state(), r.key(), r.previousKey());
                if (changed.equals(r)) {
                    throw new IllegalArgumentException("region '" + r.id() + "' already has zone " + r.zone()
                            + " and capacity " + r.capacityBytes() + ": nothing to change");
                }
                next.put(r.id(), changed);
        } else if (change instanceof LayoutChange.Rekey k) {
                known(r, k.region(), current);
                if (!r.previousKey().isEmpty()) {
                    throw new IllegalArgumentException("region '" + r.id() + "' is already rotating its key: retire its"
                            + " previous key first (`cluster retire-key " + r.id() + "`)");
                }
                if (r.key().equals(k.key())) {
                    throw new IllegalArgumentException("region '" + r.id() + "' already has key " + k.key()
                            + ": nothing to change");
                }
                for (Region o : current.regions().values()) {
                    if (o.member() && (o.key().equals(k.key()) || o.previousKey().equals(k.key()))) {
                        throw new IllegalArgumentException("key " + k.key() + " is already region '" + o.id() + "'s: each"
                                + " node has a key of its own");
                    }
                }
                Region named = r.key().isEmpty() && !k.unnamed().isEmpty() && !k.unnamed().equals(k.key())
                        ? new Region(r.id(), r.address(), r.zone(), r.capacityBytes(), r.state(), k.unnamed()) : r;
                next.put(r.id(), named.key().isEmpty() ? new Region(r.id(), r.address(), r.zone(), r.capacityBytes(),
                        r.state(), k.key()) : named.rekeyed(k.key()));
        } else if (change instanceof LayoutChange.RetireKey k) {
                known(r, k.region(), current);
                if (r.previousKey().isEmpty()) {
                    throw new IllegalArgumentException("region '" + r.id() + "' has no previous key to retire");
                }
                next.put(r.id(), r.keyRetired());
        } else if (change instanceof LayoutChange.Remove m) {
                known(r, m.region(), current);
                if (r.state() == RegionState.ACTIVE) {
                    lastActive(current, m.region(), "remove");
                    String why = "region '" + m.region() + "' is active, not drained";
                    if (!force) {
                        throw new IllegalStateException(why + ": drain it first (`cluster drain " + m.region()
                                + "`), or use --force to drop it and its replicas at once");
                    }
                    warnings.add("forced: " + why + "; its replicas count no more, re-replication restores them from "
                            + "other copies where there are any");
                } else if (!drained.contains(m.region())) {
                    String why = "region '" + m.region() + "' still holds copies of kept versions (or the pass over the"
                            + " manifests that counts them has not finished since it began draining)";
                    if (!force) {
                        throw new IllegalStateException(why + ": wait until `cluster show` lists it drained, or use --force");
                    }
                    warnings.add("forced: " + why + "; versions with no other copy become unreadable");
                }
                next.put(m.region(), r.withState(RegionState.REMOVED));
        }
        long v = current.version() + 1;
        Layout probe = new Layout(v, next, current.ownersBefore(), current.ownersSince(), current.clusterVersion());
        if (!probe.owners().equals(current.owners())) {
            probe = new Layout(v, next, current.owners(), v, current.clusterVersion());
        }
        return new Applied(probe, warnings);
    }

    private static void known(Region r, String id, Layout current) {
        if (r == null || !r.member()) {
            throw new IllegalArgumentException("region '" + id + "' is not in the layout; members are " + current.members());
        }
    }

    private static void lastActive(Layout current, String id, String what) {
        if (current.owners().equals(List.of(id))) {
            throw new IllegalArgumentException("cannot " + what + " '" + id + "': it is the last active region");
        }
    }
}
