package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileCodec;
import geoblocks.net.ClusterVersion;
import geoblocks.node.ExitCodes;
import geoblocks.node.GeoClient;
import geoblocks.node.NodeFailure;
import geoblocks.node.host.NetworkChoice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Old and new nodes and clients in one cluster, the short mixed-version check of docs/upgrading.md.
 * There is no earlier release with version ranges to run yet, so the "old" build is this one with
 * {@code geoblocks.network.previous-release = true}: it offers file protocol {@code VERSION - 1} at
 * most, and refuses anything above what its handshakes agreed, as the previous release would. Two of
 * the four regions (dublin, mumbai) are restarted so, and a client of each kind (this JVM's GeoClient, the
 * old build's CLI) puts, gets, lists, replicates and creates exclusively through old and new nodes alike.
 * Last, the cluster version: {@code cluster finalize} is refused while old nodes are members, accepted once
 * every node runs the new build, and from then on the old build (a node, a CLI) is refused.
 */
@ExtendWith(QuickLaunch.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MixedVersionIT {
    private static final List<String> OLD = List.of("dublin", "mumbai");
    private static final String PREVIOUS = "-D" + NetworkChoice.PREVIOUS_RELEASE + "=true";
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static Path oldConfig;

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false, "geoblocks.node { rpc-timeout = 3 s }",
                20_000, 30);
        for (String region : OLD) {
            nodes.cluster().kill(region);
            nodes.cluster().startNode(region, List.of(PREVIOUS));
            nodes.cluster().awaitListening(region);
        }
        try {
            ItSupport.awaitAllUp(nodes.client(), 30);
            ItSupport.awaitReady(nodes.cluster(), 30);
        } catch (AssertionError e) {
            StringBuilder logs = new StringBuilder();
            for (String r : LocalCluster.REGIONS) {
                logs.append("\n--- ").append(r).append(":\n").append(nodes.cluster().tail(r));
            }
            throw new AssertionError(e.getMessage() + logs, e);
        }
        oldConfig = work.resolve("old-client.conf");
        Files.writeString(oldConfig, Files.readString(nodes.cluster().configFile()) + "\n" + NetworkChoice.PREVIOUS_RELEASE
                + " = true\n");
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    private static String address(String region) {
        return nodes.config().cluster().address(region).toString();
    }

    @Test
    void handshakes_agreeTheOlderVersion_withOldNodes_andTheNewerBetweenNewOnes() throws Exception {
        // seoul has talked to every peer by now (anti-entropy, layout sync, RTT over the same network)
        ItSupport.await(20, "seoul's handshakes with every peer in its metrics", () -> {
            try {
                return LocalCluster.REGIONS.stream().filter(r -> !r.equals("seoul"))
                        .noneMatch(r -> Double.isNaN(metricOrNaN("seoul", r)));
            } catch (RuntimeException e) {
                return false;
            }
        });
        for (String peer : List.of("dublin", "saopaulo", "mumbai")) {
            double expected = OLD.contains(peer) ? FileCodec.VERSION - 1 : FileCodec.VERSION;
            assertEquals(expected, metricOrNaN("seoul", peer), "seoul with " + peer);
        }
        assertEquals(FileCodec.VERSION - 1, metricOrNaN("dublin", "saopaulo"), "an old node speaks its own version");
        assertTrue(Files.readString(nodes.cluster().log("seoul")).contains("runs an older geoblocks"), "seoul logs the older peers");
        String log = Files.readString(nodes.cluster().log("dublin"));
        assertTrue(log.contains("offers file protocol " + (FileCodec.VERSION - 1) + " at most"), "dublin plays the old build");
    }

    private static double metricOrNaN(String region, String peer) {
        try {
            return ItSupport.metric(nodes.cluster(), region, "geoblocks_peer_file_protocol{peer=\"" + address(peer) + "\"}");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A command of the old build's CLI (node.jar client with the previous release's versions), in a JVM of its own. */
    private static ItSupport.Run old(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(LocalCluster.launcher(List.of()));
        cmd.addAll(List.of("client", "--config", oldConfig.toString()));
        cmd.addAll(List.of(args));
        return ItSupport.run(cmd, work, Map.of(), 60);
    }

    @Test
    void putsAndGets_crossOldAndNew_inEveryDirection() throws Exception {
        GeoClient client = nodes.client();
        Set<String> replicaRegions = new HashSet<>();
        // the new client writes at every region; the old CLI reads each back at an old and a new node
        for (int i = 0; i < LocalCluster.REGIONS.size(); i++) {
            String at = LocalCluster.REGIONS.get(i);
            String name = "new-" + i;
            Path file = ItSupport.randomFile(work, name, 200_000 + i * 1_000, 100 + i);
            client.put(at, file, name, "tworandom", 65536, null);
            client.stat(at, name).blocks().forEach(b -> replicaRegions.addAll(b.replicas()));
            for (String from : List.of("dublin", "saopaulo")) {
                Path out = work.resolve(name + "-old-cli-" + from);
                ItSupport.Run r = old("--at", from, "get", name, out.toString());
                assertEquals(0, r.code(), r.out());
                assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(out), name + " put at " + at + ", read at " + from);
            }
        }
        assertEquals(Set.copyOf(LocalCluster.REGIONS), replicaRegions, "blocks were placed at old and new nodes alike");
        // the old CLI writes at a new and an old node; the new client reads each back everywhere
        for (String at : List.of("seoul", "mumbai")) {
            String name = "old-" + at;
            Path file = ItSupport.randomFile(work, name, 150_000, at.hashCode());
            ItSupport.Run r = old("--at", at, "put", file.toString(), "--name", name, "--policy", "tworandom");
            assertEquals(0, r.code(), r.out());
            for (String from : LocalCluster.REGIONS) {
                Path out = work.resolve(name + "-new-" + from);
                client.get(from, name, out, null);
                assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(out), name + " read at " + from);
            }
        }
        for (String from : List.of("dublin", "seoul")) {
            ItSupport.Run r = old("--at", from, "ls");
            assertEquals(0, r.code(), r.out());
            for (String name : List.of("new-0", "new-3", "old-seoul", "old-mumbai")) {
                assertTrue(r.out().contains(name), name + " listed at " + from + " by the old CLI:\n" + r.out());
            }
        }
        Set<String> names = new HashSet<>();
        for (ListEntry e : client.list("mumbai")) {
            names.add(e.name());
        }
        assertTrue(names.containsAll(List.of("new-0", "new-1", "new-2", "new-3", "old-seoul", "old-mumbai")), names.toString());
    }

    @Test
    void exclusiveCreates_haveOneWinner_whicheverBuildsTheyCross() throws Exception {
        String[][] pairs = {{"seoul", "dublin"}, {"mumbai", "saopaulo"}};
        int i = 0;
        for (String[] pair : pairs) {
            for (boolean oldFirst : new boolean[] {false, true}) {
                String name = "exclusive-" + i++;
                Path file = ItSupport.randomFile(work, name, 1_000, i);
                String[] oldPut = {"--at", oldFirst ? pair[0] : pair[1], "put", file.toString(), "--name", name, "--if-absent"};
                if (oldFirst) {
                    ItSupport.Run won = old(oldPut);
                    assertEquals(0, won.code(), won.out());
                    IOException lost = assertThrows(IOException.class, () -> nodes.client().write(pair[1],
                            file, null, name, "local", 65536, "all", true, null), name + ": the second create must lose");
                    assertEquals(FailureCode.EXISTS, NodeFailure.codeOf(lost), lost.toString());
                } else {
                    ClientPort.Written won = nodes.client().write(pair[0], file, null, name, "local", 65536, "all", true, null);
                    assertFalse(won.version().isEmpty());
                    ItSupport.Run lost = old(oldPut);
                    assertEquals(ExitCodes.of(FailureCode.EXISTS), lost.code(), name + ": the second create must lose: "
                            + lost.out());
                }
            }
        }
    }

    /** Runs last: it raises the cluster version, after which the old build is refused. */
    @Test
    @Order(Integer.MAX_VALUE) // the others have the default order, which is below
    void clusterVersion_risesOnlyWhenEveryMemberRunsTheNewBuild_andThenTheOldBuildIsRefused() throws Exception {
        String next = ClusterVersion.BUILD.toString();
        ClientOp.Versions v = nodes.client().status("seoul").versions();
        assertEquals("0.2", v.clusterVersion());
        assertTrue(v.finalizeNote().contains("dublin runs 0.2 (upgrade it)") && v.finalizeNote().contains("mumbai runs 0.2"),
                v.finalizeNote());
        assertTrue(v.members().contains(new ClientOp.MemberBuild("dublin", "0.2.x", 4)),
                v.members().toString());
        IOException refused = assertThrows(IOException.class,
                () -> nodes.client().cluster("seoul", "finalize", "", "", "", -1, false));
        assertTrue(refused.getMessage().contains("cannot raise the cluster version to " + next + ": dublin runs 0.2"),
                refused.getMessage());

        for (String region : OLD) { // the upgrade's last steps: the old nodes restart as the new build
            nodes.cluster().kill(region);
            nodes.cluster().startNode(region, List.of());
            nodes.cluster().awaitListening(region);
        }
        ItSupport.awaitAllUp(nodes.client(), 30);
        ItSupport.await(30, "seoul connected to every member on the new build", () -> {
            try {
                return nodes.client().status("seoul").versions().finalizeNote().startsWith("every member runs " + next);
            } catch (IOException e) {
                return false;
            }
        });
        var raised = nodes.client().cluster("seoul", "finalize", "", "", "", -1, false);
        assertEquals(next, LayoutCodec.decode(raised.layout()).clusterVersion().toString());
        for (String r : LocalCluster.REGIONS) {
            ItSupport.await(30, r + " adopted cluster version " + next, () -> {
                try {
                    return LayoutCodec.decode(nodes.client().cluster(r, "show", "", "", "", 0,
                            false).layout()).clusterVersion().toString().equals(next);
                } catch (Exception e) {
                    return false;
                }
            });
        }
        assertEquals(next, nodes.client().status("mumbai").versions().clusterVersion());

        // the old build's CLI is refused now, and an old node does not start on a data directory of the raised cluster
        // (on a loaded machine one try may give up before seoul has read its HELLO, so seoul logs nothing of it:
        // another try then; every try must fail)
        String refusal = "runs geoblocks 0.2.x, below the cluster's version " + next;
        StringBuilder outs = new StringBuilder();
        boolean logged = false;
        for (int attempt = 0; attempt < 3 && !logged; attempt++) {
            ItSupport.Run oldStatus = old("--at", "seoul", "status");
            assertTrue(oldStatus.code() != 0, "the old CLI must be refused: " + oldStatus.out());
            outs.append("try ").append(attempt + 1).append(": ").append(oldStatus.out()).append('\n');
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!(logged = Files.readString(nodes.cluster().log("seoul")).contains(refusal)) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        }
        assertTrue(logged, "seoul never logged that it refused the old CLI; the CLI said:\n" + outs);
        nodes.cluster().kill("mumbai");
        nodes.cluster().startNode("mumbai", List.of(PREVIOUS));
        try {
            ItSupport.await(60, "mumbai on the old build refuses to start", () -> {
                try {
                    return Files.readString(nodes.cluster().log("mumbai")).contains("cluster runs at cluster version " + next);
                } catch (IOException e) {
                    return false;
                }
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; mumbai's log:\n" + nodes.cluster().tail("mumbai"), e);
        }
    }
}
