package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Manifest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * Which copies move so that the active regions of a {@link Layout} (a newcomer above all) hold their
 * share of the copies that placement spreads, moving as little as possible. Pure.
 *
 * <p>The rule. Only <em>spread</em> copies take part: those of current versions whose policy puts
 * copies on regions chosen only to spread them ({@link #SPREAD}: {@code random}, {@code tworandom},
 * {@code balanced}; a new layout's placement would send them to a newcomer in proportion to its
 * share). Copies that a policy pins to a region ({@code local}, the local copy of
 * {@code localclosest}, zones and rules of declarative policies) stay where they are: no layout
 * change alters where those belong. Each active region's <em>target</em> is the cluster's spread
 * bytes times its weight over the sum of weights, where the weight is the region's declared
 * capacity when every active region declares one, else 1. A region holding less than its target
 * by more than {@link #TOLERANCE} of it is <em>short</em>; a region holding more than its target
 * has an excess. The bytes short, {@code D}, are the least that must move.
 *
 * <p>The moves of one pass over the versions are picked together, against a <em>running count</em>:
 * it starts as the pass's {@code held}, and every move {@link #decide} picks is applied to it. A
 * version moves one copy, from a home that is above its target on the running count to a region
 * that is below its target there and short on either count, and only when the move lowers the sum of the
 * squared distances of the two regions from their targets (whole versions: a big one in a small
 * store stays, rather than be traded back and forth). So the moves picked from one count add up to
 * about {@code D} (the last one may pass a target by less than its size), never more: a short
 * region fills up to its target and no further, and a giving region gives down to its target and
 * no further. Which home gives is chosen by a hash of the version's file id among its homes with an
 * excess, in proportion to their excess; the short region that gets it by another hash, in
 * proportion to what each still lacks. A version moves at most one copy, never to a region that
 * holds it already, nor into a zone of the layout where another copy of the version stays (so a
 * fill never undoes the zone spread placement made), and only when all its blocks have the same
 * homes (the shape every upload has; a version whose blocks re-replication spread apart stays).
 * A fill moves only versions that are still where their upload put them (location epoch 0): one that
 * any move has moved (an earlier fill, a drain, re-replication, an operator's {@code client move})
 * stays. A fill corrects where placement put a version under an older layout, once; without that
 * rule a workload that keeps writing shifts the counts by a file at a time, and small versions were
 * traded back and forth between regions near their targets (Membership seed 2123: one version moved
 * four times in 8 s).
 *
 * <p>Every node asks {@link #decide} about every current version in name order, not only about those
 * it moves itself, so nodes that counted the same bytes pick the same moves, and a move one node
 * starts is counted by the others. A move picked in a pass is counted at its targets in the count
 * that pass makes ({@link #add(Map, Manifest, Move)}), as it is under way; in the next pass
 * {@link #recount} first puts the version back where it is now (done: nothing changes; under way or
 * never started: it is decided again, so it is neither counted twice nor forgotten). Without the
 * running count, two large versions picked from one count could both go to a region short of less
 * than their sum, leave it with an excess and their old home short, and the next count would send
 * them back: for ever, as nodes picking from the same count do not see each other's moves.
 */
public final class RebalancePlan {
    /** Policies whose copies spread over the regions, so they follow a layout change. */
    public static final Set<String> SPREAD = Set.of("random", "tworandom", "balanced");
    /** A region within this fraction of its target is not short. */
    public static final double TOLERANCE = 0.10;

    /** One copy to move: the version's homes before, the region that gives its copy and the one that gets it. */
    public record Move(List<String> from, String source, String target, List<String> targets) {}

    private final Layout layout;
    private final Map<String, Long> held;
    /** {@code held} with the moves picked so far applied (and versions recounted where they are). */
    private final Map<String, Long> running;
    private final Map<String, Long> target = new TreeMap<>();
    private final Map<String, Long> shortBy = new TreeMap<>();
    private long shortTotal;

    /** {@code held}: spread bytes each region holds ({@link #add} over every current version); missing regions hold 0. */
    public RebalancePlan(Layout layout, Map<String, Long> held) {
        this.layout = layout;
        this.held = Map.copyOf(held);
        this.running = new TreeMap<>(held);
        List<String> active = layout.owners();
        boolean declared = active.stream().allMatch(r -> layout.region(r).capacityBytes() > 0);
        double weights = 0;
        long total = 0;
        for (String r : active) {
            weights += declared ? layout.region(r).capacityBytes() : 1;
            total += held(r);
        }
        for (String r : active) {
            long t = Math.round(total * (declared ? layout.region(r).capacityBytes() : 1) / weights);
            target.put(r, t);
            long h = held(r);
            if (t - h > TOLERANCE * t) {
                shortBy.put(r, t - h);
                shortTotal += t - h;
            }
        }
    }

    private long held(String r) {
        return held.getOrDefault(r, 0L);
    }

    /** Whether {@code m} counts in the balance: a live version with blocks, of a spreading policy. */
    public static boolean spread(Manifest m) {
        return !m.deleted() && !m.isInline() && !m.blocks().isEmpty() && SPREAD.contains(m.policy());
    }

    /** Adds the bytes {@code m}'s copies put at each region to {@code held} (when it is spread). */
    public static void add(Map<String, Long> held, Manifest m) {
        add(held, m, null);
    }

    /**
     * As {@link #add(Map, Manifest)}, but when {@code picked} (a move of {@code m} a plan picked; may be
     * null) every block counts at its targets: the move is under way.
     */
    public static void add(Map<String, Long> held, Manifest m, Move picked) {
        if (!spread(m)) {
            return;
        }
        for (Manifest.BlockRef b : m.blocks()) {
            for (String r : picked == null ? b.replicas() : picked.targets()) {
                held.merge(r, (long) b.length(), Long::sum);
            }
        }
    }

    /**
     * {@code m} was counted in this plan's {@code held} at {@code countedAt} (the targets of a move
     * picked for it in the last pass); from now on it counts where its blocks are (the move is done,
     * or is decided again by {@link #decide}).
     */
    public void recount(Manifest m, List<String> countedAt) {
        if (!spread(m)) {
            return;
        }
        for (Manifest.BlockRef b : m.blocks()) {
            countedAt.forEach(r -> running.merge(r, -(long) b.length(), Long::sum));
            b.replicas().forEach(r -> running.merge(r, (long) b.length(), Long::sum));
        }
    }

    /** Each active region's target bytes. */
    public Map<String, Long> targets() {
        return Collections.unmodifiableMap(target);
    }

    /** The regions short of their target beyond the tolerance, and by how many bytes. */
    public Map<String, Long> shortBy() {
        return Collections.unmodifiableMap(shortBy);
    }

    /** The bytes that must move: what the short regions lack. */
    public long shortTotal() {
        return shortTotal;
    }

    /**
     * The move of one copy of {@code m} this plan picks, if any, applied to the running count.
     * {@code up}: the regions that are up now (this node's included); a move goes only to a region
     * that is up. Ask once per version and pass.
     */
    public Optional<Move> decide(Manifest m, Collection<String> up) {
        if (!spread(m) || m.locEpoch() > 0) {
            return Optional.empty(); // a version whose homes changed since its upload stays (see the class's doc)
        }
        List<String> homes = m.blocks().get(0).replicas();
        for (Manifest.BlockRef b : m.blocks()) {
            if (!new HashSet<>(b.replicas()).equals(new HashSet<>(homes))) {
                return Optional.empty();
            }
        }
        for (String r : homes) {
            if (!layout.placeable(r) || !up.contains(r)) {
                return Optional.empty(); // a drain moves it, or a home cannot give its copy now
            }
        }
        List<String> to = new ArrayList<>();
        long weight = 0;
        for (String r : target.keySet()) {
            long below = target.get(r) - running(r);
            boolean wasShort = shortBy.containsKey(r) || below > TOLERANCE * target.get(r);
            if (wasShort && below > 0 && !homes.contains(r) && up.contains(r)) {
                to.add(r);
                weight += below;
            }
        }
        if (to.isEmpty()) {
            return Optional.empty();
        }
        long size = 0;
        for (Manifest.BlockRef b : m.blocks()) {
            size += b.length();
        }
        List<String> sources = new ArrayList<>(homes);
        sources.sort(null);
        long excess = 0;
        for (String h : sources) {
            excess += Math.max(0, running(h) - target.getOrDefault(h, 0L));
        }
        if (excess == 0) {
            return Optional.empty();
        }
        String source = pick(sources, unit(m.fileId(), ""), excess, r -> running(r) - target.getOrDefault(r, 0L));
        Set<String> keptZones = new HashSet<>();
        for (String h : homes) {
            if (!h.equals(source)) {
                keptZones.add(layout.zoneOf(h));
            }
        }
        if (to.removeIf(r -> keptZones.contains(layout.zoneOf(r)))) { // never into a zone its other copies have
            weight = 0;
            for (String r : to) {
                weight += this.target.get(r) - running(r);
            }
            if (to.isEmpty()) {
                return Optional.empty();
            }
        }
        String target = pick(to, unit(m.fileId(), "\0to"), weight, r -> this.target.get(r) - running(r));
        if (!improves(size, source, target)) {
            return Optional.empty();
        }
        running.merge(source, -size, Long::sum);
        running.merge(target, size, Long::sum);
        List<String> targets = new ArrayList<>(homes);
        targets.set(targets.indexOf(source), target);
        return Optional.of(new Move(homes, source, target, List.copyOf(targets)));
    }

    /** The region of {@code among} that {@code u} in [0, 1) falls on, each weighing its positive {@code weight} of {@code total}. */
    private static String pick(List<String> among, double u, long total, ToLongFunction<String> weight) {
        double left = u * total;
        String last = null;
        for (String r : among) {
            long w = weight.applyAsLong(r);
            if (w <= 0) {
                continue;
            }
            last = r;
            left -= w;
            if (left < 0) {
                return r;
            }
        }
        return last;
    }

    /**
     * Whether moving {@code size} bytes from {@code source} to {@code target} lowers the sum of the
     * squared distances of the regions from their targets on the running count ({@code (d_s - size)^2
     * + (d_t + size)^2 < d_s^2 + d_t^2}, that is {@code size < d_s - d_t} with {@code d = running -
     * target}), with the source above its target: each move lowers that sum, so no sequence of moves
     * trades a version back and forth.
     */
    private boolean improves(long size, String source, String target) {
        long ds = running(source) - this.target.get(source);
        long dt = running(target) - this.target.get(target);
        return ds > 0 && size < ds - dt;
    }

    private long running(String r) {
        return running.getOrDefault(r, 0L);
    }

    /** A number in [0, 1) from a 64-bit FNV-1a hash of {@code a} and {@code b}, mixed (SplitMix64's finalizer). */
    static double unit(String a, String b) {
        long h = 0xcbf29ce484222325L;
        for (byte x : (a + '\0' + b).getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (x & 0xff)) * 0x100000001b3L;
        }
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        h ^= h >>> 31;
        return (h >>> 11) * 0x1.0p-53;
    }
}
