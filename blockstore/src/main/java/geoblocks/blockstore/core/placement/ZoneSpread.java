package geoblocks.blockstore.core.placement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Copies of a block in different zones of the cluster layout (its failure domains: a zone is a group
 * of regions that may fail together, e.g. two datacenters of one provider in one city), applied to
 * the answer of a seed or built-in policy (pure). A copy whose zone an earlier copy of the answer, or
 * a region already holding the block (a replacement), already has is moved to a candidate in a zone
 * none of them has, when there is one; otherwise it stays (fewer zones than copies, or the other
 * zones are down or full: the copy count wins over the spread). The first copy never moves (for
 * {@code local...} policies it is the writer's region). The replacement copy is chosen as the policy
 * would: uniformly at random among those candidates for the random policies, else the nearest to
 * this node (so {@code localclosest} keeps its second copy as near as the zones allow).
 *
 * <p>With no zones declared (every region its own zone, as with the static config) every answer
 * stays as it is. Declarative and custom policies are not changed: they state their own rules about
 * zones ({@code geoblocks.placement.zones}).
 */
public final class ZoneSpread {
    private ZoneSpread() {}

    /**
     * {@code regions}, the policy's answer, with copies that repeat a zone moved to unused zones where
     * possible. {@code random}: whether the policy picks at random (its replacement copies are too).
     */
    public static List<String> spread(List<String> regions, PlacementInput in, boolean random) {
        if (!in.zonesDeclared() || regions.isEmpty()) {
            return regions;
        }
        Set<String> used = new HashSet<>();
        for (String h : in.held()) {
            used.add(in.zoneOf(h));
        }
        List<String> out = new ArrayList<>(regions.size());
        for (int i = 0; i < regions.size(); i++) {
            String r = regions.get(i);
            boolean movable = i > 0 || !in.held().isEmpty();
            if (movable && used.contains(in.zoneOf(r))) {
                List<String> other = new ArrayList<>();
                for (String c : in.candidates()) {
                    if (!used.contains(in.zoneOf(c)) && !out.contains(c) && !regions.subList(i + 1, regions.size()).contains(c)) {
                        other.add(c);
                    }
                }
                if (!other.isEmpty()) {
                    r = random ? other.get(in.random().nextInt(other.size())) : in.nearestFirst(other).get(0);
                }
            }
            out.add(r);
            used.add(in.zoneOf(r));
        }
        return out;
    }
}
