package geoblocks.app;

import static geoblocks.app.ItSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.node.GeoClient;
import geoblocks.node.cli.Cluster;
import geoblocks.s3storage.WeedServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A region whose blocks live in a real S3 server, with real node processes: SeaweedFS's
 * {@code weed server -s3} (installed and started as {@code S3BlockStorageTest} does) holds mumbai's
 * blocks ({@code geoblocks.s3-storage.mumbai}); the other three regions keep theirs on disk. A file
 * put with a copy at mumbai lands in the bucket and reads back at every region; its objects deleted
 * behind the node's back (a lost copy) are put back by mumbai's scrubber from the other copy.
 */
@ExtendWith(QuickLaunch.class)
class S3RegionIT {
    static final String BUCKET = "geoblocks-region-it";
    static final String PREFIX = "mumbai/";
    @TempDir
    static Path work;
    static WeedServer weed;
    static S3Client s3;
    static ItSupport.Nodes nodes;

    @BeforeAll
    static void start() throws Exception {
        weed = WeedServer.start(Files.createDirectories(work.resolve("weed")));
        s3 = S3Client.builder().endpointOverride(weed.endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(WeedServer.ACCESS_KEY, WeedServer.SECRET_KEY)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
        s3.createBucket(b -> b.bucket(BUCKET));
        nodes = ItSupport.Nodes.startAllUp(work.resolve("cluster"), false,
                "geoblocks.node { scrub-rate = 64 MiB, scrub-pass-interval = 1 s }\n"
                        + "geoblocks.s3-storage.mumbai { endpoint = \"" + weed.endpoint + "\", bucket = " + BUCKET
                        + ", prefix = \"" + PREFIX + "\", access-key = " + WeedServer.ACCESS_KEY
                        + ", secret-key = " + WeedServer.SECRET_KEY + " }\n", 20_000, 60);
    }

    @AfterAll
    static void stop() {
        if (nodes != null) {
            nodes.close();
        }
        if (s3 != null) {
            s3.close();
        }
        if (weed != null) {
            weed.close();
        }
    }

    /** The block objects under mumbai's prefix. */
    /** The block objects under the region's prefix (not its owner marker, geoblocks-owner). */
    static Set<String> objects() {
        Set<String> keys = new TreeSet<>();
        s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(PREFIX + "blocks/")).contents().stream().map(S3Object::key)
                .forEach(keys::add);
        return keys;
    }

    @Test
    void putGetAndRepair_ofARegionKeptInS3() throws Exception {
        GeoClient client = nodes.client();
        Path in = ItSupport.randomFile(work, "in", 5 * 65536 + 123, 7);
        client.put("mumbai", in, "in-s3", "localclosest", 65536, null);
        Manifest m = client.stat("seoul", "in-s3");
        assertEquals(6, m.blocks().size());
        m.blocks().forEach(b -> assertTrue(b.replicas().contains("mumbai") && b.replicas().size() == 2, b.replicas().toString()));
        Set<String> stored = objects();
        assertEquals(6, stored.size(), "one object per block in the bucket: " + stored);
        for (String r : LocalCluster.REGIONS) {
            Path out = work.resolve("out-" + r);
            client.get(r, "in-s3", out, null);
            assertEquals(-1, Files.mismatch(in, out), "read at " + r);
        }
        // a file that lives only in S3 (policy local at mumbai) reads back elsewhere too
        client.put("mumbai", in, "only-s3", "local", 65536, null);
        assertEquals(12, objects().size());
        client.get("dublin", "only-s3", work.resolve("only"), null);
        assertEquals(-1, Files.mismatch(in, work.resolve("only")));

        // lose mumbai's copies of in-s3 behind the node's back: the scrubber puts them back from the other copy
        Set<String> lost = new TreeSet<>(stored);
        for (String key : lost) {
            s3.deleteObject(b -> b.bucket(BUCKET).key(key));
        }
        assertEquals(6, objects().size());
        await(30, "mumbai's scrubber restores its lost copies in the bucket", () -> objects().containsAll(lost));
        assertTrue(client.status("mumbai").repaired() >= 6, "mumbai repaired " + client.status("mumbai").repaired());
        String other = m.blocks().get(0).replicas().stream().filter(r -> !r.equals("mumbai")).findFirst().orElseThrow();
        // mumbai reads its own copy first: the restored objects serve the get
        Path out = work.resolve("out-again");
        client.get("mumbai", "in-s3", out, null);
        assertEquals(-1, Files.mismatch(in, out), "read at mumbai after the repair (other copy at " + other + ")");
        assertEquals(List.of(), client.stat("mumbai", "in-s3").blocks().stream()
                .filter(b -> !b.replicas().contains("mumbai")).toList(), "the manifest still places a copy at mumbai");
    }

    /**
     * A multipart upload survives its gateway's restart (issue 44): part 1 uploaded at seoul, seoul killed
     * (SIGKILL) and started again, then part 2 and Complete at seoul; the object reads back whole. Before, the
     * restart emptied the spool and forgot the upload (NoSuchUpload).
     */
    @Test
    void aMultipartUpload_survivesItsGatewaysRestart() throws Exception {
        S3Client gw = S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:"
                + nodes.cluster().httpPort("seoul"))).region(Region.of("seoul")).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("geoblocks-demo",
                        "geoblocks-local-demo-secret")))
                .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
        try (gw) {
            gw.createBucket(b -> b.bucket("restart-mp"));
            String id = gw.createMultipartUpload(b -> b.bucket("restart-mp").key("big")).uploadId();
            byte[] one = new byte[5 << 20];
            byte[] two = new byte[1000];
            new Random(5).nextBytes(one);
            new Random(6).nextBytes(two);
            String e1 = gw.uploadPart(b -> b.bucket("restart-mp").key("big").uploadId(id).partNumber(1),
                    software.amazon.awssdk.core.sync.RequestBody.fromBytes(one)).eTag();

            nodes.cluster().kill("seoul");
            nodes.cluster().startNode("seoul");
            nodes.cluster().awaitListening("seoul");
            await(60, "seoul's gateway answers again", () -> {
                try {
                    gw.headBucket(b -> b.bucket("restart-mp"));
                    return true;
                } catch (RuntimeException e) {
                    return false;
                }
            });
            // a restarted node places blocks once its RTT probes found its peers up again
            Cluster.awaitAllUp(nodes.client(), List.of("seoul"), 60_000);
            assertEquals(List.of(1), gw.listParts(b -> b.bucket("restart-mp").key("big").uploadId(id)).parts().stream()
                    .map(p -> p.partNumber()).toList(), "the upload and its part survived the restart");
            String e2 = gw.uploadPart(b -> b.bucket("restart-mp").key("big").uploadId(id).partNumber(2),
                    software.amazon.awssdk.core.sync.RequestBody.fromBytes(two)).eTag();
            gw.completeMultipartUpload(b -> b.bucket("restart-mp").key("big").uploadId(id).multipartUpload(m -> m.parts(
                    software.amazon.awssdk.services.s3.model.CompletedPart.builder().partNumber(1).eTag(e1).build(),
                    software.amazon.awssdk.services.s3.model.CompletedPart.builder().partNumber(2).eTag(e2).build())));
            byte[] got = gw.getObjectAsBytes(b -> b.bucket("restart-mp").key("big")).asByteArray();
            byte[] want = new byte[one.length + two.length];
            System.arraycopy(one, 0, want, 0, one.length);
            System.arraycopy(two, 0, want, one.length, two.length);
            assertTrue(Arrays.equals(want, got), "the object reads back whole: " + got.length + " bytes");
        }
    }
}
