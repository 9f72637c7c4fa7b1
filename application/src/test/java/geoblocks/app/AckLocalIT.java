package geoblocks.app;

import geoblocks.blockstore.meta.MetaReplicationQueueStore;
import geoblocks.blockstore.meta.RocksMetaEngine;
import geoblocks.blockstore.wire.ClientOp;
import static geoblocks.app.ItSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.FileReplicationQueueStore;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ReplicationQueue;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code put --ack local} against four real node processes: the put returns with the
 * coordinator's copy, the other replicas arrive over LEDBAT from the durable replication queue
 * (stat's pending drains), and a coordinator SIGKILLed while copies are owed resumes them after a
 * restart.
 */
@ExtendWith(QuickLaunch.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AckLocalIT {
    private static final int BLOCK = 65536;
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static LocalCluster cluster;
    static GeoClient client;

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false, "geoblocks.node { rpc-timeout = 3 s }", 20_000, 30);
        cluster = nodes.cluster();
        client = nodes.client();
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    static void awaitAllUp() throws Exception {
        ItSupport.awaitAllUp(client, 30);
    }

    static Path file(String name, int size, long seed) throws IOException {
        return ItSupport.randomFile(work, name, size, seed);
    }

    /** Every block of {@code m} is durable and whole at every region its manifest names. */
    static boolean allReplicasOnDisk(Manifest m) {
        for (int i = 0; i < m.blocks().size(); i++) {
            for (String r : m.blocks().get(i).replicas()) {
                try {
                    if (FileBlockStorage.inspect(cluster.dataDir(r)).get(m.blockId(i)).crc() != m.blocks().get(i).crc()) {
                        return false;
                    }
                } catch (IOException e) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean drained(String coordinator, String name) {
        try {
            ClientPort.FileStat st = client.statFull(coordinator, name);
            return st.pendingKnown() && st.pending().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    @Order(1)
    void ackLocal_returns_thenEveryChosenReplicaArrivesOverLedbat() throws Exception {
        ClientOp.Transfers before = client.status("seoul").transfers();
        Path in = file("async-in", 6 * BLOCK + 123, 1);
        String info = client.put("seoul", in, "async", "localclosest", BLOCK, "local", null);
        assertTrue(info.startsWith("stored"), info);
        Manifest m = client.stat("seoul", "async");
        for (Manifest.BlockRef b : m.blocks()) {
            assertEquals(2, b.replicas().size(), "the manifest names every region the policy chose: " + b);
            assertEquals("seoul", b.replicas().get(0));
        }
        await(20, "pending copies of 'async' to drain", () -> drained("seoul", "async"));
        await(10, "every replica on disk", () -> allReplicasOnDisk(m));
        ClientOp.Transfers after = client.status("seoul").transfers();
        long remote = m.blocks().stream().mapToLong(Manifest.BlockRef::length).sum();
        assertTrue(after.ledbatSent() - before.ledbatSent() >= remote,
                "the async copies rode LEDBAT: " + before + " -> " + after);
        assertEquals(before.tcpSent(), after.tcpSent(), "no replica data over TCP from the coordinator");
        Path out = work.resolve("async-out");
        client.get("saopaulo", "async", out, null);
        assertEquals(-1, Files.mismatch(in, out));
    }

    @Test
    @Order(2)
    void coordinatorKilledWhileCopiesAreOwed_resumesThemAfterRestart() throws Exception {
        List<String> others = new ArrayList<>(LocalCluster.REGIONS);
        others.remove("seoul");
        for (String r : others) {
            cluster.pause(r); // the copies cannot be delivered while seoul lives; still "up" for a few seconds
        }
        Path in = file("resume-in", 4 * BLOCK, 2);
        Manifest before;
        try {
            client.put("seoul", in, "resume", "localclosest", BLOCK, "local", null);
            ClientPort.FileStat st = client.statFull("seoul", "resume");
            assertEquals(4, st.pending().size(), "every block still owes its second copy: " + st.pending());
            before = st.manifest();
            cluster.kill("seoul");
        } finally {
            for (String r : others) {
                cluster.resume(r);
            }
        }
        List<ReplicationQueue.Copy> owed = queueOnDisk("seoul");
        assertEquals(4, owed.size(), "the queue on disk holds the owed copies: " + owed);
        assertFalse(allReplicasOnDisk(before), "nothing was copied before the kill");

        cluster.startNode("seoul");
        cluster.awaitListening("seoul");
        awaitAllUp();
        await(25, "the resumed queue to drain", () -> drained("seoul", "resume"));
        Manifest m = client.stat("seoul", "resume");
        await(10, "every replica on disk", () -> allReplicasOnDisk(m));
        assertTrue(client.status("seoul").transfers().ledbatSent() >= 4L * BLOCK, "the resumed copies rode LEDBAT");
        await(5, "the drained queue saved (removals are saved on the next tick)", () -> {
            try {
                return queueOnDisk("seoul").isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** The replication queue in the region's metadata engine, read as a follower (the node may be running). */
    private static List<ReplicationQueue.Copy> queueOnDisk(String region) throws IOException {
        Path follower = Files.createTempDirectory("ack-it-follower");
        try (RocksMetaEngine e = RocksMetaEngine.openSecondary(
                cluster.dataDir(region).resolve("meta"), follower)) {
            return new MetaReplicationQueueStore(e).load();
        } finally {
            try (Stream<Path> files = Files.walk(follower)) { // the follower's own files, polled often
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A queue file of the release before the metadata engine is converted at start; a damaged one stops the node. */
    @Test
    @Order(3)
    void damagedQueueFile_stopsTheNodeAtStart_namingTheFile() throws Exception {
        cluster.kill("mumbai");
        Path q = cluster.dataDir("mumbai").resolve("replication-queue");
        new FileReplicationQueueStore(q).save(List.of(new ReplicationQueue.Copy("f", "id", 0, "seoul")));
        byte[] b = Files.readAllBytes(q);
        Files.write(q, Arrays.copyOf(b, b.length - 3));
        cluster.startNode("mumbai");
        IOException e = Assertions.assertThrows(IOException.class, () -> cluster.awaitListening("mumbai"));
        assertTrue(e.getMessage().contains(q.toString()) && e.getMessage().contains("truncated or damaged"), e.getMessage());
    }

    @Test
    @Order(4)
    void backgroundTransportTcp_copiesTheQueueOverTcp() throws Exception {
        cluster.kill("dublin");
        cluster.startNode("dublin", List.of("-Dgeoblocks.node.background-transport=tcp"));
        cluster.awaitListening("dublin");
        await(30, "dublin sees its live peers", () -> {
            try {
                return client.status("dublin").peers().stream().filter(p -> p.rttMs() >= 0).count() == 2;
            } catch (IOException e) {
                return false;
            }
        });
        ClientOp.Transfers before = client.status("dublin").transfers();
        client.put("dublin", file("tcp-in", 3 * BLOCK, 3), "tcp", "localclosest", BLOCK, "local", null);
        await(20, "pending copies of 'tcp' to drain", () -> drained("dublin", "tcp"));
        Manifest m = client.stat("dublin", "tcp");
        await(10, "every replica on disk", () -> allReplicasOnDisk(m));
        ClientOp.Transfers after = client.status("dublin").transfers();
        assertTrue(after.tcpSent() - before.tcpSent() >= 3L * BLOCK, before + " -> " + after);
        assertEquals(before.ledbatSent(), after.ledbatSent());
    }
}
