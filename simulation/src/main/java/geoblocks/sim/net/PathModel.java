package geoblocks.sim.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Decides when (and whether) a packet sent now arrives: a partition that cuts its two regions off
 * from each other drops it, then random loss (if the spec applies it to this path), then the bottleneck links on
 * its route (between regions: uplink of the source region, the directed region-pair link, downlink
 * of the destination region; within a region: its LAN link; each optional), then one-way
 * propagation (RTT / 2) plus optional jitter.
 * Pure apart from a seeded {@link Random}; all times in nanoseconds.
 *
 * <p>Packets between the same two endpoints never overtake each other (jitter cannot reorder
 * them), so every path is FIFO. Per-flow accounting (queuing delay, drops) is kept for the
 * sampler, keyed by the caller's flow key.
 */
public final class PathModel {
    private final NetworkSpec spec;
    private final Random random;
    private final Map<InetAddress, String> regionOf = new HashMap<>();
    private final Map<String, BottleneckLink> links = new LinkedHashMap<>();
    private long randomDrops;
    private long partitionDrops;

    public PathModel(NetworkSpec spec, long seed) {
        this.spec = spec;
        this.random = new Random(seed);
        for (Map.Entry<String, String> e : spec.hostRegions().entrySet()) {
            regionOf.put(ip(e.getKey()), e.getValue());
        }
        spec.links().forEach((k, v) -> links.put(k, new BottleneckLink(v)));
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host must be an ip literal, was '" + literal + "'", e);
        }
    }

    /** Queuing delay and drops one flow saw since the last {@link FlowAccount#reset}. */
    public static final class FlowAccount {
        long queueNsSum;
        long packets;
        long drops;

        /** Mean queuing delay in ms over the packets since the last reset, NaN when none passed. */
        public double meanQueueDelayMs() {
            return packets == 0 ? Double.NaN : queueNsSum / 1e6 / packets;
        }

        public long packets() {
            return packets;
        }

        public long drops() {
            return drops;
        }

        public void reset() {
            queueNsSum = 0;
            packets = 0;
            drops = 0;
        }
    }

    /** What the model keeps per flow: its route, propagation delay, last arrival and accounting. */
    private static final class Flow {
        final String fromRegion;
        final String toRegion;
        final List<BottleneckLink> route;
        final long propagationNs;
        /** Whether random loss applies to this flow's path (the spec's loss may be limited to paths between regions). */
        final boolean lossy;
        final FlowAccount account = new FlowAccount();
        long lastArrivalNs = Long.MIN_VALUE;

        Flow(String fromRegion, String toRegion, List<BottleneckLink> route, long propagationNs, boolean lossy) {
            this.fromRegion = fromRegion;
            this.toRegion = toRegion;
            this.route = route;
            this.propagationNs = propagationNs;
            this.lossy = lossy;
        }
    }

    private final Map<Object, Flow> flowState = new HashMap<>();

    private Flow flowState(Object flowKey, InetAddress src, InetAddress dst) {
        Flow f = flowState.get(flowKey);
        if (f == null) {
            String a = regionOf.get(src);
            String b = regionOf.get(dst);
            boolean placed = a != null && b != null;
            double oneWayMs = placed ? spec.rttMs(a, b) / 2 : 0;
            boolean lossy = spec.lossRate() > 0 && (!spec.lossBetweenRegionsOnly() || (a != null && !a.equals(b)));
            f = new Flow(a, b, placed ? route(a, b) : List.of(), Math.round(oneWayMs * 1_000_000), lossy);
            flowState.put(flowKey, f);
        }
        return f;
    }

    /**
     * Arrival time in ns of a packet of {@code bytes} sent at {@code nowNs} from {@code src} to
     * {@code dst}, or -1 when it is lost (randomly or by a full buffer). A flow key always names
     * the same (src, dst) pair.
     */
    public long arrivalNs(long nowNs, InetAddress src, InetAddress dst, Object flowKey, int bytes) {
        Flow f = flowState(flowKey, src, dst);
        FlowAccount acct = f.account;
        for (Partition p : spec.partitions()) {
            if (p.cuts(nowNs / 1_000_000, f.fromRegion, f.toRegion)) {
                partitionDrops++;
                acct.drops++;
                return -1;
            }
        }
        if (f.lossy && random.nextDouble() < spec.lossRate()) {
            randomDrops++;
            acct.drops++;
            return -1;
        }
        long t = nowNs;
        long queued = 0;
        List<BottleneckLink> route = f.route;
        for (int i = 0; i < route.size(); i++) {
            BottleneckLink link = route.get(i);
            long departure = link.offer(t, bytes);
            if (departure < 0) {
                acct.drops++;
                return -1;
            }
            queued += link.lastQueueDelayNs();
            t = departure;
        }
        t += f.propagationNs;
        if (spec.jitterMs() > 0) {
            t += Math.round(Math.abs(random.nextGaussian()) * spec.jitterMs() * 1_000_000);
        }
        t = Math.max(t, f.lastArrivalNs);
        f.lastArrivalNs = t;
        acct.queueNsSum += queued;
        acct.packets++;
        return t;
    }

    private List<BottleneckLink> route(String a, String b) {
        List<BottleneckLink> r = new ArrayList<>(3);
        String[] keys = a.equals(b) ? new String[] {"lan:" + a} : new String[] {"up:" + a, a + ">" + b, "down:" + b};
        for (String key : keys) {
            BottleneckLink l = links.get(key);
            if (l != null) {
                r.add(l);
            }
        }
        return Collections.unmodifiableList(r);
    }

    /** Region of a host, or null when the host is not placed in any region. */
    public String regionOf(InetAddress host) {
        return regionOf.get(host);
    }

    /** The links by key ({@code "a>b"}, {@code "up:a"}, {@code "down:a"}), in key order. */
    public Map<String, BottleneckLink> links() {
        return Collections.unmodifiableMap(links);
    }

    private static final FlowAccount NONE = new FlowAccount();

    /** The accounting of one flow (an empty one if it sent nothing yet; do not keep it). */
    public FlowAccount flow(Object flowKey) {
        Flow f = flowState.get(flowKey);
        if (f == null) {
            NONE.reset();
            return NONE;
        }
        return f.account;
    }

    public long randomDrops() {
        return randomDrops;
    }

    /** Messages a partition dropped. */
    public long partitionDrops() {
        return partitionDrops;
    }

    public NetworkSpec spec() {
        return spec;
    }
}
