package geoblocks.app;

import geoblocks.blockstore.wire.FailureCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.Policy;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.ClientOp.PeerRtt;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.GeoClient;
import geoblocks.node.NodeFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: four real node processes started from node.jar on loopback with the emulated WAN
 * (SPEC.md's RTT matrix); uploads at seoul with every policy, downloads at dublin, checks bytes
 * and replica placement, read fallback past a corrupt replica, and restart after SIGKILL. The
 * cluster's config also defines a declarative policy ({@link #PLACEMENT}), used by one upload.
 */
@ExtendWith(QuickLaunch.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static LocalCluster cluster;
    static GeoClient client;
    /** A copy in the EU and never two copies in one zone: from seoul that is seoul + dublin, not seoul + mumbai. */
    static final String PLACEMENT = """
            geoblocks.placement {
              zones { eu = [dublin], asia = [seoul, mumbai], americas = [saopaulo] }
              policies { eu-near { copies = 2, terms = [local, closest], require = [eu], max-per-zone = 1 } }
            }
            """;

    @BeforeAll
    static void start() throws Exception {
        assertTrue(Files.isRegularFile(Path.of(System.getProperty("geoblocks.nodeJar"))), "node.jar must be built");
        nodes = ItSupport.Nodes.start(work.resolve("cluster"), true, PLACEMENT, 20_000);
        cluster = nodes.cluster();
        client = nodes.client();
        awaitAllUp();
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    static void awaitAllUp() throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        for (String r : LocalCluster.REGIONS) {
            while (!client.status(r).peers().stream().allMatch(p -> p.rttMs() >= 0)) {
                assertTrue(System.currentTimeMillis() < deadline, "peers of " + r + " never all came up");
                Thread.sleep(200);
            }
        }
    }

    static Path file(String name, long size, long seed) throws IOException {
        return ItSupport.randomFile(work, name, (int) size, seed);
    }

    @Test
    @Order(1)
    void rttMonitor_convergesToConfiguredMatrix_andRanksPeers() throws Exception {
        // SPEC.md from seoul: mumbai 160, dublin 252, saopaulo 298. The first samples of a fresh JVM
        // are inflated (JIT, a loaded machine); the median over the window must settle within 30 s.
        Map<String, Double> spec = Map.of("mumbai", 160.0, "dublin", 252.0, "saopaulo", 298.0);
        long deadline = System.currentTimeMillis() + 30_000;
        List<PeerRtt> peers;
        while (true) {
            peers = client.status("seoul").peers();
            boolean close = peers.stream().allMatch(p -> Math.abs(p.rttMs() - spec.get(p.region())) < 30);
            if (close || System.currentTimeMillis() > deadline) {
                break;
            }
            Thread.sleep(500);
        }
        for (PeerRtt p : peers) {
            assertEquals(spec.get(p.region()), p.rttMs(), 30, "RTT seoul-" + p.region());
        }
        List<String> order = peers.stream().sorted((a, b) -> Double.compare(a.rttMs(), b.rttMs()))
                .map(PeerRtt::region).collect(Collectors.toList());
        assertEquals(List.of("mumbai", "dublin", "saopaulo"), order);
    }

    @Test
    @Order(2)
    void everyPolicy_putAtSeoul_getAtDublin_identicalBytesAndPlacement() throws Exception {
        long size = (5 << 19) + 12345; // 2.5 MiB + change: 3 blocks of 1 MiB, the last partial
        for (Policy p : Policy.values()) {
            Path in = file("in-" + p.id(), size, p.ordinal());
            String name = "e2e-" + p.id();
            client.put("seoul", in, name, p.id(), 1 << 20, null);
            Path out = work.resolve("out-" + p.id());
            Manifest m = client.get("dublin", name, out, null);
            assertEquals(-1, Files.mismatch(in, out), p.id() + ": downloaded bytes differ");
            assertEquals(3, m.blocks().size());
            for (Manifest.BlockRef b : m.blocks()) {
                List<String> reps = b.replicas();
                switch (p) {
                    case LOCAL: assertEquals(List.of("seoul"), reps); break;
                    case LOCALCLOSEST: assertEquals(List.of("seoul", "mumbai"), reps); break;
                    case LOCALFARTHEST: assertEquals(List.of("seoul", "saopaulo"), reps); break;
                    case RANDOM: assertEquals(1, reps.size()); break;
                    case TWORANDOM:
                        assertEquals(2, reps.size());
                        assertNotEquals(reps.get(0), reps.get(1));
                        break;
                    default: throw new AssertionError(p);
                }
            }
            for (int i = 0; i < m.blocks().size(); i++) {
                for (String r : m.blocks().get(i).replicas()) {
                    assertTrue(storage(r).contains(m.blockId(i)), "block " + i + " missing on " + r);
                }
            }
        }
    }

    @Test
    @Order(3)
    void smallBlocks_andEmptyFile_roundTrip() throws Exception {
        Path in = file("in-small", 300_000, 7);
        client.put("mumbai", in, "e2e-64k", "localclosest", 64 << 10, null);
        Path out = work.resolve("out-64k");
        Manifest m = client.get("saopaulo", "e2e-64k", out, null);
        assertEquals(-1, Files.mismatch(in, out));
        assertEquals(5, m.blocks().size());
        assertEquals(List.of("mumbai", "dublin"), m.blocks().get(0).replicas()); // dublin is 122 ms from mumbai

        Path empty = work.resolve("empty");
        Files.write(empty, new byte[0]);
        client.put("dublin", empty, "e2e-empty", "local", 1 << 20, null);
        Path outEmpty = work.resolve("out-empty");
        client.get("seoul", "e2e-empty", outEmpty, null);
        assertEquals(0, Files.size(outEmpty));
    }

    @Test
    @Order(4)
    void listStatDelete_areConsistentAcrossRegions() throws Exception {
        Set<String> names = new HashSet<>();
        for (ListEntry e : client.list("saopaulo")) {
            names.add(e.name());
        }
        assertTrue(names.containsAll(Set.of("e2e-local", "e2e-random", "e2e-64k")), names.toString());
        IOException dup = assertThrows(IOException.class, () -> client.write("dublin", work.resolve("in-local"), null,
                "e2e-local", "local", 1 << 20, "all", true, null));
        assertEquals(FailureCode.EXISTS, NodeFailure.codeOf(dup));

        Manifest m = client.stat("mumbai", "e2e-localfarthest");
        ClientPort.Written deleted = client.remove("dublin", "e2e-localfarthest");
        assertTrue(deleted.info().startsWith("deleted; earlier versions kept for 1 d"), deleted.info());
        for (String r : LocalCluster.REGIONS) {
            IOException gone = assertThrows(IOException.class, () -> client.stat(r, "e2e-localfarthest"));
            assertEquals(FailureCode.NOT_FOUND, NodeFailure.codeOf(gone));
            List<VersionEntry> vs = client.versions(r, "e2e-localfarthest");
            assertEquals(List.of(deleted.version(), m.version().id()), vs.stream().map(VersionEntry::id).toList());
            assertTrue(vs.get(0).deleted() && !vs.get(1).deleted());
        }
        // the deleted version is kept (retention) and readable by its id
        assertTrue(storage("saopaulo").contains(m.blockId(0)), "a deleted version's replica is kept until the retention");
        Path before = work.resolve("out-deleted");
        client.get("seoul", "e2e-localfarthest", before, m.version().id(), null);
        assertEquals(-1, Files.mismatch(work.resolve("in-localfarthest"), before));
        IOException missing = assertThrows(IOException.class,
                () -> client.get("seoul", "does-not-exist", work.resolve("x"), null));
        assertEquals(FailureCode.NOT_FOUND, NodeFailure.codeOf(missing));
        assertTrue(!Files.exists(work.resolve("x")) && !Files.exists(work.resolve("x.part")));
    }

    @Test
    @Order(5)
    void get_fallsBackToAnotherReplica_whenNearestCopyIsCorrupt() throws Exception {
        // localclosest at seoul: replicas seoul + mumbai; from dublin, mumbai (122 ms) is nearer than seoul (252 ms)
        Manifest m = client.stat("dublin", "e2e-localclosest");
        Path blockFile = FileBlockStorage.inspect(cluster.dataDir("mumbai")).pathOf(m.blockId(1));
        byte[] bytes = Files.readAllBytes(blockFile);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(blockFile, bytes);
        Path out = work.resolve("out-fallback");
        client.get("dublin", "e2e-localclosest", out, null);
        assertEquals(-1, Files.mismatch(work.resolve("in-localclosest"), out));
    }

    @Test
    @Order(6)
    void restartedNode_afterSigkill_servesWhatItStored() throws Exception {
        cluster.kill("seoul");
        cluster.startNode("seoul");
        cluster.awaitListening("seoul");
        awaitAllUp();
        Path out = work.resolve("out-restart");
        client.get("seoul", "e2e-local", out, null);
        assertEquals(-1, Files.mismatch(work.resolve("in-local"), out));
    }

    @Test
    @Order(7)
    void declarativePolicy_fromTheClusterConfig_placesByItsRules_seenWithStatJson() throws Exception {
        Path in = file("in-eu-near", (3 << 20) - 5, 99);
        client.put("seoul", in, "e2e-eu-near", "eu-near", 1 << 20, null);
        String json = cli("client", "--at", "mumbai", "--config", cluster.configFile().toString(), "stat", "e2e-eu-near", "--json");
        assertTrue(json.contains("\"policy\":\"eu-near\""), json);
        for (int i = 0; i < 3; i++) {
            assertTrue(json.contains("{\"index\":" + i + ",\"length\":"), json);
        }
        assertEquals(3, json.split("\"replicas\":\\[\"seoul\",\"dublin\"\\]", -1).length - 1, json);
        Manifest m = client.stat("seoul", "e2e-eu-near");
        for (int i = 0; i < m.blocks().size(); i++) {
            assertTrue(storage("dublin").contains(m.blockId(i)) && storage("seoul").contains(m.blockId(i)), "block " + i);
            assertTrue(!storage("mumbai").contains(m.blockId(i)), "block " + i + " on mumbai");
        }
        Path out = work.resolve("out-eu-near");
        client.get("saopaulo", "e2e-eu-near", out, null);
        assertEquals(-1, Files.mismatch(in, out));

        String rules = cli("client", "--at", "dublin", "--config", cluster.configFile().toString(), "policies");
        assertTrue(rules.contains("eu-near") && rules.contains("declarative")
                && rules.contains("terms [local, closest]; require eu (dublin); at most 1 per zone"), rules);
        IOException unknown = assertThrows(IOException.class,
                () -> client.put("seoul", in, "e2e-unknown", "nearest-eu", 1 << 20, null));
        assertTrue(unknown.getMessage().contains("unknown policy 'nearest-eu'; choose one of random, tworandom, local,"
                + " localclosest, localfarthest, localclosest3, balanced, eu-near"), unknown.getMessage());
        assertEquals(FailureCode.INVALID, NodeFailure.codeOf(unknown));
    }

    /** Runs node.jar with {@code args} and returns its standard output; fails on a non-zero exit. */
    static String cli(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(LocalCluster.launcher(List.of()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "node.jar hung");
        assertEquals(0, p.exitValue(), String.join(" ", args) + ": " + out);
        return out;
    }

    static FileBlockStorage storage(String region) throws IOException {
        return FileBlockStorage.inspect(cluster.dataDir(region));
    }
}
