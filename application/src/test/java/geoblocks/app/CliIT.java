package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import geoblocks.node.AdminClient;
import geoblocks.node.Ports;
import geoblocks.node.host.ClientAccess;
import geoblocks.node.s3.MiniJson;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user meets it: node.jar processes, their output and exit codes. */
@ExtendWith(QuickLaunch.class)
class CliIT {
    @TempDir
    static Path work;
    static LocalCluster cluster;

    record Run(int exit, String out, String err) {}

    private static final AtomicInteger RUNS = new AtomicInteger();

    static Run run(String... args) throws IOException, InterruptedException {
        return runWith(Map.of(), args);
    }

    /** As {@link #run}, with {@code env} added to the command's environment. */
    static Run runWith(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(LocalCluster.launcher(List.of()));
        cmd.addAll(List.of(args));
        int n = RUNS.incrementAndGet();
        Path out = work.resolve("out-" + n);
        Path err = work.resolve("err-" + n);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove(AdminClient.TOKEN_ENV);
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "node.jar " + String.join(" ", args) + " hung");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * Runs independent commands two at a time (the machine has two cores; each is a JVM of its own
     * that mostly starts up) and returns what each printed, in the order given.
     */
    static List<Run> runAll(List<String[]> commands) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Run>> runs = new ArrayList<>();
            for (String[] args : commands) {
                runs.add(pool.submit(() -> run(args)));
            }
            List<Run> done = new ArrayList<>();
            for (Future<Run> r : runs) {
                try {
                    done.add(r.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception x ? x : new RuntimeException(e.getCause());
                }
            }
            return done;
        } finally {
            pool.shutdownNow();
        }
    }

    static void assertOneLineError(Run r, String expected) {
        assertOneLineError(r, 1, expected);
    }

    /** One error line and exit code {@code exit} (a node's failure: its code's, see ExitCodes; usage: 2). */
    static void assertOneLineError(Run r, int exit, String expected) {
        assertEquals(exit, r.exit(), r.toString());
        assertEquals(1, r.err().strip().lines().count(), "exactly one line on stderr: " + r.err());
        assertTrue(r.err().startsWith("error: ") && r.err().contains(expected), r.err());
    }

    @BeforeAll
    static void start() throws IOException {
        cluster = LocalCluster.start(work.resolve("cluster"), true, List.of("-Xmx256m"));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void help_onEveryCommand_exitsZeroWithUsage() throws Exception {
        List<String[]> commands = List.of(new String[] {"--help"}, new String[] {"server", "--help"},
                new String[] {"client", "--help"}, new String[] {"client", "--at", "seoul", "put", "--help"},
                new String[] {"client", "--at", "seoul", "get", "--help"}, new String[] {"client", "--at", "seoul", "stat", "--help"},
                new String[] {"client", "--at", "seoul", "versions", "--help"}, new String[] {"client", "--at", "seoul", "policies", "--help"},
                new String[] {"client", "--at", "seoul", "move", "--help"},
                new String[] {"demo", "--help"}, new String[] {"bench", "--help"}, new String[] {"bench", "storage", "--help"},
                new String[] {"bench", "net", "--help"}, new String[] {"probe", "--help"},
                new String[] {"probe", "report", "--help"});
        List<Run> runs = runAll(commands);
        for (int i = 0; i < commands.size(); i++) {
            Run r = runs.get(i);
            assertEquals(0, r.exit(), String.join(" ", commands.get(i)) + ": " + r);
            assertTrue(r.out().startsWith("Usage:"), r.out());
        }
    }

    @Test
    void benchAndProbe_badArguments_oneLineErrorNamingTheValue() throws Exception {
        Path file = work.resolve("some-file");
        Files.write(file, new byte[] {1});
        List<Run> r = runAll(List.of(new String[] {"bench", "storage", "--streams", "0"},
                new String[] {"bench", "storage", "--block-sizes", "100"},
                new String[] {"bench", "net", "--from", "seoul", "--to", "seoul"},
                new String[] {"bench", "net", "--from", "seoul", "--to", "dublin", "--udp-rates", "fast"},
                new String[] {"probe", "--every", "5m", "--out", work.resolve("p.csv").toString()},
                new String[] {"probe", "--at", "seoul", "--every", "soon", "--out", work.resolve("p.csv").toString()},
                new String[] {"client", "--at", "seoul", "put", "--compress", "lz4", file.toString()}));
        assertOneLineError(r.get(0), "streams must be in 1..64, was 0");
        assertOneLineError(r.get(1), "block size 100 is out of range");
        assertOneLineError(r.get(2), "two different regions");
        assertOneLineError(r.get(3), "'fast'");
        assertOneLineError(r.get(4), "--at REGION is required");
        assertOneLineError(r.get(5), "bad duration 'soon'");
        assertOneLineError(r.get(6), "compression must be none, gzip, zstd or auto, was 'lz4'");
    }

    @Test
    void server_badPlacementPolicy_refusedAtStartNamingTheKey() throws Exception {
        Path unknownKey = work.resolve("bad-placement-key.conf");
        Files.writeString(unknownKey, "geoblocks.placement.policies { eu { copies = 2, terms = [local, closest], requires = [dublin] } }\n");
        Path unsatisfiable = work.resolve("bad-placement-require.conf");
        Files.writeString(unsatisfiable, "geoblocks.placement.policies { eu { copies = 1, terms = [local], require = [dublin, seoul] } }\n");
        List<Run> r = runAll(List.of(
                new String[] {"server", "--id", "seoul", "--config", unknownKey.toString(), "--data", work.resolve("d1").toString()},
                new String[] {"server", "--id", "seoul", "--config", unsatisfiable.toString(), "--data", work.resolve("d2").toString()}));
        assertOneLineError(r.get(0), "geoblocks.placement.policies.eu.requires: unknown key");
        assertOneLineError(r.get(1),
                "geoblocks.placement.policies.eu: no 1 regions out of [dublin, mumbai, saopaulo, seoul] satisfy require [dublin, seoul]");
    }

    @Test
    void badInput_givesOneClearLine_andNonZeroExit() throws Exception {
        Path cfg = cluster.configFile();
        Path f = work.resolve("small");
        Files.write(f, new byte[] {1, 2, 3});
        List<Run> r = runAll(List.of(
                new String[] {"client", "--at", "seoul", "--config", cfg.toString(), "put", f.toString(), "--policy", "best"},
                new String[] {"client", "--at", "seoul", "--config", cfg.toString(), "put", "/no/such/file"},
                new String[] {"client", "--at", "atlantis", "--config", cfg.toString(), "ls"},
                new String[] {"client", "--at", "seoul", "--config", work.resolve("missing.conf").toString(), "ls"},
                new String[] {"client", "--at", "seoul", "--config", cfg.toString(), "put", f.toString(), "--block-size", "12XB"},
                new String[] {"client", "--at", "seoul", "--config", cfg.toString(), "get", "no-such-name", work.resolve("o").toString()},
                new String[] {"client", "--at", "seoul"},
                new String[] {"server"}));
        assertOneLineError(r.get(0), 8, "unknown policy 'best'; choose one of random, tworandom, local, localclosest, localfarthest");
        assertOneLineError(r.get(1), "cannot read file /no/such/file");
        assertOneLineError(r.get(2), "unknown region 'atlantis'");
        assertOneLineError(r.get(3), "does not exist");
        assertOneLineError(r.get(4), "bad size '12XB'");
        assertOneLineError(r.get(5), 3, "no such file 'no-such-name'");
        assertOneLineError(r.get(6), 2, "missing command");
        assertOneLineError(r.get(7), 2, "--id");
    }

    /**
     * The admin API as the CLI meets it: {@code cluster show} with the config's root token; a token made with
     * {@code token create} works for its scope only (exit 11 otherwise), is listed without its secret, and is
     * refused once revoked; a wrong token is refused; over plain HTTP, the OpenAPI document needs no token and
     * a change without one is 401 with a Bearer challenge.
     */
    @Test
    void adminApi_tokensAndScopes_throughTheCli() throws Exception {
        String cfg = cluster.configFile().toString();
        Run show = run("client", "--at", "seoul", "--config", cfg, "cluster", "show");
        assertEquals(0, show.exit(), show.toString());
        assertTrue(show.out().startsWith("cluster layout version 0 (as node seoul holds it)"), show.out());

        // a token record goes to two regions (tworandom): while the cluster still comes up, the create is refused
        // as unavailable (exit 7), and tried again as a script would
        Run made = null;
        for (int i = 0; i < 60; i++) {
            made = run("client", "--at", "dublin", "--config", cfg, "token", "create", "ci-mover", "--scope", "data",
                    "--expires", "1h");
            if (made.exit() != 7) {
                break;
            }
            Thread.sleep(500);
        }
        assertEquals(0, made.exit(), made.toString());
        String token = made.out().strip();
        assertTrue(token.startsWith("gbt_"), made.out());
        String id = token.substring(4, 20);
        // the record reaches seoul by the metadata's replication: the token works there too (within seconds)
        Run refusedShow = null;
        for (int i = 0; i < 30; i++) {
            refusedShow = runWith(Map.of(AdminClient.TOKEN_ENV, token), "client", "--at", "seoul", "--config", cfg,
                    "cluster", "show");
            if (refusedShow.err().contains("403")) {
                break;
            }
            Thread.sleep(500);
        }
        assertOneLineError(refusedShow, 11, "has scopes data, not cluster");
        Run list = run("client", "--at", "seoul", "--config", cfg, "token", "list");
        assertEquals(0, list.exit(), list.toString());
        assertTrue(list.out().contains(id) && list.out().contains("ci-mover") && !list.out().contains(token.substring(21)),
                list.out());
        Run revoke = run("client", "--at", "dublin", "--config", cfg, "token", "revoke", id);
        assertEquals(0, revoke.exit(), revoke.toString());
        Run revoked = runWith(Map.of(AdminClient.TOKEN_ENV, token), "client", "--at", "dublin", "--config", cfg,
                "move", "x", "--to", "seoul");
        assertOneLineError(revoked, 11, "was revoked at");
        Run wrong = runWith(Map.of(AdminClient.TOKEN_ENV, "not-the-token"), "client", "--at", "seoul", "--config",
                cfg, "cluster", "drain", "dublin");
        assertOneLineError(wrong, 11, "admin API: 401");

        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + cluster.httpPort("seoul") + "/_admin/v1";
        HttpResponse<String> doc = http.send(HttpRequest.newBuilder(URI.create(
                base + "/openapi.json")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, doc.statusCode());
        assertTrue(doc.body().contains("\"openapi\": \"3.0.3\""), doc.body());
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(
                base + "/cluster")).POST(HttpRequest.BodyPublishers.ofString(
                        "{\"action\":\"remove\",\"region\":\"dublin\",\"force\":true}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertEquals("Bearer realm=\"geoblocks-admin\"", anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
        // the demo cluster's nodes prove keys (its config names them): a region is added with its node's key only
        Run keyless = run("client", "--at", "seoul", "--config", cfg, "cluster", "add", "paris", "127.0.0.1:1");
        assertOneLineError(keyless, 8, "add region paris with its node's key");
        Run after = run("client", "--at", "seoul", "--config", cfg, "cluster", "show", "--json");
        assertTrue(after.out().startsWith("{\"version\":0,"), "nothing changed: " + after.out());
    }

    /**
     * A client by access key through the CLI: a key made with file grants ({@code key create --files}) puts and lists
     * under its grant with GEOBLOCKS_ACCESS_KEY/GEOBLOCKS_SECRET_KEY, is FORBIDDEN elsewhere (exit 11, nothing
     * written), and once revoked is refused at its next connection.
     */
    @Test
    void accessKey_clientByKey_throughTheCli() throws Exception {
        String cfg = cluster.configFile().toString();
        Run made = null;
        for (int i = 0; i < 60; i++) { // refused as unavailable (exit 7) while the cluster still comes up
            made = run("client", "--at", "seoul", "--config", cfg, "key", "create", "cli-reports", "--files", "Reports/:rw",
                    "--json");
            if (made.exit() != 7) {
                break;
            }
            Thread.sleep(500);
        }
        assertEquals(0, made.exit(), made.toString());
        Map<?, ?> k = (Map<?, ?>) MiniJson.parse(made.out().strip().lines().reduce((a, b) -> b).orElseThrow());
        Map<String, String> env = Map.of(ClientAccess.KEY_ENV, (String) k.get("id"), ClientAccess.SECRET_ENV,
                (String) k.get("secret"));
        Path in = work.resolve("report.bin");
        Files.write(in, new byte[] {7, 7, 7});
        Run put = runWith(env, "client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--name", "Reports/q1");
        assertEquals(0, put.exit(), put.toString());
        Run ls = runWith(env, "client", "--at", "seoul", "--config", cfg, "ls", "--prefix", "Reports/");
        assertTrue(ls.exit() == 0 && ls.out().contains("Reports/q1"), ls.toString());
        Run outside = runWith(env, "client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--name", "Other/q1");
        assertEquals(11, outside.exit(), "FORBIDDEN: " + outside);
        assertEquals(0, run("client", "--at", "seoul", "--config", cfg, "ls").out().lines()
                .filter(l -> l.startsWith("Other/q1")).count(), "nothing written");

        assertEquals(0, run("client", "--at", "seoul", "--config", cfg, "key", "revoke", (String) k.get("id")).exit());
        Run refused = null;
        for (int i = 0; i < 30; i++) { // the node's cached record lives 5 s
            refused = runWith(env, "client", "--at", "seoul", "--config", cfg, "ls", "--prefix", "Reports/");
            if (refused.exit() != 0) {
                break;
            }
            Thread.sleep(500);
        }
        assertTrue(refused.exit() != 0, "a revoked key is refused at its next connection: " + refused);
    }

    @Test
    void benchStorage_createsAMissingDataDirectory_likeServer() throws Exception {
        Path data = work.resolve("new-disk/bench");
        Run r = run("bench", "storage", "--data", data.toString(), "--targets", "raw", "--block-sizes", "4KiB",
                "--streams", "1", "--size", "4KiB", "--max-ops", "1", "--json");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(Files.isDirectory(data), "created");
        try (Stream<Path> left = Files.list(data)) {
            assertEquals(0, left.count(), "the bench's own directory is deleted after");
        }
        Path file = work.resolve("a-file");
        Files.write(file, new byte[] {1});
        assertOneLineError(run("bench", "storage", "--data", file.toString()), "is not a directory");
    }

    @Test
    void unreachableNode_isReportedAtOnce() throws Exception {
        Path conf = work.resolve("dead.conf");
        int port = Ports.freePort(InetAddress.getLoopbackAddress());
        Files.writeString(conf, "geoblocks.cluster.regions = [ { id = seoul, address = \"127.0.0.1:" + port + "\" } ]\n");
        assertOneLineError(run("client", "--at", "seoul", "--config", conf.toString(), "ls"), "cannot reach node seoul");
    }

    @Test
    void putGetStatLsRm_roundTrip() throws Exception {
        String cfg = cluster.configFile().toString();
        byte[] data = new byte[700_000];
        new Random(3).nextBytes(data);
        Path in = work.resolve("photo.bin");
        Files.write(in, data);
        Run put = run("client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--policy", "localfarthest",
                "--block-size", "256KiB", "--name", "cli/photo");
        assertEquals(0, put.exit(), put.toString());
        assertTrue(put.out().startsWith("stored cli/photo (700000 bytes, policy localfarthest, blocks of 256 KiB) at seoul"), put.out());

        Path out = work.resolve("photo.out");
        Run get = run("client", "--at", "mumbai", "--config", cfg, "get", "cli/photo", out.toString());
        assertEquals(0, get.exit(), get.toString());
        assertTrue(get.out().contains("3 blocks verified"), get.out());
        assertEquals(-1, Files.mismatch(in, out));
        // the same file read by every replica at once (localfarthest: seoul and saopaulo), losers cancelled
        Path parallel = work.resolve("photo.parallel");
        Run par = run("client", "--at", "mumbai", "--config", cfg, "get", "cli/photo", parallel.toString(), "--read",
                "parallel", "--rank", "load");
        assertEquals(0, par.exit(), par.toString());
        assertEquals(-1, Files.mismatch(in, parallel));
        assertOneLineError(run("client", "--at", "mumbai", "--config", cfg, "get", "cli/photo", parallel.toString(),
                "--read", "fastest"), "unknown read strategy 'fastest'; choose first, parallel or hedged");

        Run stat = run("client", "--at", "dublin", "--config", cfg, "stat", "cli/photo", "--json");
        assertEquals(0, stat.exit(), stat.toString());
        assertTrue(stat.out().startsWith("{\"name\":\"cli/photo\",\"size\":700000,\"blockSize\":262144,\"policy\":\"localfarthest\""), stat.out());
        assertEquals(3, stat.out().split("\"replicas\":\\[\"seoul\",\"saopaulo\"\\]", -1).length - 1, stat.out());

        Run local = run("client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--policy", "localfarthest",
                "--block-size", "256KiB", "--name", "cli/async", "--ack", "local");
        assertTrue(local.out().startsWith("stored cli/async (700000 bytes, policy localfarthest, blocks of 256 KiB, ack local) at seoul"),
                local.toString());
        Run pending = run("client", "--at", "seoul", "--config", cfg, "stat", "cli/async", "--json");
        assertTrue(pending.out().contains("\"pending_known\":true") && pending.out().contains("\"pending\":["), pending.out());
        assertOneLineError(run("client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--ack", "some"),
                "--ack must be all or local, was 'some'");

        // seoul sent the saopaulo replicas (a foreground put) as TCP block data; status shows it per transport
        Run status = run("client", "--at", "seoul", "--config", cfg, "status", "--json");
        assertEquals(0, status.exit(), status.toString());
        Matcher t = Pattern.compile(
                "\"transfers\":\\{\"ledbat\":\\{\"bytes_sent\":(\\d+),\"bytes_received\":(\\d+)\\},"
                + "\"tcp\":\\{\"bytes_sent\":(\\d+),\"bytes_received\":(\\d+)\\},"
                + "\"foreground\":\\{\"bytes_sent\":(\\d+),\"bytes_received\":(\\d+)\\},"
                + "\"background\":\\{\"bytes_sent\":(\\d+),\"bytes_received\":(\\d+)\\}\\}").matcher(status.out());
        assertTrue(t.find(), status.out());
        assertTrue(Long.parseLong(t.group(3)) >= 700_000, status.out());
        assertEquals(t.group(3), t.group(5), "the saopaulo replicas were foreground: " + status.out());
        assertTrue(status.out().startsWith("{\"region\":\"seoul\",\"peers\":["), status.out());
        // and the background part: bytes and copies still to send, the LEDBAT flow per peer region
        assertTrue(Pattern.compile("\"background\":\\{\"queued_bytes\":\\d+,\"queued_copies\":\\d+,"
                + "\"peers\":\\{(\"[a-z]+\":\\{\"active\":(true|false),\"streams\":\\d+,\"cwnd_bytes\":\\d+,[^}]*"
                + "\"retransmissions\":\\d+,\"path_mtu_bytes\":\\d+,\"stalled_for_ms\":\\d+\\},?)*\\}\\},\"gc\":\\{\"collected_blocks\":\\d+,\"collected_bytes\":\\d+,[^$]*\\},"
                + "\"layout_version\":\\d+,\"rebalance\":\\{\"toDrain\":\\{[^}]*\\},\"shortBytes\":\\{[^}]*\\}\\}\\}$")
                .matcher(status.out().trim()).find(), status.out());
        Run text = run("client", "--at", "seoul", "--config", cfg, "status");
        assertTrue(text.out().contains("block transfers between nodes: ledbat "), text.out());
        assertTrue(text.out().contains("background: "), text.out());
        assertTrue(text.out().contains("rebalance: to drain off nothing; short of their share "), text.out());

        // the longest name (1,088 bytes; ASCII, so the test does not depend on the platform's encoding of
        // arguments: boto3 in S3GatewayIT sends multi-byte ones), stored with --ack local (its copy waits in the
        // replication queue under that name), read elsewhere, listed; one byte more is refused
        String longHead = "cli/long/" + "d".repeat(500) + "/";
        String longName = longHead + "n".repeat(Manifest.MAX_NAME_BYTES - longHead.length());
        assertEquals(1088, longName.getBytes(StandardCharsets.UTF_8).length);
        Run putLong = run("client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--policy", "localfarthest",
                "--block-size", "256KiB", "--name", longName, "--ack", "local");
        assertEquals(0, putLong.exit(), putLong.toString());
        assertTrue(putLong.out().startsWith("stored " + longName + " (700000 bytes"), putLong.out());
        Path longOut = work.resolve("long.out");
        Run getLong = run("client", "--at", "mumbai", "--config", cfg, "get", longName, longOut.toString());
        assertEquals(0, getLong.exit(), getLong.toString());
        assertEquals(-1, Files.mismatch(in, longOut));
        Run statLong = run("client", "--at", "dublin", "--config", cfg, "stat", longName, "--json");
        assertTrue(statLong.out().startsWith("{\"name\":\"" + longName + "\",\"size\":700000"), statLong.out());
        assertOneLineError(run("client", "--at", "seoul", "--config", cfg, "put", in.toString(), "--name", longName + "n"),
                "file name must be at most 1088 UTF-8 bytes");

        Run ls = run("client", "--at", "saopaulo", "--config", cfg, "ls");
        assertTrue(ls.out().contains("cli/photo") && ls.out().contains("localfarthest"), ls.out());
        assertTrue(ls.out().lines().anyMatch(l -> l.startsWith(longName + " ")), ls.out());

        // versions: stat --json names the version; --if-absent refuses an existing name; a put overwrites
        Matcher id = Pattern.compile("\"version\":\\{\"id\":\"([0-9a-f]{16}@seoul)\"")
                .matcher(stat.out());
        assertTrue(id.find(), stat.out());
        String first = id.group(1);
        assertOneLineError(run("client", "--at", "dublin", "--config", cfg, "put", in.toString(), "--name", "cli/photo",
                "--if-absent"), 4, "already exists (decided by its owner region");
        Path other = work.resolve("other.bin");
        Files.write(other, new byte[] {1, 2, 3});
        Run again = run("client", "--at", "dublin", "--config", cfg, "put", other.toString(), "--name", "cli/photo");
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().matches("(?s).*: stored, version [0-9a-f]{16}@dublin\\s*"), again.out());
        Run old = run("client", "--at", "mumbai", "--config", cfg, "get", "cli/photo", out.toString(), "--version", first);
        assertEquals(0, old.exit(), old.toString());
        assertEquals(-1, Files.mismatch(in, out));
        assertOneLineError(run("client", "--at", "mumbai", "--config", cfg, "get", "cli/photo", out.toString(), "--version",
                "nope"), "version id must be 16 hex digits");

        Run rm = run("client", "--at", "mumbai", "--config", cfg, "rm", "cli/photo");
        assertEquals(0, rm.exit(), rm.toString());
        assertTrue(rm.out().startsWith("deleted cli/photo: deleted; earlier versions kept for 1 d, version "), rm.out());
        assertOneLineError(run("client", "--at", "seoul", "--config", cfg, "stat", "cli/photo"), 3, "no such file 'cli/photo'");
        Run versions = run("client", "--at", "seoul", "--config", cfg, "versions", "cli/photo", "--json");
        assertEquals(0, versions.exit(), versions.toString());
        assertTrue(versions.out().startsWith("{\"name\":\"cli/photo\",\"versions\":[{\"id\":\""), versions.out());
        assertEquals(3, versions.out().split("\"id\":", -1).length - 1, versions.out());
        assertTrue(versions.out().contains("\"deleted\":true,\"current\":true}"), versions.out());
        Run table = run("client", "--at", "seoul", "--config", cfg, "versions", "cli/photo");
        assertTrue(table.out().contains("(delete)") && table.out().contains(first) && table.out().contains("3 version(s)"),
                table.out());
    }
}
