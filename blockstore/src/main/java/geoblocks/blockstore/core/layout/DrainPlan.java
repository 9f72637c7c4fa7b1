package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Manifest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a version with copies at a draining region goes, and who moves it. The owner of the name
 * in the layout (an active region, so never the draining one) moves it once its handover is done;
 * the version keeps as many copies as its most replicated block has, on active regions: first those
 * that hold most of its blocks already (so the least moves), then other active regions that are up,
 * by id. Every block then lives at those regions (a move's targets hold every block), and the copies
 * at the draining region go once the new ones are durable. Pure.
 */
public final class DrainPlan {
    private DrainPlan() {}

    /** Whether some block of {@code m} has a copy at a region {@code layout} does not place on (draining or removed). */
    public static boolean needsMove(Manifest m, Layout layout) {
        if (m.deleted() || m.isInline()) {
            return false;
        }
        for (Manifest.BlockRef b : m.blocks()) {
            for (String r : b.replicas()) {
                if (!layout.placeable(r)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The regions {@code m} moves to, or empty when it needs no move or cannot move yet (too few
     * active regions up to keep its copies). {@code up}: the active regions that are up now, this
     * node's included.
     */
    public static List<String> targets(Manifest m, Layout layout, Collection<String> up) {
        if (!needsMove(m, layout)) {
            return List.of();
        }
        int copies = 0;
        Map<String, Integer> held = new TreeMap<>();
        for (Manifest.BlockRef b : m.blocks()) {
            copies = Math.max(copies, b.replicas().size());
            for (String r : b.replicas()) {
                if (layout.placeable(r)) {
                    held.merge(r, 1, Integer::sum);
                }
            }
        }
        List<String> out = new ArrayList<>(held.keySet());
        out.sort(Comparator.comparing((String r) -> -held.get(r)).thenComparing(Comparator.naturalOrder()));
        for (String r : layout.owners()) {
            if (!held.containsKey(r) && up.contains(r)) {
                out.add(r);
            }
        }
        int want = Math.min(copies, layout.owners().size());
        if (out.size() < want) {
            return List.of();
        }
        List<String> targets = new ArrayList<>(out.subList(0, want));
        for (String r : targets) {
            if (!up.contains(r)) {
                return List.of(); // a target must be up to take its copies
            }
        }
        return targets;
    }
}
