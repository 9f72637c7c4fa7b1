package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An immutable snapshot of what one node knows about the others: for each peer that is up, its
 * robust RTT estimate in ms; the peers that are down or not yet heard from. Ties in RTT are broken
 * by region id so rankings are deterministic.
 */
public final class RttTable {
    private final String self;
    private final Map<String, Double> upRttMs;
    private final Set<String> down;

    public RttTable(String self, Map<String, Double> upRttMs, Set<String> down) {
        this.self = self;
        this.upRttMs = Collections.unmodifiableMap(new TreeMap<>(upRttMs));
        this.down = Collections.unmodifiableSet(new TreeSet<>(down));
    }

    public static RttTable alone(String self) {
        return new RttTable(self, Map.of(), Set.of());
    }

    public String self() {
        return self;
    }

    /** True for this node itself and every peer that answers probes. */
    public boolean isUp(String region) {
        return region.equals(self) || upRttMs.containsKey(region);
    }

    /** RTT estimate in ms to a region: 0 for self, empty when the region is down or unknown. */
    public Optional<Double> rttMs(String region) {
        return region.equals(self) ? Optional.of(0.0) : Optional.ofNullable(upRttMs.get(region));
    }

    /** Peers that are up, nearest first (self excluded). */
    public List<String> ranking() {
        List<String> peers = new ArrayList<>(upRttMs.keySet());
        peers.sort(Comparator.comparingDouble((String r) -> upRttMs.get(r)).thenComparing(r -> r));
        return peers;
    }

    /** Self first, then every up peer nearest first: the order to try replicas in. */
    public List<String> readOrder(List<String> replicas) {
        List<String> order = new ArrayList<>(replicas);
        order.sort(Comparator.comparing((String r) -> !r.equals(self))
                .thenComparingDouble(r -> rttMs(r).orElse(Double.MAX_VALUE))
                .thenComparing(r -> r));
        return order;
    }

    public Optional<String> closest() {
        List<String> r = ranking();
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }

    public Optional<String> farthest() {
        List<String> r = ranking();
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(r.size() - 1));
    }

    /** Self and every up peer, sorted by id. */
    public List<String> upRegions() {
        TreeSet<String> all = new TreeSet<>(upRttMs.keySet());
        all.add(self);
        return new ArrayList<>(all);
    }

    public Map<String, Double> upRttMs() {
        return upRttMs;
    }

    public Set<String> down() {
        return down;
    }

    /**
     * Of {@code peers}, those whose first probes have not settled, in their order: a peer settles
     * when this table has it up (measured), or once {@code downAfterNanos} (down-after) has passed
     * since the node started ({@code sinceStartNanos} ago) without it coming up, so it counts as down.
     * Empty from down-after on, whatever the peers do later.
     */
    public List<String> unsettled(List<String> peers, long sinceStartNanos, long downAfterNanos) {
        if (sinceStartNanos >= downAfterNanos) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String p : peers) {
            if (!isUp(p)) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "RttTable(" + self + " up=" + upRttMs + " down=" + down + ")";
    }
}
