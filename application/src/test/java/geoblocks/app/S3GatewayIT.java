package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The S3 gateway of a real 4-node local cluster (emulated WAN on) driven by the clients users have:
 * boto3 (buckets; put/get/head/delete of 0 B, 1 KiB, 5 MiB, 40 MiB byte for byte; ranged get; a 40 MiB
 * multipart upload; listing with prefix and delimiter; a wrong secret; a presigned GET; conditional
 * writes, an If-Match race of two writers at two nodes with one winner, copy-source conditions;
 * versioning with ids, delete markers and ListObjectVersions), the aws CLI
 * ({@code s3 mb/cp/ls}), curl through a DataBridge 307 (sent before the body; the object then moves
 * to its bucket's home, as {@code client stat --json} shows), and bad input (scripts/s3/bad_input.py); with curl, a ranged GET that reads
 * only the blocks covering the range, Content-MD5 checks, a CreateMultipartUpload redirected, and a small
 * object stored inline (no block file on any node) served whole, ranged and by HEAD from other nodes. boto3 and the aws CLI are installed
 * into a virtualenv by {@code scripts/install-s3-test-tools.sh} when missing.
 *
 * <p>One cluster for the class ({@link S3GatewayCluster}). The two methods that count what a node did
 * (the block bytes dublin received for a range, seoul's body timeouts) run first, one after the other
 * and alone; then {@link SideBySide}'s run at once (at most {@link ItParallelism}'s number, longest
 * first): each works in buckets and files of its own, and most of their time is spent waiting on the
 * emulated WAN, a lifecycle day or a client timeout.
 */
@ExtendWith(QuickLaunch.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class S3GatewayIT extends S3GatewayCluster {
    @Test
    @Order(1)
    void rangedGet_ofAFewBytesNearTheEnd_fetchesOnlyTheLastBlock() throws Exception {
        int block = 1 << 20;
        int size = 8 * block;
        // one copy, at seoul: a GET at dublin fetches every block it reads from seoul
        ItSupport.Run mb = curl("-X", "PUT", "-H", "Content-Length: 0", "-H", "x-geoblocks-policy: local", "-H", "x-geoblocks-block-size: " + block,
                endpoint("seoul") + "/it-range");
        assertEquals(0, mb.code(), mb.out());
        assertTrue(mb.out().contains("< HTTP/1.1 200"), mb.out());
        Path in = ItSupport.randomFile(work, "range.bin", size, 73);
        ItSupport.Run put = curl("-T", in.toString(), endpoint("seoul") + "/it-range/big.bin");
        assertEquals(0, put.code(), put.out());
        assertTrue(put.out().contains("< HTTP/1.1 200"), put.out());
        ItSupport.await(60, "dublin knows the object", () -> {
            try {
                return nodes.client().statFull("dublin", "it-range/big.bin") != null;
            } catch (IOException e) {
                return false;
            }
        });
        ClientPort.FileStat st = nodes.client().statFull("dublin", "it-range/big.bin");
        assertEquals(8, st.manifest().blocks().size());
        assertTrue(st.manifest().blocks().stream().allMatch(b -> b.replicas().equals(List.of("seoul"))),
                st.manifest().toString());

        long first = size - 1000;
        long last = size - 901;
        Path out = work.resolve("range-out.bin");
        long before = foregroundReceived("dublin");
        ItSupport.Run get = curl("-H", "Range: bytes=" + first + "-" + last, "-o", out.toString(),
                endpoint("dublin") + "/it-range/big.bin");
        long moved = foregroundReceived("dublin") - before;
        assertEquals(0, get.code(), get.out());
        assertTrue(get.out().contains("< HTTP/1.1 206"), get.out());
        assertTrue(get.out().contains("< Content-Range: bytes " + first + "-" + last + "/" + size), get.out());
        byte[] whole = Files.readAllBytes(in);
        assertArrayEquals(Arrays.copyOfRange(whole, (int) first, (int) last + 1), Files.readAllBytes(out));
        System.out.println("ranged GET of " + (last - first + 1) + " bytes of a " + size + "-byte object in blocks of "
                + block + ": dublin received " + moved + " block bytes");
        assertTrue(moved >= block && moved < 2L * block, "dublin received " + moved + " block bytes for the range");

        // the same range spanning the boundary of blocks 3 and 4 reads two blocks
        first = 4L * block - 10;
        last = 4L * block + 9;
        before = foregroundReceived("dublin");
        get = curl("-H", "Range: bytes=" + first + "-" + last, "-o", out.toString(), endpoint("dublin") + "/it-range/big.bin");
        moved = foregroundReceived("dublin") - before;
        assertEquals(0, get.code(), get.out());
        assertArrayEquals(Arrays.copyOfRange(whole, (int) first, (int) last + 1), Files.readAllBytes(out));
        System.out.println("ranged GET across a block boundary: dublin received " + moved + " block bytes");
        assertTrue(moved >= 2L * block && moved < 3L * block, "dublin received " + moved + " block bytes");

        // the whole object, for comparison
        before = foregroundReceived("dublin");
        get = curl("-o", out.toString(), endpoint("dublin") + "/it-range/big.bin");
        moved = foregroundReceived("dublin") - before;
        assertEquals(0, get.code(), get.out());
        assertArrayEquals(whole, Files.readAllBytes(out));
        System.out.println("whole GET: dublin received " + moved + " block bytes");
        assertTrue(moved >= size && moved < size + block, "dublin received " + moved + " block bytes");
    }

    @Test
    @Order(2)
    void badInput_getsClearErrors_andSlowClientsAreCutOff() throws Exception {
        ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/bad_input.py").toString(), endpoint("seoul"),
                HEAD_TIMEOUT_S, BODY_GRACE_S, nodes.cluster().dataDir("seoul").resolve("s3-spool").toString()), Map.of(), 300);
        System.out.println(r.out());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("ALL OK"), r.out());
        assertTrue(r.out().contains("ok slow-body cut after"), r.out());
        // the node counted the slow bodies (the short body that waited, and the trickle) as body timeouts
        ItSupport.Run metrics = run(List.of("curl", "-sS", endpoint("seoul") + "/metrics"), Map.of(), 60);
        assertTrue(metrics.out().contains("geoblocks_refused_input_total{cause=\"http_body_timeout\"} 2.0"), metrics.out());
    }

    /**
     * The methods that only use the cluster. The class runs after the methods above, in their thread;
     * its methods (each {@code CONCURRENT}) then run side by side.
     */
    @Nested
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class SideBySide {
        @Test
        @Order(1)
        @Execution(ExecutionMode.CONCURRENT)
        void boto3_bucketsObjectsRangesMultipartListingAuthAndPresign() throws Exception {
            ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/boto3_check.py").toString(), endpoint("seoul"),
                    endpoint("dublin")), Map.of(), 900);
            System.out.println(r.out());
            assertEquals(0, r.code(), r.out());
            assertTrue(r.out().contains("ALL OK"), r.out());
            assertTrue(r.out().contains("ok put-get-head 41943040 bytes"), r.out());
            assertTrue(r.out().contains("ok multipart"), r.out());
            assertTrue(r.out().contains("ok conditional-writes"), r.out());
            assertTrue(r.out().contains("ok compare-and-swap-race"), r.out());
            assertTrue(r.out().contains("ok copy-source-conditions"), r.out());
            assertTrue(r.out().contains("ok versioning"), r.out());
        }

        /**
         * DeleteObject(s) with a versionId (noncurrent and current versions, delete markers), object lock (a
         * retention or legal hold refuses a version delete at both nodes, and keeps a version from the lifecycle), user metadata
         * and standard headers (PUT, copy, REPLACE, multipart, the 2 KB limit), and lifecycle rules applied by
         * the nodes once the cluster's short lifecycle day has passed.
         */
        @Test
        @Order(2)
        @Execution(ExecutionMode.CONCURRENT)
        void boto3_versionDeletesMetadataAndLifecycle() throws Exception {
            ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/lifecycle_check.py").toString(), endpoint("seoul"),
                    endpoint("dublin"), Integer.toString(LIFECYCLE_DAY_S)), Map.of(), 600);
            System.out.println(r.out());
            assertEquals(0, r.code(), r.out());
            for (String check : List.of("delete-versions", "object-lock", "metadata", "lifecycle-config", "lifecycle-runner",
                    "object-lock-lifecycle", "encryption-refused")) {
                assertTrue(r.out().contains("ok " + check), check + " missing:\n" + r.out());
            }
            assertTrue(r.out().contains("ALL OK"), r.out());
        }

        /**
         * Access keys made with the CLI (a second key, its grants, a revoked key refused at two nodes),
         * canned ACLs with unsigned reads of a public-read object, PublicAccessBlock and virtual-hosted
         * addressing, all over HTTPS with the self-signed certificate (boto3 verifies it as its CA).
         */
        @Test
        @Order(3)
        @Execution(ExecutionMode.CONCURRENT)
        void boto3_keysAclsPublicReadRevocationAndVirtualHosts_overHttps() throws Exception {
            StringBuilder client = new StringBuilder();
            for (String a : LocalCluster.launcher(List.of())) {
                client.append('\'').append(a.replace("'", "'\\''")).append("' ");
            }
            client.append("client --config '").append(nodes.cluster().configFile()).append("'");
            ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/keys_check.py").toString(),
                    endpoint("seoul").replace("http:", "https:"), endpoint("dublin").replace("http:", "https:"), "seoul", "dublin"),
                    Map.of("GEOBLOCKS_CLIENT", client.toString(), "GEOBLOCKS_CA", work.resolve("cert.pem").toString()), 600);
            System.out.println(r.out());
            assertEquals(0, r.code(), r.out());
            for (String check : List.of("key-create", "key-list", "second-key", "private", "bucket-grant", "public-read",
                    "public-access-block", "not-implemented", "demo-key", "revoke", "virtual-hosted")) {
                assertTrue(r.out().contains("ok " + check), check + " missing:\n" + r.out());
            }
            assertTrue(r.out().contains("all checks passed (https)"), r.out());
        }

        /** SSE-C, SSE-S3, copies and bucket defaults over HTTPS; then no data directory holds an encrypted object's plaintext. */
        @Test
        @Order(4)
        @Execution(ExecutionMode.CONCURRENT)
        void boto3_sseCAndSseS3_overHttps_andNoPlaintextOnDisk() throws Exception {
            ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/sse_check.py").toString(),
                    endpoint("seoul").replace("http:", "https:"), endpoint("dublin").replace("http:", "https:"), endpoint("seoul"),
                    work.resolve("cluster").resolve("data").toString()), Map.of("GEOBLOCKS_CA", work.resolve("cert.pem").toString()), 600);
            System.out.println(r.out());
            assertEquals(0, r.code(), r.out());
            for (String check : List.of("sse-c-put-get", "sse-c-range", "sse-c-wrong-key", "sse-c-sizes", "sse-c-multipart", "sse-s3",
                    "sse-copy", "bucket-encryption", "sse-at-rest")) {
                assertTrue(r.out().contains("ok " + check), check + " missing:\n" + r.out());
            }
            assertTrue(r.out().contains("all sse checks passed"), r.out());
        }

        @Test
        @Order(5)
        @Execution(ExecutionMode.CONCURRENT)
        void curl_putAtAFarNode_isRedirectedBeforeTheBody_andTheObjectEndsAtHome() throws Exception {
            ItSupport.Run mb = run(List.of(python(), "-c", "import boto3; from botocore.config import Config; boto3.client('s3', "
                    + "endpoint_url='" + endpoint("dublin") + "', aws_access_key_id='geoblocks-demo', aws_secret_access_key="
                    + "'geoblocks-local-demo-secret', region_name='us-east-1', config=Config(signature_version='s3v4'))"
                    + ".create_bucket(Bucket='it-bridge', CreateBucketConfiguration={'LocationConstraint': 'dublin'})"),
                    Map.of(), 120);
            assertEquals(0, mb.code(), mb.out());
            Path in = ItSupport.randomFile(work, "bridge.bin", 3 << 20, 72);
            ItSupport.Run r = run(List.of("curl", "-sS", "-v", "-L", "--location-trusted", "-T", in.toString(), "--aws-sigv4",
                    "aws:amz:us-east-1:s3", "--user", "geoblocks-demo:geoblocks-local-demo-secret",
                    "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", "-H", "X-Geoblocks-Client-Region: seoul",
                    endpoint("dublin") + "/it-bridge/photo.bin"), Map.of(), 300);
            assertEquals(0, r.code(), r.out());
            List<String> answers = new ArrayList<>();
            for (String line : r.out().split("\n")) {
                if (line.startsWith("< HTTP/1.1 ")) {
                    answers.add(line.trim().substring(2));
                }
            }
            // dublin answers 307 at once (no 100 Continue: the body is never sent there); seoul then takes it
            assertEquals("HTTP/1.1 307 Temporary Redirect", answers.get(0), r.out());
            assertEquals(List.of("HTTP/1.1 100 Continue", "HTTP/1.1 200 OK"), answers.subList(1, answers.size()), r.out());
            // curl asked dublin to confirm before sending (Expect: 100-continue) and did not give up waiting
            // (after 1 s it would send the body anyway): dublin's 307 came first and no body byte went to dublin
            assertTrue(r.out().contains("> Expect: 100-continue"), r.out());
            assertTrue(!r.out().contains("Done waiting for 100-continue"), r.out());
            assertEquals(2, r.out().split("> Expect: 100-continue", -1).length - 1, "once to dublin, once to seoul: " + r.out());
            assertTrue(r.out().contains("< Location: " + endpoint("seoul") + "/it-bridge/photo.bin"), r.out());
            // stored at seoul (ack local), then moved home: every block in dublin and its nearest region
            GeoClient client = nodes.client();
            ItSupport.await(120, "the object moved home", () -> {
                try {
                    ClientPort.FileStat st = client.statFull("dublin", "it-bridge/photo.bin");
                    return st.manifest().locEpoch() > 0 && st.manifest().blocks().stream()
                            .allMatch(b -> b.replicas().contains("dublin") && !b.replicas().contains("seoul"));
                } catch (IOException e) {
                    return false;
                }
            });
            ClientPort.FileStat st = client.statFull("dublin", "it-bridge/photo.bin");
            assertEquals("seoul", st.manifest().uploadedAt());
            assertEquals("dublin,mumbai", st.manifest().meta().get("migrate-to"));
            // what a user sees: `client stat NAME --json` (the real CLI) shows where the redirect stored it,
            // where it moved, and that it is home
            List<String> cli = new ArrayList<>(LocalCluster.launcher(List.of()));
            cli.addAll(List.of("client", "--at", "mumbai", "--config", nodes.cluster().configFile().toString(), "stat",
                    "it-bridge/photo.bin", "--json"));
            ItSupport.Run stat = run(cli, Map.of(), 120);
            assertEquals(0, stat.code(), stat.out());
            String json = stat.out().lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow(() -> new AssertionError(stat.out()));
            assertTrue(json.startsWith("{\"name\":\"it-bridge/photo.bin\",\"size\":" + (3 << 20) + ","), json);
            assertTrue(json.contains("\"uploadedAt\":\"seoul\""), json);
            assertTrue(json.contains("\"migration\":{\"stored_at\":\"seoul\",\"to\":[\"dublin\",\"mumbai\"],\"done\":true}"), json);
            assertTrue(!Pattern.compile("\"(replicas|pending)\":\\[[^\\]]*\"seoul\"").matcher(json).find(),
                    "no block left at seoul: " + json);
            Path out = work.resolve("bridge-out.bin");
            client.get("dublin", "it-bridge/photo.bin", out, null);
            assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out));
            // a GET with ?redirect=nearest is sent on to the node of the client's region, which serves it
            Path viaNearest = work.resolve("bridge-nearest.bin");
            ItSupport.Run get = run(List.of("curl", "-sS", "-v", "-L", "--location-trusted", "-o", viaNearest.toString(), "--aws-sigv4",
                    "aws:amz:us-east-1:s3", "--user", "geoblocks-demo:geoblocks-local-demo-secret",
                    "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", "-H", "X-Geoblocks-Client-Region: saopaulo",
                    endpoint("dublin") + "/it-bridge/photo.bin?redirect=nearest"), Map.of(), 120);
            assertEquals(0, get.code(), get.out());
            assertTrue(get.out().contains("< HTTP/1.1 307") && get.out().contains("< Location: " + endpoint("saopaulo")), get.out());
            assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(viaNearest));
        }

        @Test
        @Order(6)
        @Execution(ExecutionMode.CONCURRENT)
        void awsCli_makesABucketCopiesBothWaysAndLists() throws Exception {
            Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", "geoblocks-demo", "AWS_SECRET_ACCESS_KEY",
                    "geoblocks-local-demo-secret", "AWS_DEFAULT_REGION", "us-east-1", "AWS_CONFIG_FILE", "/dev/null",
                    "AWS_SHARED_CREDENTIALS_FILE", "/dev/null");
            String aws = venv.resolve("bin/aws").toString();
            Path in = ItSupport.randomFile(work, "cli-in.bin", 12 << 20, 71);
            Path out = work.resolve("cli-out.bin");
            for (List<String> cmd : List.of(
                    List.of(aws, "--endpoint-url", endpoint("seoul"), "s3", "mb", "s3://it-cli"),
                    List.of(aws, "--endpoint-url", endpoint("seoul"), "s3", "cp", in.toString(), "s3://it-cli/dir/in.bin"),
                    List.of(aws, "--endpoint-url", endpoint("saopaulo"), "s3", "cp", "s3://it-cli/dir/in.bin", out.toString()))) {
                ItSupport.Run r = run(cmd, env, 300);
                assertEquals(0, r.code(), String.join(" ", cmd) + ":\n" + r.out());
            }
            assertArrayEquals(Files.readAllBytes(in), Files.readAllBytes(out));
            ItSupport.Run ls = run(List.of(aws, "--endpoint-url", endpoint("mumbai"), "s3", "ls", "s3://it-cli/dir/"), env, 120);
            assertEquals(0, ls.code(), ls.out());
            assertTrue(ls.out().contains(String.valueOf(12 << 20)) && ls.out().contains("in.bin"), ls.out());
            // a copy inside the store, then rm --recursive (DeleteObjects) and rb
            for (List<String> cmd : List.of(
                    List.of(aws, "--endpoint-url", endpoint("seoul"), "s3", "cp", "s3://it-cli/dir/in.bin", "s3://it-cli/dir/copy.bin"),
                    List.of(aws, "--endpoint-url", endpoint("seoul"), "s3", "rm", "--recursive", "s3://it-cli/dir/"),
                    List.of(aws, "--endpoint-url", endpoint("seoul"), "s3", "rb", "s3://it-cli"))) {
                ItSupport.Run r = run(cmd, env, 300);
                assertEquals(0, r.code(), String.join(" ", cmd) + ":\n" + r.out());
            }
            ItSupport.Run gone = run(List.of(aws, "--endpoint-url", endpoint("seoul"), "s3", "ls"), env, 120);
            assertEquals(0, gone.code(), gone.out());
            assertTrue(!gone.out().contains("it-cli"), gone.out());
        }

        @Test
        @Order(7)
        @Execution(ExecutionMode.CONCURRENT)
        void boto3_checksumsAwsChunkedTaggingUploadListingAndAttributes() throws Exception {
            ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/objects_check.py").toString(), endpoint("seoul"),
                    endpoint("dublin")), Map.of(), 600);
            System.out.println(r.out());
            assertEquals(0, r.code(), r.out());
            assertTrue(r.out().contains("ALL OK"), r.out());
            for (String check : List.of("checksum-headers", "aws-chunked", "multipart-checksums-listing-attributes", "tagging")) {
                assertTrue(r.out().contains("ok " + check), r.out());
            }
        }

        @Test
        @Order(8)
        @Execution(ExecutionMode.CONCURRENT)
        void smallObject_isStoredInline_noBlockFileOnAnyNode_andServedWholeRangedAndHeadEverywhere() throws Exception {
            ItSupport.Run mb = curl("-X", "PUT", "-H", "Content-Length: 0", "-H", "x-geoblocks-policy: tworandom",
                    endpoint("seoul") + "/it-inline");
            assertEquals(0, mb.code(), mb.out());
            assertTrue(mb.out().contains("< HTTP/1.1 200"), mb.out());
            Path small = ItSupport.randomFile(work, "small.bin", 1000, 75);
            Path large = ItSupport.randomFile(work, "large.bin", 64 << 10, 76); // above inline-max: blocks, as before
            for (Path f : List.of(small, large)) {
                ItSupport.Run put = curl("-T", f.toString(), endpoint("seoul") + "/it-inline/" + f.getFileName());
                assertEquals(0, put.code(), put.out());
                assertTrue(put.out().contains("< HTTP/1.1 200"), put.out());
            }
            ClientPort.FileStat s = nodes.client().statFull("seoul", "it-inline/small.bin");
            assertTrue(s.manifest().isInline(), s.manifest().toString());
            assertEquals(1000, s.manifest().size());
            assertEquals(List.of(), s.manifest().blocks());
            ClientPort.FileStat l = nodes.client().statFull("seoul", "it-inline/large.bin");
            assertTrue(!l.manifest().isInline() && l.manifest().blocks().size() == 1, l.manifest().toString());
            long smallFiles = 0;
            long largeFiles = 0;
            for (String region : List.of("seoul", "dublin", "saopaulo", "mumbai")) {
                smallFiles += blockFiles(region, s.manifest().fileId());
                largeFiles += blockFiles(region, l.manifest().fileId());
            }
            System.out.println("block files: small (1000 B, inline) " + smallFiles + ", large (64 KiB) " + largeFiles);
            assertEquals(0, smallFiles, "no node wrote a block file for the inline object");
            assertEquals(2, largeFiles, "the control object has its two copies (tworandom) as block files");

            byte[] want = Files.readAllBytes(small);
            Path out = work.resolve("small-out.bin");
            ItSupport.Run get = curl("-o", out.toString(), endpoint("dublin") + "/it-inline/small.bin");
            assertEquals(0, get.code(), get.out());
            assertTrue(get.out().contains("< HTTP/1.1 200"), get.out());
            assertArrayEquals(want, Files.readAllBytes(out));
            get = curl("-H", "Range: bytes=10-19", "-o", out.toString(), endpoint("mumbai") + "/it-inline/small.bin");
            assertTrue(get.out().contains("< HTTP/1.1 206") && get.out().contains("< Content-Range: bytes 10-19/1000"), get.out());
            assertArrayEquals(Arrays.copyOfRange(want, 10, 20), Files.readAllBytes(out));
            ItSupport.Run head = curl("-I", endpoint("saopaulo") + "/it-inline/small.bin");
            assertTrue(head.out().contains("< HTTP/1.1 200") && head.out().toLowerCase(Locale.ROOT)
                    .contains("< content-length: 1000"), head.out());
            // the client's download path too (GetTransfer): whole and a range
            nodes.client().get("saopaulo", "it-inline/small.bin", out, null);
            assertArrayEquals(want, Files.readAllBytes(out));
            nodes.client().get("dublin", "it-inline/small.bin", out, "", null, new ClientPort.Range(990, 2000), null);
            assertArrayEquals(Arrays.copyOfRange(want, 990, 1000), Files.readAllBytes(out));
        }

        /** POST object: V2- and V4-signed browser-form uploads and their refusals (scripts/s3/post_check.py). */
        @Test
        @Order(9)
        @Execution(ExecutionMode.CONCURRENT)
        void postObject_browserFormUploads() throws Exception {
            ItSupport.Run r = run(List.of(python(), scripts.resolve("s3/post_check.py").toString(), endpoint("seoul")), Map.of(), 300);
            System.out.println(r.out());
            assertEquals(0, r.code(), r.out());
            assertTrue(r.out().contains("ALL OK"), r.out());
            for (String check : List.of("post-v2", "post-v4-filename-201", "post-refusals")) {
                assertTrue(r.out().contains("ok " + check), r.out());
            }
        }

        @Test
        @Order(10)
        @Execution(ExecutionMode.CONCURRENT)
        void putWithAWrongContentMd5_isBadDigest_aMalformedOne_InvalidDigest_andNothingIsStored() throws Exception {
            ItSupport.Run mb = curl("-X", "PUT", "-H", "Content-Length: 0", endpoint("seoul") + "/it-digest");
            assertEquals(0, mb.code(), mb.out());
            assertTrue(mb.out().contains("< HTTP/1.1 200"), mb.out());
            Path in = ItSupport.randomFile(work, "digest.bin", 1024, 74);
            String zeros = Base64.getEncoder().encodeToString(new byte[16]); // the MD5 of nothing we send
            ItSupport.Run bad = curl("-T", in.toString(), "-H", "Content-MD5: " + zeros, endpoint("seoul") + "/it-digest/bad.bin");
            assertEquals(0, bad.code(), bad.out());
            assertTrue(bad.out().contains("< HTTP/1.1 400") && bad.out().contains("<Code>BadDigest</Code>"), bad.out());
            ItSupport.Run malformed = curl("-T", in.toString(), "-H", "Content-MD5: not-base64!", endpoint("seoul") + "/it-digest/bad.bin");
            assertEquals(0, malformed.code(), malformed.out());
            assertTrue(malformed.out().contains("< HTTP/1.1 400") && malformed.out().contains("<Code>InvalidDigest</Code>"),
                    malformed.out());
            ItSupport.Run head = curl("-I", endpoint("seoul") + "/it-digest/bad.bin");
            assertTrue(head.out().contains("< HTTP/1.1 404"), "nothing was stored: " + head.out());
            // the right digest is taken
            String md5 = Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("MD5").digest(Files.readAllBytes(in)));
            ItSupport.Run good = curl("-T", in.toString(), "-H", "Content-MD5: " + md5, endpoint("seoul") + "/it-digest/bad.bin");
            assertTrue(good.out().contains("< HTTP/1.1 200"), good.out());
        }

        @Test
        @Order(11)
        @Execution(ExecutionMode.CONCURRENT)
        void createMultipartUploadAtAFarNode_isRedirectedToTheClientsNearestNode() throws Exception {
            ItSupport.Run mb = curl("-X", "PUT", "-H", "Content-Length: 0", endpoint("seoul") + "/it-mp-bridge");
            assertEquals(0, mb.code(), mb.out());
            assertTrue(mb.out().contains("< HTTP/1.1 200"), mb.out());
            // "?uploads=": curl 7.88 signs a bare "?uploads" without the "=" SigV4's canonical query has (403)
            ItSupport.Run r = curl("-X", "POST", "-H", "Content-Length: 0", "-H", "X-Geoblocks-Client-Region: saopaulo",
                    endpoint("dublin") + "/it-mp-bridge/big.bin?uploads=");
            assertEquals(0, r.code(), r.out());
            assertTrue(r.out().contains("< HTTP/1.1 307"), r.out());
            assertTrue(r.out().contains("< Location: " + endpoint("saopaulo") + "/it-mp-bridge/big.bin?uploads="), r.out());
            assertTrue(r.out().contains("<Code>TemporaryRedirect</Code>"), r.out());
        }
    }
}
