package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Manifest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a version's copies go so that they lie in different zones of the cluster layout, when they
 * do not (pure). Placement spreads new copies over zones ({@code ZoneSpread}); this is the same rule
 * for copies placed before a zone was declared or changed ({@code cluster set REGION --zone}).
 *
 * <p>The rule. Only a version whose blocks all share their homes (the shape every upload has), with
 * two or more homes, every one active and up, is looked at. Its homes are walked in order; the first
 * home in each zone stays (so the first copy, the uploader's for {@code local...} policies, always
 * stays), and each later home in a zone an earlier one has is replaced by an active region that is
 * up, holds no copy, and lies in a zone no kept or chosen home has: the emptiest first (fewest bytes
 * of current versions, as a drain chooses), by id among equals. A repeated home with no such region
 * left stays (fewer zones than copies, or the others down: the copy count wins over the spread).
 * Without zones declared (every region its own zone) nothing moves. Which policies take part is the
 * caller's choice: the node asks for the seed and built-in ones, those whose placement
 * {@code ZoneSpread} applies to (declarative and custom policies state their own zone rules).
 */
public final class ZoneRepair {
    private ZoneRepair() {}

    /**
     * The homes {@code m} should move to (a whole move: every block to them), or empty when its copies
     * are spread over zones as far as they can be, or it cannot move now. {@code up}: the regions that
     * are up now, this node's included; {@code heldBytes}: bytes each region holds (missing: 0).
     */
    public static List<String> targets(Manifest m, Layout layout, Collection<String> up, Map<String, Long> heldBytes) {
        if (m.deleted() || m.isInline() || m.blocks().isEmpty()) {
            return List.of();
        }
        List<String> homes = m.blocks().get(0).replicas();
        if (homes.size() < 2) {
            return List.of();
        }
        Set<String> shape = new HashSet<>(homes);
        for (Manifest.BlockRef b : m.blocks()) {
            if (!new HashSet<>(b.replicas()).equals(shape)) {
                return List.of();
            }
        }
        for (String h : homes) {
            if (!layout.placeable(h) || !up.contains(h)) {
                return List.of(); // a drain moves it, or a home cannot take part now
            }
        }
        Set<String> zones = new HashSet<>();
        List<Integer> repeated = new ArrayList<>();
        for (int i = 0; i < homes.size(); i++) {
            if (!zones.add(layout.zoneOf(homes.get(i)))) {
                repeated.add(i);
            }
        }
        if (repeated.isEmpty()) {
            return List.of();
        }
        List<String> candidates = new ArrayList<>();
        for (String r : layout.owners()) {
            if (up.contains(r) && !shape.contains(r)) {
                candidates.add(r);
            }
        }
        candidates.sort(Comparator.comparing((String r) -> heldBytes.getOrDefault(r, 0L)).thenComparing(Comparator.naturalOrder()));
        List<String> out = new ArrayList<>(homes);
        boolean changed = false;
        for (int i : repeated) {
            for (String c : candidates) {
                if (!out.contains(c) && zones.add(layout.zoneOf(c))) {
                    out.set(i, c);
                    changed = true;
                    break;
                }
            }
        }
        return changed ? List.copyOf(out) : List.of();
    }
}
