package geoblocks.app;

import static geoblocks.app.ItSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.core.FileBlockStorage;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.ManifestHistory;
import geoblocks.blockstore.core.ManifestStore;
import geoblocks.blockstore.core.TombstoneCollector;
import geoblocks.blockstore.core.Version;
import geoblocks.blockstore.meta.RocksMetaEngine;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.node.GeoClient;
import geoblocks.node.NodeFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delete made while a region is down, against four real node processes (emulated WAN off,
 * version retention 2 s, tombstone retention 1 d so only acknowledgements collect tombstones,
 * anti-entropy every 500 ms): the
 * tombstone stays at every region while that region is down, even well past the retention; when it
 * returns it gets the tombstone, the file stays gone everywhere and its blocks leave that region's
 * disk; once every region acknowledged the tombstone it is collected everywhere (and each region's
 * {@code /metrics} says so); and the name can be created again.
 */
@ExtendWith(QuickLaunch.class)
class TombstoneIT {
    private static final long VERSION_RETENTION_MS = 2_000;
    /** Half the default: the tombstone grace below (rounds of it) and the collection after the return pass sooner. */
    private static final long ANTI_ENTROPY_MS = 500;
    private static final String NAME = "deleted-while-down";

    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;
    static LocalCluster cluster;
    static GeoClient client;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false, "geoblocks.node { version-retention = "
                + VERSION_RETENTION_MS + " ms, tombstone-retention = 1 d, anti-entropy-interval = " + ANTI_ENTROPY_MS
                + " ms }", 20_000, 60);
        cluster = nodes.cluster();
        client = nodes.client();
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    void deleteWhileARegionIsDown_reachesItWhenItReturns_removesItsBlocks_andIsCollectedOnceEveryRegionAcknowledged()
            throws Exception {
        Path in = ItSupport.randomFile(work, "in", 3 * 65536 + 11, 12);
        client.put("seoul", in, NAME, "tworandom", 65536, null);
        Manifest m = client.stat("seoul", NAME);
        String down = m.blocks().get(0).replicas().stream().filter(r -> !r.equals("seoul")).findFirst().orElseThrow();
        List<BlockId> itsBlocks = new ArrayList<>();
        for (int i = 0; i < m.blocks().size(); i++) {
            if (m.blocks().get(i).replicas().contains(down)) {
                itsBlocks.add(m.blockId(i));
            }
        }
        assertTrue(blocks(down).containsAll(itsBlocks), down + " holds " + itsBlocks);

        cluster.kill(down);
        await(30, "seoul sees " + down + " down", () -> !isUp("seoul", down));
        ClientPort.Written rm = client.remove("seoul", NAME);
        assertTrue(rm.info().contains("not yet at") && rm.info().contains(down), rm.info());
        Version tomb = Version.parse(rm.version());

        // Past the moment every region that is up would forget the tombstone if the down one did not
        // count: the version retention, then the grace, after the delete (plus 3 s of slack).
        long grace = (long) TombstoneCollector.GRACE_ROUNDS * LocalCluster.REGIONS.size() * ANTI_ENTROPY_MS;
        long forgetAt = tomb.millis() + VERSION_RETENTION_MS + grace + 3_000;
        Thread.sleep(Math.max(0, forgetAt - System.currentTimeMillis()));
        for (String r : LocalCluster.REGIONS) {
            if (!r.equals(down)) {
                List<VersionEntry> kept = client.versions(r, NAME);
                assertEquals(1, kept.size(), r + " keeps " + kept);
                assertTrue(kept.get(0).deleted() && kept.get(0).id().equals(rm.version()),
                        r + " keeps the tombstone alone: " + kept);
                assertTrue(history(r).isPresent(), r + " keeps the tombstone in its own store");
                assertTrue(metric(r, "geoblocks_tombstones ") >= 1, r + "'s /metrics counts the tombstone it keeps");
                assertEquals(0, metric(r, "geoblocks_tombstones_collected_total{reason=\"acknowledged\"} ")
                        + metric(r, "geoblocks_tombstones_collected_total{reason=\"expired\"} "),
                        r + " collected no tombstone while " + down + " was down (not even for a while)");
            }
        }

        cluster.startNode(down);
        cluster.awaitListening(down);
        long back = System.nanoTime();
        ItSupport.awaitAllUp(client, 60);
        await(60, down + " removes the deleted file's blocks from its disk", () -> {
            List<BlockId> now = blocks(down);
            return itsBlocks.stream().noneMatch(now::contains);
        });
        long blocksGone = System.nanoTime();
        for (String r : LocalCluster.REGIONS) {
            IOException e = assertThrows(IOException.class, () -> client.stat(r, NAME), r);
            assertEquals(FailureCode.NOT_FOUND, NodeFailure.codeOf(e), r + ": " + e.getMessage());
        }

        await(90, "the tombstone collected at every region", () -> LocalCluster.REGIONS.stream().allMatch(r -> {
            try {
                client.versions(r, NAME);
                return false;
            } catch (IOException e) {
                return e.getMessage().contains("no such file") && history(r).isEmpty();
            }
        }));
        long collected = System.nanoTime();
        await(10, "every region's /metrics counts the collection", () -> LocalCluster.REGIONS.stream()
                .allMatch(r -> metric(r, "geoblocks_tombstones_collected_total{reason=\"acknowledged\"} ") >= 1
                        && metric(r, "geoblocks_tombstones ") == 0));

        System.out.printf("tombstones: %s listening again; its blocks of the deleted file gone after %.1f s, the"
                + " tombstone collected everywhere after %.1f s%n", down, (blocksGone - back) / 1e9, (collected - back) / 1e9);

        Path again = ItSupport.randomFile(work, "again", 65536 + 3, 13);
        client.put("dublin", again, NAME, "tworandom", 65536, null);
        Path out = work.resolve("again-out");
        client.get(down, NAME, out, null);
        assertEquals(-1, Files.mismatch(again, out), "the name created again reads back at " + down);
        assertFalse(client.versions(down, NAME).get(0).deleted());
    }

    private static List<BlockId> blocks(String region) {
        try {
            return FileBlockStorage.inspect(cluster.dataDir(region)).list();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The name's history in the region's own manifest store, read from its data directory. */
    private static Optional<ManifestHistory> history(String region) {
        Path follower = null;
        try {
            follower = Files.createTempDirectory("tombstone-it-follower");
            try (RocksMetaEngine engine = RocksMetaEngine.openSecondary(
                    cluster.dataDir(region).resolve("meta"), follower)) {
                return new ManifestStore(engine).history(NAME);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (follower != null) { // the secondary's own files: one directory per poll otherwise stays in /tmp
                try (Stream<Path> files = Files.walk(follower)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    // best effort: a leftover temp directory does not change the test's result
                }
            }
        }
    }

    /** The value of the sample line starting with {@code prefix} in the region's /metrics, or -1. */
    private static double metric(String region, String prefix) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + cluster.httpPort(region) + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            return r.body().lines().filter(l -> l.startsWith(prefix)).mapToDouble(l -> Double.parseDouble(
                    l.substring(prefix.length()).trim())).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static boolean isUp(String region, String peer) {
        try {
            return client.status(region).peers().stream().anyMatch(p -> p.region().equals(peer) && p.rttMs() >= 0);
        } catch (IOException e) {
            return false;
        }
    }
}
