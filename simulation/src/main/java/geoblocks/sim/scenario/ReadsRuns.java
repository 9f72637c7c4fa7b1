package geoblocks.sim.scenario;

import geoblocks.net.RttMatrix;
import geoblocks.sim.harness.NodePlan;
import geoblocks.sim.harness.SimPlan;
import geoblocks.sim.harness.SimResult;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.net.LinkSpec;
import geoblocks.sim.net.NetworkSpec;
import geoblocks.sim.reads.ReadsNodes;
import geoblocks.sim.reads.ReadsRole;
import geoblocks.sim.reads.ReadsScript;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared set-up of {@code hedged-reads} and {@code flooded-server}: per slot its own four
 * production nodes (the placement scenario's network: SPEC.md RTTs and per-path throughputs, a
 * 1.7 Gbit/s LAN), a client at seoul that uploads the test files and the noise file, a reader at
 * saopaulo that reads the test files one at a time, and noise readers at mumbai that read the
 * noise file (stored at dublin only) over and over with exponential think times, so dublin's
 * uplink ({@code loadedUplinkMbps}) carries bursts of their blocks. Test files placed with
 * {@code localclosest3} from seoul live at seoul, mumbai and dublin; seen from saopaulo dublin is
 * the nearest (184 ms), then seoul (298) and mumbai (305). Slots share no link and run at once.
 */
public final class ReadsRuns {
    private ReadsRuns() {}

    static final String UPLOAD_SITE = "seoul";
    static final String READ_SITE = "saopaulo";
    static final String NOISE_SITE = "mumbai";
    static final String LOADED = "dublin";

    /** One slot: its label, script and number of noise readers. */
    public record Slot(String label, ReadsScript script, int noiseReaders) {}

    /** One measured read. */
    public record Read(int slot, int size, int index, long ms, String error) {
        public boolean ok() {
            return error.isEmpty();
        }
    }

    /** Reads, bytes into the reading region per slot and size, replicas per slot, errors, noise reads, wall time. */
    public record Outcome(List<Read> reads, Map<String, Long> bytesIn, Map<Integer, String> replicas, List<String> errors,
            Map<Integer, Integer> noiseReads, long wallMs) {
        public long bytesIn(int slot, int size) {
            return bytesIn.getOrDefault(slot + "|" + size, -1L);
        }

        public double[] sortedMs(int slot, int size) {
            return reads.stream().filter(r -> r.slot() == slot && r.size() == size && r.ok()).mapToDouble(Read::ms)
                    .sorted().toArray();
        }
    }

    static SimPlan plan(long seed, List<Slot> slots, double loadedUplinkMbps, long capMs) {
        NetworkSpec.Builder net = NetworkSpec.builder(RttMatrix.specDefaults());
        List<NodePlan> nodes = new ArrayList<>();
        List<String> regions = Placement.REGIONS;
        for (int k = 0; k < slots.size(); k++) {
            Slot slot = slots.get(k);
            Map<String, String> cluster = Placement.slotCluster(net, k);
            net.uplink(LOADED + "#" + k, new LinkSpec(Math.round(loadedUplinkMbps * 1e6), 1L << 40));
            for (int i = 0; i < regions.size(); i++) {
                String r = regions.get(i);
                nodes.add(new NodePlan(r + "#" + k, 0, Placement.ip(k, i, 1), 47000,
                        new ReadsNodes.Node(r, cluster, seed * 1000 + k * 31L + i)));
            }
            int up = regions.indexOf(UPLOAD_SITE);
            int rd = regions.indexOf(READ_SITE);
            int ns = regions.indexOf(NOISE_SITE);
            net.host(Placement.ip(k, up, 100), UPLOAD_SITE + "#" + k).host(Placement.ip(k, rd, 101), READ_SITE + "#" + k);
            // RTT monitors need 3 answered probes (1 s apart) before peers count as up
            nodes.add(new NodePlan("uploader#" + k, 0, Placement.ip(k, up, 100), 48000, new ReadsNodes.Client(UPLOAD_SITE,
                    UPLOAD_SITE + "#" + k, cluster, ReadsRole.UPLOADER, 0, slot.script(), 4000)));
            nodes.add(new NodePlan("reader#" + k, 0, Placement.ip(k, rd, 101), 48000, new ReadsNodes.Client(READ_SITE,
                    READ_SITE + "#" + k, cluster, ReadsRole.READER, 1, slot.script(), 4000)));
            for (int j = 0; j < slot.noiseReaders(); j++) {
                String ip = Placement.ip(k, ns, 110 + j);
                net.host(ip, NOISE_SITE + "#" + k);
                nodes.add(new NodePlan("noise" + j + "#" + k, 0, ip, 48000, new ReadsNodes.Client(NOISE_SITE,
                        NOISE_SITE + "#" + k, cluster, ReadsRole.NOISE, 2 + j, slot.script(), 4000)));
            }
        }
        return new SimPlan(seed, net.build(), nodes, capMs, 10_000);
    }

    static Outcome run(SimPlan plan) {
        SimResult r = SimRunner.run(plan);
        List<Read> reads = new ArrayList<>();
        Map<String, Long> bytes = new LinkedHashMap<>();
        Map<Integer, String> replicas = new LinkedHashMap<>();
        Map<Integer, Integer> noise = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>(r.faults());
        for (String rec : r.extra()) {
            String[] f = rec.split("\\|", -1);
            int slot = Integer.parseInt(f[1]);
            switch (f[0]) {
                case "D" -> reads.add(new Read(slot, Integer.parseInt(f[2]), Integer.parseInt(f[3]), Long.parseLong(f[4]),
                        f[5]));
                case "B" -> bytes.put(slot + "|" + f[2], Long.parseLong(f[3]));
                case "R" -> replicas.put(slot, f[2].replace(';', ' '));
                case "N" -> noise.merge(slot, Integer.parseInt(f[2]), Integer::sum);
                case "E" -> errors.add("slot " + slot + ": " + f[2]);
                default -> throw new IllegalStateException("unknown record " + rec);
            }
        }
        reads.stream().filter(x -> !x.ok()).limit(5)
                .forEach(x -> errors.add("slot " + x.slot() + " read of " + x.size() + " bytes: " + x.error()));
        return new Outcome(reads, bytes, replicas, errors, noise, r.wallMs());
    }
}
