package geoblocks.blockstore.core.layout;

import geoblocks.blockstore.core.Owners;
import geoblocks.net.ClusterVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster's membership as versioned data: a version number, every region with its address,
 * zone, capacity and state ({@link Region}), and the owner assignment of names derived from it.
 * Owners are the {@code ACTIVE} regions, by rendezvous hashing ({@link Owners}). When a change
 * alters the owner set, the layout keeps the owner set before it ({@link #ownersBefore()}) and the
 * version that changed it ({@link #ownersSince()}), so nodes can hand the names that moved over
 * safely ({@link OwnerHandover}).
 *
 * <p>Version 0 is the layout a node derives from its static config ({@link #fromConfig}); every
 * applied change ({@link LayoutChanges#apply}) makes version + 1. Nodes converge on the newest
 * layout ({@link #newerThan}): the higher version, and for two different layouts of one version (two
 * operators applied different changes at once at two nodes) the higher {@link #digest()}, so
 * every node picks the same one. Immutable; invariant: at least one region is active.
 */
public final class Layout {
    private final long version;
    private final SortedMap<String, Region> regions;
    private final List<String> ownersBefore;
    private final long ownersSince;
    private final List<String> owners;
    private final long digest;
    private final ClusterVersion clusterVersion;

    /** A layout at cluster version 0.2 (the first, which no layout names). */
    public Layout(long version, Map<String, Region> regions, List<String> ownersBefore, long ownersSince) {
        this(version, regions, ownersBefore, ownersSince, ClusterVersion.V0_2);
    }

    /**
     * {@code clusterVersion}: the lowest release every member runs, as {@code cluster finalize} last raised it
     * (see {@link ClusterUpgrade}): what a release behind it cannot read may be switched on, and nodes refuse
     * peers below it.
     */
    public Layout(long version, Map<String, Region> regions, List<String> ownersBefore, long ownersSince,
            ClusterVersion clusterVersion) {
        if (version < 0) {
            throw new IllegalArgumentException("layout version must not be negative, was " + version);
        }
        if (ownersSince < 0 || ownersSince > version) {
            throw new IllegalArgumentException("owners-since must be in 0.." + version + ", was " + ownersSince);
        }
        TreeMap<String, Region> copy = new TreeMap<>();
        for (Map.Entry<String, Region> e : regions.entrySet()) {
            if (!e.getKey().equals(e.getValue().id())) {
                throw new IllegalArgumentException("region '" + e.getValue().id() + "' listed as '" + e.getKey() + "'");
            }
            copy.put(e.getKey(), e.getValue());
        }
        Map<String, String> byAddress = new TreeMap<>();
        for (Region r : copy.values()) {
            if (r.member()) {
                String prev = byAddress.put(r.address(), r.id());
                if (prev != null) {
                    throw new IllegalArgumentException("regions '" + prev + "' and '" + r.id() + "' share address " + r.address());
                }
            }
        }
        this.version = version;
        this.regions = Collections.unmodifiableSortedMap(copy);
        this.ownersBefore = List.copyOf(new TreeSet<>(ownersBefore));
        this.ownersSince = ownersSince;
        List<String> o = new ArrayList<>();
        for (Region r : copy.values()) {
            if (r.state() == RegionState.ACTIVE) {
                o.add(r.id());
            }
        }
        if (o.isEmpty()) {
            throw new IllegalArgumentException("a layout needs at least one active region; version " + version + " has none");
        }
        this.owners = List.copyOf(o);
        this.clusterVersion = Objects.requireNonNull(clusterVersion, "clusterVersion");
        if (clusterVersion.compareTo(ClusterVersion.V0_2) < 0) {
            throw new IllegalArgumentException("the cluster version is 0.2 or later, was " + clusterVersion);
        }
        this.digest = LayoutCodec.digest(this);
    }

    /**
     * Version 0: every region of the static config, active, in its own zone, capacity not declared.
     * {@code addresses}: region id to {@code host:port}.
     */
    public static Layout fromConfig(Map<String, String> addresses) {
        Map<String, Region> rs = new TreeMap<>();
        addresses.forEach((id, a) -> rs.put(id, new Region(id, a, id, 0, RegionState.ACTIVE)));
        return new Layout(0, rs, List.of(), 0);
    }

    public long version() {
        return version;
    }

    /** The cluster's version: the lowest release its members may run (0.2 until {@code cluster finalize} raised it). */
    public ClusterVersion clusterVersion() {
        return clusterVersion;
    }

    /** Every region, removed ones included, by id. */
    public SortedMap<String, Region> regions() {
        return regions;
    }

    /** The region {@code id}, or null. */
    public Region region(String id) {
        return regions.get(id);
    }

    /**
     * The regions no new copy may go to: every region of the layout that is not active, draining ones
     * and removed ones (a removed region's node may still answer RTT probes for a while, and the
     * placement component must not take its last RTT table's word for it).
     */
    public Set<String> notPlaceable() {
        Set<String> out = new TreeSet<>(regions.keySet());
        out.removeAll(owners);
        return out;
    }

    /** The zone of region {@code id}: its declared zone, or the region itself (also for a region not in the layout). */
    public String zoneOf(String id) {
        Region r = regions.get(id);
        return r == null ? id : r.zone();
    }

    /** The regions that are not removed (the nodes of the cluster), sorted. */
    public List<String> members() {
        List<String> m = new ArrayList<>();
        for (Region r : regions.values()) {
            if (r.member()) {
                m.add(r.id());
            }
        }
        return m;
    }

    /** The members' addresses by region id. */
    public Map<String, String> addresses() {
        Map<String, String> m = new TreeMap<>();
        for (Region r : regions.values()) {
            if (r.member()) {
                m.put(r.id(), r.address());
            }
        }
        return m;
    }

    /** The regions that take new replicas and own names: the active ones, sorted. */
    public List<String> owners() {
        return owners;
    }

    /** Whether new replicas may go to {@code id} (it is active). */
    public boolean placeable(String id) {
        Region r = regions.get(id);
        return r != null && r.state() == RegionState.ACTIVE;
    }

    /** The owner set before the last change of owners (empty when the owners never changed). */
    public List<String> ownersBefore() {
        return ownersBefore;
    }

    /** The version that last changed the owner set (0: never). */
    public long ownersSince() {
        return ownersSince;
    }

    /** The region that decides conditional writes of {@code name} under this layout. */
    public String ownerOf(String name) {
        return Owners.ownerOf(name, owners);
    }

    /** The owner of {@code name} before the last change of owners (this layout's owner when none). */
    public String previousOwnerOf(String name) {
        return ownersBefore.isEmpty() ? ownerOf(name) : Owners.ownerOf(name, ownersBefore);
    }

    /** Whether the last change of owners moved {@code name} to another owner. */
    public boolean moved(String name) {
        return !previousOwnerOf(name).equals(ownerOf(name));
    }

    /** 64 bits of SHA-256 over the encoding: two layouts of one version compare by it. */
    public long digest() {
        return digest;
    }

    /** Whether this layout supersedes {@code other}: a higher version, or the same version and a higher digest. */
    public boolean newerThan(Layout other) {
        if (version != other.version) {
            return version > other.version;
        }
        return Long.compareUnsigned(digest, other.digest) > 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Layout l && l.version == version && l.regions.equals(regions)
                && l.ownersBefore.equals(ownersBefore) && l.ownersSince == ownersSince
                && l.clusterVersion.equals(clusterVersion);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(digest);
    }

    @Override
    public String toString() {
        return "Layout[v" + version + " " + regions.values() + " ownersBefore=" + ownersBefore + "@" + ownersSince
                + (clusterVersion.equals(ClusterVersion.V0_2) ? "" : " cluster " + clusterVersion) + "]";
    }
}
