package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a version with copies at a draining region goes, and who moves it. Every version a node
 * keeps counts, the current one and the earlier ones kept for {@code get --version} alike
 * ({@link #toMove}): a region is drained only when no kept version has a copy there. The owner of
 * the name in the layout (an active region, so never the draining one) moves it once its handover
 * is done; the version keeps as many copies as its most replicated block has, on active regions:
 * first those that hold most of its blocks already (so the least moves), then other active regions
 * that are up, those holding the fewest bytes of current versions first (by id among equals), so
 * a drain fills a newcomer before the others. Every block then lives at those regions (a move's
 * targets hold every block), and the copies at the draining region go once the new ones are
 * durable. Pure.
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

    /** The versions of {@code h} with a copy where {@code layout} does not place, newest first. */
    public static List<Manifest> toMove(ManifestHistory h, Layout layout) {
        List<Manifest> out = new ArrayList<>();
        for (int i = h.versions().size() - 1; i >= 0; i--) {
            if (needsMove(h.versions().get(i), layout)) {
                out.add(h.versions().get(i));
            }
        }
        return out;
    }

    /** The regions {@code m} has a copy at that {@code layout} does not place on. */
    public static Set<String> unplaceable(Manifest m, Layout layout) {
        Set<String> out = new TreeSet<>();
        for (Manifest.BlockRef b : m.blocks()) {
            for (String r : b.replicas()) {
                if (!layout.placeable(r)) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** As {@link #targets(Manifest, Layout, Collection, Map)} with no byte counts (other regions by id). */
    public static List<String> targets(Manifest m, Layout layout, Collection<String> up) {
        return targets(m, layout, up, Map.of());
    }

    /**
     * The regions {@code m} moves to, or empty when it needs no move or cannot move yet (too few
     * active regions up to keep its copies). {@code up}: the active regions that are up now, this
     * node's included; {@code heldBytes}: bytes each region holds (missing: 0), to fill the emptiest
     * first. The active regions that hold most of its blocks stay; the others are chosen among the
     * active regions up, those in zones of the layout the version has no copy in first, then the
     * emptiest first.
     */
    public static List<String> targets(Manifest m, Layout layout, Collection<String> up, Map<String, Long> heldBytes) {
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
        List<String> others = new ArrayList<>();
        for (String r : layout.owners()) {
            if (!held.containsKey(r) && up.contains(r)) {
                others.add(r);
            }
        }
        others.sort(Comparator.comparing((String r) -> heldBytes.getOrDefault(r, 0L)).thenComparing(Comparator.naturalOrder()));
        // regions in zones the version does not have yet first (zones of the layout: failure domains)
        Set<String> zones = new java.util.HashSet<>();
        for (String r : out) {
            zones.add(layout.zoneOf(r));
        }
        List<String> later = new ArrayList<>();
        for (String r : others) {
            if (zones.add(layout.zoneOf(r))) {
                out.add(r);
            } else {
                later.add(r);
            }
        }
        out.addAll(later);
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
