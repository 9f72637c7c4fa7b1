package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Manifest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

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
 * has an excess. The bytes short, {@code D}, are the least that must move: every copy that moves
 * goes from a region with an excess to a short one, and region {@code r} gives away
 * {@code excess(r) * D / (sum of excesses)} in expectation (never more than its excess, as the
 * excesses add up to at least {@code D}). So each copy at {@code r} moves with probability
 * {@code rate(r) = excess(r) * D / (sum of excesses) / held(r)}. The choice is made by a hash of the
 * version's file id, not at random: a version moves one copy, from home {@code h}, when its hash in
 * [0, 1) falls in {@code h}'s interval of length {@code rate(h)} (the intervals of its homes laid
 * end to end, by region id), so every node picks the same copies, a pass that meets a version
 * already moving picks it again (no double counting), and as the short regions fill the rates fall
 * and moving stops. The short region it goes to is chosen by another hash, in proportion to what
 * each is short. A version moves at most one copy, never to a region that holds it already, and
 * only when all its blocks have the same homes (the shape every upload has; a version whose blocks
 * re-replication spread apart stays), and only when the move lowers the sum of the squared distances
 * of the two regions from their targets (whole versions: a big one in a small store stays, rather
 * than be traded back and forth). The expected bytes moved are {@code D}. In a small
 * store the hashes of the few versions may all miss the rates; a node whose last pass found regions
 * short and picked nothing boosts the rates (see the three-argument constructor).
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
    private final Map<String, Long> target = new TreeMap<>();
    private final Map<String, Long> shortBy = new TreeMap<>();
    private final Map<String, Double> giveRate = new TreeMap<>();
    private long shortTotal;

    /** {@code held}: spread bytes each region holds ({@link #add} over every current version); missing regions hold 0. */
    public RebalancePlan(Layout layout, Map<String, Long> held) {
        this(layout, held, 1);
    }

    /**
     * As above, every rate multiplied by {@code boost} (at least 1; a rate stays at most 1): a node
     * whose last pass found regions short and picked no copy boosts the next, so a store of few
     * versions, whose hashes may all miss the rates, still fills.
     */
    public RebalancePlan(Layout layout, Map<String, Long> held, double boost) {
        if (!(boost >= 1)) {
            throw new IllegalArgumentException("boost must be at least 1, was " + boost);
        }
        this.layout = layout;
        this.held = Map.copyOf(held);
        List<String> active = layout.owners();
        boolean declared = active.stream().allMatch(r -> layout.region(r).capacityBytes() > 0);
        double weights = 0;
        long total = 0;
        for (String r : active) {
            weights += declared ? layout.region(r).capacityBytes() : 1;
            total += held(r);
        }
        long excessTotal = 0;
        for (String r : active) {
            long t = Math.round(total * (declared ? layout.region(r).capacityBytes() : 1) / weights);
            target.put(r, t);
            long h = held(r);
            if (t - h > TOLERANCE * t) {
                shortBy.put(r, t - h);
                shortTotal += t - h;
            } else if (h > t) {
                excessTotal += h - t;
            }
        }
        for (String r : active) {
            long excess = held(r) - target.get(r);
            if (shortTotal > 0 && excess > 0 && excessTotal > 0) {
                giveRate.put(r, Math.min(1.0,
                        boost * excess * ((double) Math.min(shortTotal, excessTotal) / excessTotal) / held(r)));
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
        if (!spread(m)) {
            return;
        }
        for (Manifest.BlockRef b : m.blocks()) {
            for (String r : b.replicas()) {
                held.merge(r, (long) b.length(), Long::sum);
            }
        }
    }

    /** Each active region's target bytes. */
    public Map<String, Long> targets() {
        return java.util.Collections.unmodifiableMap(target);
    }

    /** The regions short of their target beyond the tolerance, and by how many bytes. */
    public Map<String, Long> shortBy() {
        return java.util.Collections.unmodifiableMap(shortBy);
    }

    /** The bytes that must move: what the short regions lack. */
    public long shortTotal() {
        return shortTotal;
    }

    /**
     * The move of one copy of {@code m} this plan picks, if any. {@code up}: the regions that are up
     * now (this node's included); a move goes only to a region that is up.
     */
    public Optional<Move> decide(Manifest m, Collection<String> up) {
        if (shortTotal == 0 || !spread(m)) {
            return Optional.empty();
        }
        List<String> homes = m.blocks().get(0).replicas();
        for (Manifest.BlockRef b : m.blocks()) {
            if (!new java.util.HashSet<>(b.replicas()).equals(new java.util.HashSet<>(homes))) {
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
        for (Map.Entry<String, Long> e : shortBy.entrySet()) {
            if (!homes.contains(e.getKey()) && up.contains(e.getKey())) {
                to.add(e.getKey());
                weight += e.getValue();
            }
        }
        if (to.isEmpty()) {
            return Optional.empty();
        }
        List<String> sources = new ArrayList<>(homes);
        sources.sort(null);
        double u = unit(m.fileId(), "");
        double below = 0;
        for (String source : sources) {
            double rate = giveRate.getOrDefault(source, 0.0);
            below += rate;
            if (rate <= 0 || u >= below) {
                continue;
            }
            double pick = unit(m.fileId(), "\0to") * weight;
            String target = to.get(to.size() - 1);
            for (String t : to) {
                pick -= shortBy.get(t);
                if (pick < 0) {
                    target = t;
                    break;
                }
            }
            if (!improves(m.size(), source, target)) {
                return Optional.empty();
            }
            List<String> targets = new ArrayList<>(homes);
            targets.set(targets.indexOf(source), target);
            return Optional.of(new Move(homes, source, target, List.copyOf(targets)));
        }
        return Optional.empty();
    }

    /**
     * Whether moving {@code size} bytes from {@code source} to {@code target} lowers the sum of the
     * squared distances of the regions from their targets ({@code (d_s - size)^2 + (d_t + size)^2 <
     * d_s^2 + d_t^2}, that is {@code size < d_s - d_t} with {@code d = held - target}): each move
     * lowers that sum, so no sequence of moves trades a version back and forth.
     */
    private boolean improves(long size, String source, String target) {
        long ds = held(source) - this.target.get(source);
        long dt = held(target) - this.target.get(target);
        return size < ds - dt;
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
