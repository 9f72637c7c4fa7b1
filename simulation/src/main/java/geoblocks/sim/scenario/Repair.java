package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import geoblocks.sim.repair.RepairNodes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scrub repair with the real nodes: Seoul holds the three blocks of a file whose manifest also
 * names Mumbai, which holds none. Mumbai's scrubber finds every replica missing and repairs it
 * from Seoul over the chosen background transport (ledbat: Seoul pushes each block on a LEDBAT
 * stream; tcp: Mumbai fetches it as file-protocol messages) across a 100 Mbit/s, 160 ms path. A
 * probe watches Seoul's status while the repair runs, then checks every replica and reads both
 * nodes' transfer counters and background (LEDBAT) figures.
 */
public final class Repair {
    private Repair() {}

    /**
     * Per node: repairs, failed repairs, block bytes per transport, background bytes still to send
     * and copies owed; per replica: intact or not.
     */
    public record NodeStatus(String region, long repaired, long unrepairable, long tcpSent, long tcpReceived,
            long ledbatSent, long ledbatReceived, long queuedBytes, long queuedCopies) {}

    /** The LEDBAT flow from {@code region} to {@code peer} as {@code region}'s status reported it. */
    public record PeerFlow(String region, String peer, boolean active, int streams, long cwndBytes, long queuedBytes,
            long inFlightBytes, double queuingDelayMs, double baseDelayMs, double rttMs, long retransmissions) {}

    /**
     * The final status of each node, the LEDBAT peers it reported, and the first status of the
     * holder that showed an active flow while the repair ran ({@code during}, {@code duringFlows}).
     */
    public record Outcome(List<NodeStatus> nodes, List<PeerFlow> flows, NodeStatus during, List<PeerFlow> duringFlows,
            Map<String, Boolean> replicas, List<String> records) {
        public NodeStatus node(String region) {
            return nodes.stream().filter(n -> n.region().equals(region)).findFirst()
                    .orElseThrow(() -> new AssertionError("no status from " + region + ": " + records));
        }

        public List<PeerFlow> flowsFrom(String region) {
            return flows.stream().filter(f -> f.region().equals(region)).toList();
        }
    }

    static SimPlan plan(long seed, String transport) {
        Map<String, String> regions = new LinkedHashMap<>();
        regions.put("seoul", "10.0.0.1:47000");
        regions.put("mumbai", "10.0.1.1:47000");
        LinkSpec wan = new LinkSpec(100_000_000L, 1L << 20);
        NetworkSpec net = NetworkSpec.builder(RttMatrix.specDefaults())
                .host("10.0.0.1", "seoul").host("10.0.1.1", "mumbai").host("10.0.0.100", "seoul")
                .path("seoul", "mumbai", wan).path("mumbai", "seoul", wan).build();
        List<NodePlan> nodes = List.of(
                new NodePlan("seoul", 0, "10.0.0.1", 47000, new RepairNodes.Node("seoul", regions, seed, true, transport)),
                new NodePlan("mumbai", 0, "10.0.1.1", 47000, new RepairNodes.Node("mumbai", regions, seed, false, transport)),
                new NodePlan("probe", 0, "10.0.0.100", 48000, new RepairNodes.Probe(regions, seed, 20_000)));
        return new SimPlan(seed, net, nodes, 25_000, 1_000);
    }

    /** Runs the scenario (deterministic for a seed). */
    public static Outcome run(long seed, String transport) {
        SimResult r = SimRunner.run(plan(seed, transport));
        List<NodeStatus> nodes = new ArrayList<>();
        List<PeerFlow> flows = new ArrayList<>();
        NodeStatus during = null;
        List<PeerFlow> duringFlows = new ArrayList<>();
        Map<String, Boolean> replicas = new LinkedHashMap<>();
        for (String line : r.extra()) {
            boolean d = line.startsWith("during ");
            String[] f = (d ? line.substring(7) : line).split(" ");
            if (f[0].equals("status")) {
                NodeStatus n = new NodeStatus(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                        Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]),
                        Long.parseLong(f[9]));
                if (d) {
                    during = n;
                } else {
                    nodes.add(n);
                }
            } else if (f[0].equals("ledbat")) {
                PeerFlow p = new PeerFlow(f[1], f[2], Boolean.parseBoolean(f[3]), Integer.parseInt(f[4]),
                        Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), Double.parseDouble(f[8]),
                        Double.parseDouble(f[9]), Double.parseDouble(f[10]), Long.parseLong(f[11]));
                (d ? duringFlows : flows).add(p);
            } else if (f[0].equals("block")) {
                replicas.put(f[1] + "/" + f[2], Boolean.parseBoolean(f[3]));
            }
        }
        return new Outcome(nodes, flows, during, duringFlows, replicas, r.extra());
    }
}
