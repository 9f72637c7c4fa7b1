package geoblocks.sim.net;

import geoblocks.net.RttMatrix;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import se.sics.kompics.network.Transport;

/**
 * The emulated network of one simulation, as plain serializable data (the simulator serializes the
 * scenario and rebuilds it inside its class loader): which region each host ip is in, the RTT
 * between regions, bottleneck links, jitter, random loss (on every path, or with
 * {@code lossBetweenRegionsOnly} only between two different regions, a LAN losing nothing) and partitions (regions cut off from each
 * other for a while). Invariant: every region a host is in has an RTT to every other such region;
 * rates and probabilities are in range.
 *
 * <p>Link keys: {@code "a>b"} is the directed path from region a to region b, {@code "up:a"} the
 * shared uplink of region a (all traffic leaving it), {@code "down:a"} its shared downlink,
 * {@code "lan:a"} the link traffic within region a crosses.
 */
public record NetworkSpec(
        Map<String, String> hostRegions,
        Map<String, Double> rttMs,
        Map<String, LinkSpec> links,
        double jitterMs,
        double lossRate,
        double localRttMs,
        List<Partition> partitions,
        int udpOverheadBytes,
        int tcpOverheadBytes,
        boolean lossBetweenRegionsOnly) implements Serializable {

    public NetworkSpec {
        hostRegions = new TreeMap<>(hostRegions);
        partitions = new ArrayList<>(partitions);
        rttMs = new TreeMap<>(rttMs);
        links = new TreeMap<>(links);
        if (!(jitterMs >= 0)) {
            throw new IllegalArgumentException("jitter must be >= 0 ms, was " + jitterMs);
        }
        if (!(lossRate >= 0 && lossRate < 1)) {
            throw new IllegalArgumentException("loss rate must be in [0, 1), was " + lossRate);
        }
        if (!(localRttMs >= 0)) {
            throw new IllegalArgumentException("local rtt must be >= 0 ms, was " + localRttMs);
        }
        if (udpOverheadBytes < 0 || udpOverheadBytes > 1000 || tcpOverheadBytes < 0 || tcpOverheadBytes > 1000) {
            throw new IllegalArgumentException("per-packet overhead must be in 0..1000 bytes, was udp "
                    + udpOverheadBytes + " / tcp " + tcpOverheadBytes);
        }
        for (String a : hostRegions.values()) {
            for (String b : hostRegions.values()) {
                if (!a.equals(b) && !rttMs.containsKey(pairKey(a, b))) {
                    throw new IllegalArgumentException("no RTT between regions '" + a + "' and '" + b + "'");
                }
            }
        }
    }

    /**
     * The matrix region of a region name: names may carry a tag ({@code "seoul#2"}) so that
     * several independent copies of a region (with their own links) share one simulation.
     */
    static String base(String region) {
        int i = region.indexOf('#');
        return i < 0 ? region : region.substring(0, i);
    }

    /**
     * Bytes a packet of this transport occupies on a link beyond its message's
     * {@code NetMsg.wireSize()}: headers the messages do not count (Ethernet, IP, UDP, the
     * network's own framing and seal), 0 unless configured.
     */
    public int overheadBytes(Transport t) {
        return t == Transport.TCP ? tcpOverheadBytes : udpOverheadBytes;
    }

    static String pairKey(String a, String b) {
        return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
    }

    /** RTT between two regions (0 within one region's LAN is {@link #localRttMs}). */
    public double rttMs(String a, String b) {
        if (a.equals(b)) {
            return localRttMs;
        }
        Double d = rttMs.get(pairKey(a, b));
        if (d == null) {
            throw new IllegalArgumentException("no RTT between regions '" + a + "' and '" + b + "'");
        }
        return d;
    }

    public static Builder builder(RttMatrix matrix) {
        return new Builder(matrix);
    }

    /** Collects hosts and links; RTTs come from an {@link RttMatrix}. */
    public static final class Builder {
        private final RttMatrix matrix;
        private final Map<String, String> hosts = new TreeMap<>();
        private final Map<String, LinkSpec> links = new TreeMap<>();
        private double jitterMs;
        private double lossRate;
        private double localRttMs = 0.5;
        private final List<Partition> partitions = new ArrayList<>();
        private int udpOverheadBytes;
        private int tcpOverheadBytes;
        private boolean lossBetweenRegionsOnly;

        Builder(RttMatrix matrix) {
            this.matrix = matrix;
        }

        public Builder host(String ip, String region) {
            hosts.put(ip, region);
            return this;
        }

        /** A bottleneck on the directed path from region {@code from} to region {@code to}. */
        public Builder path(String from, String to, LinkSpec link) {
            links.put(from + ">" + to, link);
            return this;
        }

        public Builder uplink(String region, LinkSpec link) {
            links.put("up:" + region, link);
            return this;
        }

        public Builder downlink(String region, LinkSpec link) {
            links.put("down:" + region, link);
            return this;
        }

        /** A link every message between two hosts of {@code region} crosses (its LAN). */
        public Builder lan(String region, LinkSpec link) {
            links.put("lan:" + region, link);
            return this;
        }

        public Builder jitterMs(double ms) {
            this.jitterMs = ms;
            return this;
        }

        public Builder lossRate(double p) {
            this.lossRate = p;
            return this;
        }

        /** Random loss only on paths between two different regions: hosts of one region (a LAN) lose nothing. */
        public Builder lossBetweenRegionsOnly(boolean only) {
            this.lossBetweenRegionsOnly = only;
            return this;
        }

        public Builder localRttMs(double ms) {
            this.localRttMs = ms;
            return this;
        }

        /** Cuts {@code sideA} off from {@code sideB} from {@code fromMs} until {@code toMs}. */
        public Builder partition(long fromMs, long toMs, Set<String> sideA, Set<String> sideB) {
            partitions.add(new Partition(fromMs, toMs, sideA, sideB));
            return this;
        }

        /** Per-packet bytes on the links beyond each message's size, by transport (see {@link #overheadBytes}). */
        public Builder overheadBytes(int udp, int tcp) {
            this.udpOverheadBytes = udp;
            this.tcpOverheadBytes = tcp;
            return this;
        }

        public NetworkSpec build() {
            Map<String, Double> rtt = new TreeMap<>();
            for (String a : hosts.values()) {
                for (String b : hosts.values()) {
                    if (!a.equals(b)) {
                        rtt.put(pairKey(a, b), matrix.rttMs(base(a), base(b)));
                    }
                }
            }
            return new NetworkSpec(hosts, rtt, links, jitterMs, lossRate, localRttMs, partitions, udpOverheadBytes,
                    tcpOverheadBytes, lossBetweenRegionsOnly);
        }
    }
}
