package geoblocks.blockstore.core.placement;

import geoblocks.blockstore.core.RttTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a policy sees for one decision: the deciding node ({@link #self()}) and its RTT table, the
 * latest load each region reported, the block's size, the regions that already hold the block (for a
 * replacement) and the placement component's seeded Random. {@link #candidates()} are the regions a
 * copy may go to: up, not holding the block, and with room for it above their disk reserve (a
 * region that has not reported its disk counts as having room). Immutable apart from the Random.
 */
public final class PlacementInput {
    private final RttTable rtt;
    private final Map<String, NodeLoad> loads;
    private final long blockBytes;
    private final List<String> held;
    private final Random random;
    private final List<String> candidates;
    private final Set<String> notPlaceable;
    /** Region to its zone in the cluster layout, for regions whose zone is not the region itself. */
    private final Map<String, String> zones;

    public PlacementInput(RttTable rtt, Map<String, NodeLoad> loads, long blockBytes, List<String> held, Random random) {
        this(rtt, loads, blockBytes, held, random, Set.of());
    }

    /** As above; no copy goes to {@code notPlaceable} (regions of the cluster layout that are not active: draining or removed). */
    public PlacementInput(RttTable rtt, Map<String, NodeLoad> loads, long blockBytes, List<String> held, Random random,
            Set<String> notPlaceable) {
        this(rtt, loads, blockBytes, held, random, notPlaceable, Map.of());
    }

    /**
     * As above, with the zones of the cluster layout ({@code zones}: region to zone; a region not in
     * it, or mapped to itself, is a zone of its own), which {@link ZoneSpread} spreads copies over.
     */
    public PlacementInput(RttTable rtt, Map<String, NodeLoad> loads, long blockBytes, List<String> held, Random random,
            Set<String> notPlaceable, Map<String, String> zones) {
        this.notPlaceable = Set.copyOf(notPlaceable);
        Map<String, String> z = new TreeMap<>();
        zones.forEach((region, zone) -> {
            if (!region.equals(zone)) {
                z.put(region, zone);
            }
        });
        this.zones = Map.copyOf(z);
        this.rtt = rtt;
        this.loads = Map.copyOf(loads);
        this.blockBytes = blockBytes;
        this.held = List.copyOf(held);
        this.random = random;
        List<String> c = new ArrayList<>();
        for (String r : rtt.upRegions()) {
            if (!this.held.contains(r) && fits(r) && !this.notPlaceable.contains(r)) {
                c.add(r);
            }
        }
        this.candidates = List.copyOf(c);
    }

    /** The zone of {@code region} in the cluster layout: its declared zone, or the region itself. */
    public String zoneOf(String region) {
        return zones.getOrDefault(region, region);
    }

    /** Whether the layout groups any regions into zones (else every region is a zone of its own). */
    public boolean zonesDeclared() {
        return !zones.isEmpty();
    }

    public String self() {
        return rtt.self();
    }

    public RttTable rtt() {
        return rtt;
    }

    /** The latest load {@code region} reported (this node's own included), if any. */
    public Optional<NodeLoad> load(String region) {
        return Optional.ofNullable(loads.get(region));
    }

    public long blockBytes() {
        return blockBytes;
    }

    /** Regions that already hold the block (a replacement); empty for an upload. */
    public List<String> held() {
        return held;
    }

    public Random random() {
        return random;
    }

    /** Up regions, this node included, that do not hold the block and have room for it; sorted by id. */
    public List<String> candidates() {
        return candidates;
    }

    /** True when {@code region}'s disk (as last reported) keeps its reserve after this block. */
    public boolean fits(String region) {
        NodeLoad l = loads.get(region);
        return l == null || l.disk().fits(blockBytes);
    }

    /** {@code regions} ordered this node first, then by RTT from it (ties by id). */
    public List<String> nearestFirst(Collection<String> regions) {
        return rtt.readOrder(new ArrayList<>(regions));
    }

    /**
     * The RTT table with every peer that is not a candidate counted as down: what the seed
     * policies place over. Equal to {@link #rtt()} when every up peer is a candidate.
     */
    public RttTable candidateTable() {
        Map<String, Double> up = new TreeMap<>();
        Set<String> down = new TreeSet<>(rtt.down());
        rtt.upRttMs().forEach((r, ms) -> {
            if (candidates.contains(r)) {
                up.put(r, ms);
            } else {
                down.add(r);
            }
        });
        return new RttTable(rtt.self(), up, down);
    }

    /** Why {@code region} is not a candidate, or null when it is. */
    /**
     * Whether room kept a region from taking the copy: one that is up, placeable and lacks the block
     * has no room for it. A refused placement is then told as INSUFFICIENT_STORAGE, not UNAVAILABLE.
     */
    public boolean roomIsShort() {
        for (String r : rtt.upRegions()) {
            if (!held.contains(r) && !notPlaceable.contains(r) && !fits(r)) {
                return true;
            }
        }
        return false;
    }

    public String whyNot(String region) {
        if (!rtt.isUp(region)) {
            return region + " is down";
        }
        if (held.contains(region)) {
            return region + " already holds the block";
        }
        if (notPlaceable.contains(region)) {
            return region + " is draining or removed (cluster layout): it takes no new copies";
        }
        if (!fits(region)) {
            NodeLoad l = loads.get(region);
            return region + " reports disk full: " + (l.disk().freeBytes() >> 20) + " MiB free, and a block of "
                    + blockBytes + " bytes would take it below its reserve of " + (l.disk().reserveBytes() >> 20) + " MiB";
        }
        return candidates.contains(region) ? null : region + " is not in the cluster";
    }
}
