package geoblocks.net;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster: one node per region (id and address), the region RTT matrix, and whether nodes
 * emulate WAN latency (and loss, see {@link WanPath}) on their network path. Invariant: region ids
 * are unique, addresses are unique, with WAN emulation on the matrix has an RTT for every pair of
 * regions, and the emulated loss rate is in [0, 1).
 */
public final class ClusterConfig {
    /** What a region id may be: 1 to 32 characters of a-z, 0-9 and -, not starting with -. */
    public static final String REGION_ID = "[a-z0-9][a-z0-9-]{0,31}";

    private final Map<String, NetAddress> regions;
    private final Map<NetAddress, String> byAddress = new LinkedHashMap<>();
    private final RttMatrix rtt;
    private final boolean emulateWan;
    private final double wanLossRate;
    private final long wanSeed;

    public ClusterConfig(Map<String, NetAddress> regions, RttMatrix rtt, boolean emulateWan) {
        this(regions, rtt, emulateWan, 0, 1);
    }

    /**
     * As above; the emulated WAN (when on) also loses {@code wanLossRate} of the datagrams between
     * regions and carries TCP at the rate that loss allows ({@link WanPath}), its drops drawn from
     * {@code wanSeed}.
     */
    public ClusterConfig(Map<String, NetAddress> regions, RttMatrix rtt, boolean emulateWan, double wanLossRate,
            long wanSeed) {
        if (!(wanLossRate >= 0 && wanLossRate < 1)) {
            throw new IllegalArgumentException("wan-loss-percent must be in [0, 100), was " + wanLossRate * 100);
        }
        this.wanLossRate = wanLossRate;
        this.wanSeed = wanSeed;
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one region");
        }
        this.regions = Collections.unmodifiableMap(new LinkedHashMap<>(regions));
        for (Map.Entry<String, NetAddress> e : this.regions.entrySet()) {
            String prev = byAddress.put(e.getValue(), e.getKey());
            if (prev != null) {
                throw new IllegalArgumentException("regions '" + prev + "' and '" + e.getKey()
                        + "' share address " + e.getValue());
            }
        }
        for (String a : this.regions.keySet()) {
            for (String b : this.regions.keySet()) {
                if (emulateWan && !rtt.has(a, b)) {
                    throw new IllegalArgumentException("no RTT configured between '" + a + "' and '" + b + "'");
                }
            }
        }
        this.rtt = rtt;
        this.emulateWan = emulateWan;
    }

    /**
     * Reads {@code geoblocks.cluster}: {@code regions = [{id, address}]}, {@code rtt-ms {a {b = ms}}}
     * {@code emulate-wan}, and the emulated WAN's {@code wan-loss-percent} (default 0) and
     * {@code wan-seed} (default 1).
     */
    public static ClusterConfig from(Config root) {
        Config c = root.getConfig("geoblocks.cluster");
        Map<String, NetAddress> regions = new LinkedHashMap<>();
        for (Config r : c.getConfigList("regions")) {
            String id = r.getString("id");
            if (!id.matches(REGION_ID)) {
                throw new IllegalArgumentException("region id must match " + REGION_ID + ", was '" + id + "'");
            }
            if (regions.put(id, address(r, id)) != null) {
                throw new IllegalArgumentException("region '" + id + "' is listed twice");
            }
        }
        RttMatrix m = new RttMatrix();
        ConfigObject rows = c.getObject("rtt-ms");
        for (Map.Entry<String, ConfigValue> row : rows.entrySet()) {
            Config cols = rows.toConfig().getConfig(quote(row.getKey()));
            for (String to : cols.root().keySet()) {
                try {
                    m.put(row.getKey(), to, cols.getDouble(quote(to)));
                } catch (ConfigException.WrongType e) {
                    throw new IllegalArgumentException("rtt-ms." + row.getKey() + "." + to + " must be a number");
                }
            }
        }
        double lossPercent = c.hasPath("wan-loss-percent") ? c.getDouble("wan-loss-percent") : 0;
        long seed = c.hasPath("wan-seed") ? c.getLong("wan-seed") : 1;
        return new ClusterConfig(regions, m, c.getBoolean("emulate-wan"), lossPercent / 100, seed);
    }

    /** Region {@code id}'s {@code address}; IllegalArgumentException naming the region and what is wrong. */
    private static NetAddress address(Config region, String id) {
        String typed = region.getString("address"); // unquoted, [::1]:47100 is a HOCON syntax error saying to quote it
        try {
            return NetAddress.parse(typed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("geoblocks.cluster.regions: region '" + id + "': " + e.getMessage(), e);
        }
    }

    private static String quote(String key) {
        return "\"" + key + "\"";
    }

    public Map<String, NetAddress> regions() {
        return regions;
    }

    public List<String> regionIds() {
        return List.copyOf(regions.keySet());
    }

    public NetAddress address(String region) {
        NetAddress a = regions.get(region);
        if (a == null) {
            throw new IllegalArgumentException("unknown region '" + region + "'; known: " + regions.keySet());
        }
        return a;
    }

    public Optional<String> regionOf(NetAddress address) {
        return Optional.ofNullable(byAddress.get(address));
    }

    public RttMatrix rtt() {
        return rtt;
    }

    public boolean emulateWan() {
        return emulateWan;
    }

    /** Fraction of datagrams the emulated WAN loses between regions (TCP is paced instead, see {@link WanPath}). */
    public double wanLossRate() {
        return wanLossRate;
    }

    /** Seed of the emulated WAN's drops (each node draws from it and its region id). */
    public long wanSeed() {
        return wanSeed;
    }

    /** This cluster with the emulated WAN's loss rate set to {@code rate} (drops drawn from {@code seed}). */
    public ClusterConfig withWanLoss(double rate, long seed) {
        return new ClusterConfig(regions, rtt, emulateWan, rate, seed);
    }
}
