package geoblocks.blockstore.core.placement;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Named groups of regions ({@code geoblocks.placement.zones}, e.g. continents) that declarative
 * policies require, forbid and spread over. A region is in at most one zone; a region in none is a
 * zone of its own. Immutable.
 */
public final class Zones {
    private final Map<String, Set<String>> members;
    private final Map<String, String> zoneOf = new LinkedHashMap<>();

    /** {@code members}: zone name to its regions; checked by the caller (PlacementSettings). */
    public Zones(Map<String, ? extends Collection<String>> members) {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        members.forEach((z, rs) -> {
            m.put(z, Set.copyOf(new TreeSet<>(rs)));
            rs.forEach(r -> zoneOf.put(r, z));
        });
        this.members = Map.copyOf(m);
    }

    public static Zones none() {
        return new Zones(Map.of());
    }

    /** The zone of {@code region}: its zone's name, or the region itself. */
    public String zoneOf(String region) {
        return zoneOf.getOrDefault(region, region);
    }

    public boolean isZone(String name) {
        return members.containsKey(name);
    }

    /** The regions a name stands for: a zone's members, or the region itself. */
    public Set<String> regionsOf(String name) {
        return members.getOrDefault(name, Set.of(name));
    }

    /** {@code name}, with the zone's regions when it is a zone: for messages. */
    public String show(String name) {
        return isZone(name) ? name + " (" + String.join(", ", new TreeSet<>(members.get(name))) + ")" : name;
    }

    public Map<String, Set<String>> members() {
        return members;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Zones z && z.members.equals(members);
    }

    @Override
    public int hashCode() {
        return members.hashCode();
    }

    @Override
    public String toString() {
        return "Zones" + members;
    }

    /** {@code names} shown one by one, for messages. */
    public String show(List<String> names) {
        return String.join(", ", names.stream().map(this::show).toList());
    }
}
