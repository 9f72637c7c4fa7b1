package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a version with copies at a draining region goes, and who moves it. Every version a node
 * keeps counts, the current one and the earlier ones kept for {@code get --version} alike
 * ({@link #toMove}): a region is drained only when no kept version has a copy there. The owner of
 * the name in the layout (an active region, so never the draining one) moves it once its handover
 * is done, block by block: each block keeps its copies at active regions and replaces each copy
 * at a region the layout does not place on by one at another active region that is up, those
 * holding the fewest bytes of current versions first (by id among equals), so a drain fills a
 * newcomer before the others, and only the drained copies move. The copies at the draining region
 * go once the new ones are durable. Pure.
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
    public static List<List<String>> targets(Manifest m, Layout layout, Collection<String> up) {
        return targets(m, layout, up, Map.of());
    }

    /**
     * Each block's homes after the move ({@code MovePlan.blockwise}), or empty when {@code m} needs no
     * move or cannot move yet. {@code up}: the active regions that are up now, this node's included;
     * {@code heldBytes}: bytes each region holds (missing: 0), to fill the emptiest first. A block
     * keeps its homes at active regions, in order, and gets a new home for each copy it has where the
     * layout does not place (up to as many copies as there are active regions): among the active
     * regions that are up and hold no copy of it, those in zones of the layout the block has no other
     * copy in first, then the emptiest, then by id. So only copies at draining or removed regions
     * move, and blocks of one version that shared their homes share them after (the choice depends on
     * the kept homes only). It waits while a kept home or a needed new one is down.
     */
    public static List<List<String>> targets(Manifest m, Layout layout, Collection<String> up, Map<String, Long> heldBytes) {
        if (!needsMove(m, layout)) {
            return List.of();
        }
        List<String> candidates = new ArrayList<>();
        for (String r : layout.owners()) {
            if (up.contains(r)) {
                candidates.add(r);
            }
        }
        candidates.sort(Comparator.comparing((String r) -> heldBytes.getOrDefault(r, 0L)).thenComparing(Comparator.naturalOrder()));
        List<List<String>> out = new ArrayList<>();
        for (Manifest.BlockRef b : m.blocks()) {
            List<String> homes = new ArrayList<>();
            int moving = 0;
            for (String r : b.replicas()) {
                if (layout.placeable(r)) {
                    if (!up.contains(r)) {
                        return List.of(); // a kept home is down: wait rather than decide without it
                    }
                    homes.add(r);
                } else {
                    moving++;
                }
            }
            int want = Math.min(b.replicas().size(), layout.owners().size());
            Set<String> zones = new HashSet<>();
            homes.forEach(r -> zones.add(layout.zoneOf(r)));
            List<String> later = new ArrayList<>();
            for (String r : candidates) {
                if (homes.size() >= want || moving == 0) {
                    break;
                }
                if (homes.contains(r)) {
                    continue;
                }
                if (zones.add(layout.zoneOf(r))) {
                    homes.add(r);
                    moving--;
                } else {
                    later.add(r);
                }
            }
            for (String r : later) {
                if (homes.size() >= want || moving == 0) {
                    break;
                }
                homes.add(r);
                moving--;
            }
            if (homes.size() < want) {
                return List.of(); // too few active regions up to keep its copies
            }
            out.add(List.copyOf(homes));
        }
        return out;
    }
}
