package geoblocks.blockstore.core.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a declarative policy picks one copy from the regions its rules still allow (a pool sorted by
 * id): {@code local} this node; {@code closest} / {@code farthest} the other region with the lowest
 * / highest RTT from this node; {@code random} any of them uniformly; {@code cheapest} the one with
 * the lowest egress cost ({@code geoblocks.placement.egress-cost}), ties to the nearest.
 */
public enum Term {
    LOCAL, CLOSEST, FARTHEST, RANDOM, CHEAPEST;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Term parse(String s) {
        for (Term t : values()) {
            if (t.id().equals(s)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown term '" + s + "'; use local, closest, farthest, random or cheapest");
    }

    /** The region this term picks from {@code pool}, or empty when it has none to pick. */
    Optional<String> pick(List<String> pool, PlacementInput in, Map<String, Double> egressCost) {
        String self = in.self();
        List<String> peers = new ArrayList<>(pool);
        peers.remove(self);
        List<String> byRtt = in.nearestFirst(peers);
        return switch (this) {
            case LOCAL -> pool.contains(self) ? Optional.of(self) : Optional.empty();
            case CLOSEST -> byRtt.stream().findFirst();
            case FARTHEST -> byRtt.isEmpty() ? Optional.empty() : Optional.of(byRtt.get(byRtt.size() - 1));
            case RANDOM -> pool.isEmpty() ? Optional.empty() : Optional.of(pool.get(in.random().nextInt(pool.size())));
            case CHEAPEST -> in.nearestFirst(pool).stream()
                    .min(Comparator.comparingDouble(r -> egressCost.getOrDefault(r, Double.MAX_VALUE)));
        };
    }
}
