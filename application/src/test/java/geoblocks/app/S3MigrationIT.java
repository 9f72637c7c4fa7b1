package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.node.GeoClient;
import geoblocks.node.s3.migration.PendingMigration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * DataBridge's migration is durable (real node processes, curl as the S3 client): an object a near
 * node stored while its bucket's home was down, whose in-memory move attempts all failed and whose
 * near node then crashed, still ends at home once both are back, with no client action; the sweep
 * (every second here) finds it.
 */
@ExtendWith(QuickLaunch.class)
class S3MigrationIT {
    static final String BUCKET = "it-sweep";
    static final String KEY = "late.bin";
    @TempDir
    static Path work;
    static ItSupport.Nodes nodes;

    @BeforeAll
    static void start() throws Exception {
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false, "geoblocks.s3 { migration-sweep-interval = 1 s,"
                + " migration-retry-min = 1 s, migration-retry-max = 2 s }\n", 20_000, 60);
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
    }

    private static String endpoint(String region) {
        return "http://127.0.0.1:" + nodes.cluster().httpPort(region);
    }

    /** curl signing with the gateway's demo credentials; {@code args} before the URL. */
    private static ItSupport.Run curl(List<String> args, String url) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "-v", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user",
                "geoblocks-demo:geoblocks-local-demo-secret", "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"));
        cmd.addAll(args);
        cmd.add(url);
        return ItSupport.run(cmd, work, Map.of(), 120);
    }

    private static boolean isUp(String region, String peer) {
        try {
            return nodes.client().status(region).peers().stream().anyMatch(p -> p.region().equals(peer) && p.rttMs() >= 0);
        } catch (IOException e) {
            return false;
        }
    }

    private static long count(String region, String text) {
        try {
            return Files.readAllLines(nodes.cluster().log(region)).stream().filter(l -> l.contains(text)).count();
        } catch (IOException e) {
            return 0;
        }
    }

    @Test
    void objectStoredWhileHomeIsDown_endsAtHome_afterItsAttemptsFailedAndTheNearNodeRestarted() throws Exception {
        LocalCluster cluster = nodes.cluster();
        GeoClient client = nodes.client();
        // a create is decided by its name's owner region once it has compared manifests with every peer
        ItSupport.await(90, "bucket created", () -> {
            try {
                ItSupport.Run mb = curl(List.of("-X", "PUT", "--data-binary",
                        "<CreateBucketConfiguration><LocationConstraint>dublin</LocationConstraint></CreateBucketConfiguration>"),
                        endpoint("seoul") + "/" + BUCKET);
                return mb.code() == 0 && (mb.out().contains("< HTTP/1.1 200") || mb.out().contains("BucketAlreadyOwnedByYou"));
            } catch (IOException | InterruptedException e) {
                return false;
            }
        });
        long began = System.nanoTime();
        cluster.kill("dublin");
        ItSupport.await(30, "seoul sees dublin down", () -> !isUp("seoul", "dublin"));

        // a client in seoul's region PUTs at mumbai: 307 to seoul, which stores it with one copy
        Path in = ItSupport.randomFile(work, "late.bin", (3 << 20) + 17, 41);
        ItSupport.Run put = curl(List.of("-L", "--location-trusted", "-T", in.toString(), "-H",
                "X-Geoblocks-Client-Region: seoul"), endpoint("mumbai") + "/" + BUCKET + "/" + KEY);
        assertEquals(0, put.code(), put.out());
        assertTrue(put.out().contains("< HTTP/1.1 307") && put.out().contains("< HTTP/1.1 200 OK"), put.out());
        String name = BUCKET + "/" + KEY;
        assertEquals("seoul", client.stat("seoul", name).uploadedAt());

        // the upload's own attempts fail (home is down), then a sweep's; nothing moves
        ItSupport.await(60, "seoul's in-memory attempts fail", () -> count("seoul", "DataBridge: moving " + name) > 0
                && count("seoul", "a sweep tries again") > 0);
        ItSupport.await(30, "a sweep retries while dublin is down (the second failed move is the sweep's)",
                () -> count("seoul", "(2 failed moves)") > 0);
        assertFalse(PendingMigration.of(client.stat("seoul", name)).orElseThrow().done());

        // the near node crashes (its in-memory state is gone), then home and near node come back
        cluster.kill("seoul");
        cluster.startNode("dublin");
        cluster.startNode("seoul");
        cluster.awaitListening("dublin");
        cluster.awaitListening("seoul");
        long back = System.nanoTime();
        ItSupport.await(120, "the object moved home with no client action", () -> {
            try {
                ClientPort.FileStat st = client.statFull("dublin", name);
                return PendingMigration.of(st.manifest()).orElseThrow().done();
            } catch (IOException e) {
                return false;
            }
        });
        long home = System.nanoTime();
        ClientPort.FileStat st = client.statFull("seoul", name);
        PendingMigration p = PendingMigration.of(st.manifest()).orElseThrow();
        assertEquals("seoul", p.storedAt());
        assertEquals("dublin", p.to().get(0));
        assertTrue(p.done(), st.manifest().toString());
        for (Manifest.BlockRef b : st.manifest().blocks()) {
            assertTrue(b.replicas().contains("dublin") && !b.replicas().contains("seoul"), b.replicas().toString());
        }
        Path out = work.resolve("late-out.bin");
        client.get("dublin", name, out, null);
        assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out));
        System.out.printf("S3MigrationIT: dublin down to object at home %.1f s, of which nodes back to home %.1f s%n",
                (home - began) / 1e9, (home - back) / 1e9);
    }
}
