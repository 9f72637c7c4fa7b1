package geoblocks.node.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.net.FileGrant;
import geoblocks.node.http.LoginThrottle;
import geoblocks.node.s3.MiniJson;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.auth.AccessKeys;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The admin API's routes and authorization, served in-process over a backend that keeps records in memory
 * and records every admin operation it is asked for (the HTTP glue and the node are covered by AdminApiIT):
 * no operation runs without a valid token of the route's scope.
 */
class AdminApiTest {
    static final String ROOT = "root-token-for-the-admin-api-test";
    final AtomicLong clock = new AtomicLong(1_800_000_000_000L);
    final Backend backend = new Backend();
    final AdminApi api = new AdminApi(backend, new AdminTokenStore(backend, clock::get), ROOT, clock::get, seeded(),
            new LoginThrottle(10, 60_000, 60_000, clock::get), new AccessKeys("cluster-secret-for-the-test"),
            new AdminApi.KeyRotation("seoul", () -> "ed25519:" + "N".repeat(43) + "="));

    /** Records in memory; the admin operations are logged, and answered with a two-region layout. */
    static final class Backend implements AdminBackend {
        final Map<String, byte[]> records = new TreeMap<>();
        final List<String> asked = new ArrayList<>();
        /** The address of each cluster change that names one, as the node is sent it. */
        final List<String> addresses = new ArrayList<>();

        @Override
        public CompletableFuture<ClusterReply> cluster(String action, String region, String address, String zone,
                long capacityBytes, boolean force, String key) {
            asked.add("cluster " + action + " " + region + (key.isEmpty() ? "" : " " + key));
            if (!address.isEmpty()) {
                addresses.add(address);
            }
            if (action.equals("remove") && !force) {
                return CompletableFuture.failedFuture(new NodeStore.StoreException(FailureCode.PRECONDITION_FAILED,
                        "region " + region + " is active: drain it first"));
            }
            Layout l = Layout.fromConfig(Map.of("seoul", "10.0.0.1:47101", "dublin", "10.0.1.1:47101"));
            return CompletableFuture.completedFuture(new ClusterReply(1, LayoutCodec.encode(l), List.of(), List.of()));
        }

        @Override
        public CompletableFuture<String> move(String name, List<String> regions) {
            asked.add("move " + name + " " + regions);
            return CompletableFuture.completedFuture("moved '" + name + "' to " + regions);
        }

        @Override
        public CompletableFuture<String> purge(String name, String version) {
            asked.add("purge " + name + " " + version);
            return CompletableFuture.completedFuture(version);
        }

        @Override
        public CompletableFuture<byte[]> read(String name, int max) {
            return CompletableFuture.completedFuture(records.get(name));
        }

        @Override
        public CompletableFuture<Void> write(String name, byte[] bytes, boolean create) {
            if (create && records.containsKey(name)) {
                return CompletableFuture.failedFuture(new NodeStore.StoreException(FailureCode.EXISTS, name + " exists"));
            }
            records.put(name, bytes.clone());
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<List<String>> list(String prefix) {
            return CompletableFuture.completedFuture(records.keySet().stream().filter(n -> n.startsWith(prefix)).toList());
        }
    }

    static SecureRandom seeded() {
        try {
            SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
            r.setSeed(7);
            return r;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    AdminApi.Answer call(String method, String path, String token, String body) {
        return api.serve(method, path, token == null ? null : "Bearer " + token, "10.0.0.9",
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8)).join();
    }

    static Map<?, ?> json(AdminApi.Answer a) {
        return (Map<?, ?>) MiniJson.parse(a.json());
    }

    String mint(String token, String scopes, long ttlSeconds) {
        StringBuilder s = new StringBuilder();
        for (String x : scopes.split(",")) {
            s.append(s.length() == 0 ? "" : ",").append('"').append(x).append('"');
        }
        AdminApi.Answer a = call("POST", "/_admin/v1/tokens", token, "{\"name\":\"t\",\"scopes\":[" + s
                + "],\"ttlSeconds\":" + ttlSeconds + "}");
        assertEquals(201, a.status(), a.json());
        return (String) json(a).get("token");
    }

    @Test
    void withoutAToken_orWithABadOne_nothingRuns() {
        String change = "{\"action\":\"remove\",\"region\":\"dublin\",\"force\":true}";
        assertEquals(401, call("POST", "/_admin/v1/cluster", null, change).status());
        assertEquals(401, call("POST", "/_admin/v1/cluster", "wrong", change).status());
        assertEquals(401, call("POST", "/_admin/v1/cluster", ROOT + "x", change).status());
        assertEquals(401, call("POST", "/_admin/v1/moves", "gbt_abcdefghijklmnop_" + "A".repeat(43),
                "{\"name\":\"f\",\"regions\":[\"seoul\"]}").status());
        assertEquals(401, api.serve("POST", "/_admin/v1/purges", "Basic cm9vdDp4", "10.0.0.9",
                "{\"name\":\"f\",\"version\":\"1@seoul\"}".getBytes(StandardCharsets.UTF_8)).join().status());
        assertEquals(List.of(), backend.asked, "no admin operation reached the node");
    }

    @Test
    void theRootToken_changesTheCluster_movesAndPurges() {
        AdminApi.Answer show = call("GET", "/_admin/v1/cluster", ROOT, null);
        assertEquals(200, show.status(), show.json());
        assertEquals(2, ((List<?>) json(show).get("regions")).size());
        assertEquals(200, call("POST", "/_admin/v1/cluster", ROOT, "{\"action\":\"drain\",\"region\":\"dublin\"}").status());
        AdminApi.Answer refused = call("POST", "/_admin/v1/cluster", ROOT, "{\"action\":\"remove\",\"region\":\"seoul\"}");
        assertEquals(409, refused.status(), refused.json());
        assertEquals("PRECONDITION_FAILED", json(refused).get("error"));
        assertEquals(200, call("POST", "/_admin/v1/moves", ROOT, "{\"name\":\"f\",\"regions\":[\"seoul\"]}").status());
        assertEquals(200, call("POST", "/_admin/v1/purges", ROOT, "{\"name\":\"f\",\"version\":\"1@seoul\"}").status());
        assertEquals(List.of("cluster show ", "cluster drain dublin", "cluster remove seoul", "move f [seoul]",
                "purge f 1@seoul"), backend.asked);
    }

    @Test
    void clusterAdd_sendsAnIpAddressInTheFormItIsPrinted_andRefusesAMalformedOne() {
        AdminApi.Answer v6 = call("POST", "/_admin/v1/cluster", ROOT,
                "{\"action\":\"add\",\"region\":\"tokyo\",\"address\":\"[FD31:231:0::2]:47100\"}");
        assertEquals(200, v6.status(), v6.json());
        AdminApi.Answer v4 = call("POST", "/_admin/v1/cluster", ROOT,
                "{\"action\":\"add\",\"region\":\"lima\",\"address\":\"10.0.2.1:47101\"}");
        assertEquals(200, v4.status(), v4.json());
        assertEquals(List.of("[fd31:231::2]:47100", "10.0.2.1:47101"), backend.addresses,
                "one address, one spelling: the layout compares them as text");
        AdminApi.Answer bad = call("POST", "/_admin/v1/cluster", ROOT,
                "{\"action\":\"add\",\"region\":\"oslo\",\"address\":\"fd31:231::3:47100\"}");
        assertEquals(400, bad.status(), bad.json());
        assertTrue(bad.json().contains("[fd31:231::3]:47100"), "says how to write it: " + bad.json());
        assertEquals(List.of("cluster add tokyo", "cluster add lima"), backend.asked, "the malformed one reached no node");
    }

    @Test
    void aCreatedToken_worksForItsScopeOnly_untilItExpiresOrIsRevoked() {
        String data = mint(ROOT, "data", 3600);
        assertEquals(200, call("POST", "/_admin/v1/moves", data, "{\"name\":\"f\",\"regions\":[\"seoul\"]}").status());
        AdminApi.Answer noScope = call("POST", "/_admin/v1/cluster", data, "{\"action\":\"drain\",\"region\":\"dublin\"}");
        assertEquals(403, noScope.status(), noScope.json());
        assertEquals(403, call("GET", "/_admin/v1/tokens", data, null).status());
        assertEquals(List.of("move f [seoul]"), backend.asked);

        String id = AdminTokens.parse(data).id();
        AdminApi.Answer revoked = call("DELETE", "/_admin/v1/tokens/" + id, ROOT, null);
        assertEquals(200, revoked.status(), revoked.json());
        assertTrue(json(revoked).get("revoked") instanceof String, revoked.json());
        assertEquals(401, call("POST", "/_admin/v1/moves", data, "{\"name\":\"g\",\"regions\":[\"seoul\"]}").status());

        String shortLived = mint(ROOT, "data", 60);
        clock.addAndGet(60_000);
        AdminApi.Answer expired = call("POST", "/_admin/v1/moves", shortLived, "{\"name\":\"h\",\"regions\":[\"seoul\"]}");
        assertEquals(401, expired.status());
        assertTrue(((String) json(expired).get("message")).contains("expired"), expired.json());
        assertEquals(List.of("move f [seoul]"), backend.asked);
    }

    @Test
    void aTokensToken_cannotMakeATokenWithScopesItLacks_orShowSecrets() {
        String tokens = mint(ROOT, "tokens", 3600);
        AdminApi.Answer escalate = call("POST", "/_admin/v1/tokens", tokens,
                "{\"name\":\"x\",\"scopes\":[\"cluster\"],\"ttlSeconds\":3600}");
        assertEquals(403, escalate.status(), escalate.json());
        String child = mint(tokens, "tokens", 600);
        AdminApi.Answer list = call("GET", "/_admin/v1/tokens", ROOT, null);
        assertEquals(200, list.status());
        assertEquals(2, ((List<?>) json(list).get("tokens")).size());
        assertTrue(!list.json().contains(AdminTokens.parse(tokens).secret())
                && !list.json().contains(AdminTokens.parse(child).secret()), "no secret is listed");
        for (byte[] rec : backend.records.values()) {
            String r = new String(rec, StandardCharsets.UTF_8);
            assertTrue(!r.contains(AdminTokens.parse(tokens).secret()) && !r.contains(AdminTokens.parse(child).secret()),
                    "no secret is stored: " + r);
        }
    }

    @Test
    void accessKeys_areMadeListedAndRevoked_withTheKeysScopeOnly() throws Exception {
        String data = mint(ROOT, "data", 3600);
        assertEquals(403, call("POST", "/_admin/v1/keys", data, "{\"name\":\"alice\"}").status());
        String keysToken = mint(ROOT, "keys", 3600);
        AdminApi.Answer made = call("POST", "/_admin/v1/keys", keysToken, "{\"name\":\"alice\"}");
        assertEquals(201, made.status(), made.json());
        String id = (String) json(made).get("id");
        String secret = (String) json(made).get("secret");
        byte[] rec = backend.records.get(AccessKeys.file(id));
        assertTrue(rec != null && !new String(rec, StandardCharsets.UTF_8).contains(secret), "stored sealed, not as is");
        assertEquals(secret, new AccessKeys("cluster-secret-for-the-test").open(
                AccessKeys.Key.decode(id, rec)), "the gateway opens it with the cluster secret");
        AdminApi.Answer list = call("GET", "/_admin/v1/keys", keysToken, null);
        assertTrue(list.json().contains(id) && !list.json().contains(secret), list.json());
        AdminApi.Answer revoked = call("DELETE", "/_admin/v1/keys/" + id, keysToken, null);
        assertEquals(200, revoked.status(), revoked.json());
        assertTrue(AccessKeys.Key.decode(id, backend.records.get(AccessKeys.file(id)))
                .revoked());
        assertEquals(404, call("DELETE", "/_admin/v1/keys/GB" + "A".repeat(18), keysToken, null).status());
        assertEquals(400, call("POST", "/_admin/v1/keys", keysToken, "{\"name\":\"no spaces\"}").status());
    }

    @Test
    void accessKeys_carryTheirFileGrants_intoTheRecordAndTheAnswers() throws Exception {
        String keysToken = mint(ROOT, "keys", 3600);
        AdminApi.Answer made = call("POST", "/_admin/v1/keys", keysToken,
                "{\"name\":\"carol\",\"files\":[\"Reports/:rw\",\"Inbox/:w\"]}");
        assertEquals(201, made.status(), made.json());
        String id = (String) json(made).get("id");
        assertEquals(List.of("Reports/:rw", "Inbox/:w"), json(made).get("files"));
        assertEquals(FileGrant.parseAll("Reports/:rw,Inbox/:w"),
                AccessKeys.Key.decode(id, backend.records.get(AccessKeys.file(id))).files());
        assertTrue(call("GET", "/_admin/v1/keys", keysToken, null).json().contains("Reports/:rw"));
        for (String bad : List.of("\"Reports/\"", "\"Reports/:x\"", "3")) {
            assertEquals(400, call("POST", "/_admin/v1/keys", keysToken, "{\"name\":\"dave\",\"files\":[" + bad + "]}")
                    .status(), bad);
        }
        Map<?, ?> d = json(call("GET", "/_admin/v1/openapi.json", null, null));
        Map<?, ?> schemas = (Map<?, ?>) ((Map<?, ?>) d.get("components")).get("schemas");
        assertTrue(((List<?>) ((Map<?, ?>) schemas.get("AccessKey")).get("required")).contains("files"));
        assertTrue(call("GET", "/_admin/v1/openapi.json", null, null).json().contains("\"files\": {\"type\": \"array\""),
                "the create request documents its files");
    }

    @Test
    void tenBadTokensFromOneAddress_lockItOutForAMinute() {
        for (int i = 0; i < 10; i++) {
            assertEquals(401, call("GET", "/_admin/v1/cluster", "guess-" + i, null).status());
        }
        AdminApi.Answer locked = call("GET", "/_admin/v1/cluster", ROOT, null);
        assertEquals(429, locked.status(), "even the right token waits: " + locked.json());
        clock.addAndGet(60_000);
        assertEquals(200, call("GET", "/_admin/v1/cluster", ROOT, null).status());
    }

    @Test
    void badRequests_areAnsweredWithTheirReason() {
        assertEquals(400, call("POST", "/_admin/v1/cluster", ROOT, "{not json").status());
        assertEquals(400, call("POST", "/_admin/v1/cluster", ROOT, "[1]").status());
        assertEquals(400, call("POST", "/_admin/v1/cluster", ROOT, "{\"action\":\"explode\",\"region\":\"x\"}").status());
        assertEquals(400, call("POST", "/_admin/v1/moves", ROOT, "{\"name\":\"f\",\"regions\":[]}").status());
        assertEquals(400, call("POST", "/_admin/v1/tokens", ROOT, "{\"name\":\"t\",\"scopes\":[\"root\"],\"ttlSeconds\":60}")
                .status());
        assertEquals(400, call("POST", "/_admin/v1/tokens", ROOT,
                "{\"name\":\"t\",\"scopes\":[\"data\"],\"ttlSeconds\":99999999999999}").status());
        assertEquals(400, call("DELETE", "/_admin/v1/tokens/NOT-AN-ID", ROOT, null).status());
        assertEquals(400, call("DELETE", "/_admin/v1/keys/NOT-AN-ID", ROOT, null).status());
        assertEquals(404, call("DELETE", "/_admin/v1/tokens/abcdefghijklmnop", ROOT, null).status());
        assertEquals(404, call("GET", "/_admin/v1/nothing", ROOT, null).status());
        assertEquals(List.of(), backend.asked);
    }

    @Test
    void theOpenApiDocument_isServedWithoutAToken_andDescribesExactlyTheRoutes() {
        AdminApi.Answer doc = call("GET", "/_admin/v1/openapi.json", null, null);
        assertEquals(200, doc.status());
        Map<?, ?> d = json(doc);
        assertEquals("3.0.3", d.get("openapi"));
        Set<String> described = new TreeSet<>();
        for (Map.Entry<?, ?> p : ((Map<?, ?>) d.get("paths")).entrySet()) {
            String path = ((String) p.getKey()).replace("/{id}", "/*");
            for (Map.Entry<?, ?> m : ((Map<?, ?>) p.getValue()).entrySet()) {
                described.add(((String) m.getKey()).toUpperCase(Locale.ROOT) + " " + path);
                Map<?, ?> responses = (Map<?, ?>) ((Map<?, ?>) m.getValue()).get("responses");
                boolean open = ((Map<?, ?>) m.getValue()).containsKey("security");
                assertEquals(!open, responses.containsKey("401"), p.getKey() + " " + m.getKey() + " documents its 401");
            }
        }
        assertEquals(new TreeSet<>(api.routes()), described);
        // every $ref names a component that exists
        Iterator<String> refs = Pattern.compile("\"\\$ref\": ?\"#/components/(\\w+)/(\\w+)\"").matcher(doc.json())
                .results().map(r -> r.group(1) + "/" + r.group(2)).iterator();
        Map<?, ?> components = (Map<?, ?>) d.get("components");
        while (refs.hasNext()) {
            String[] ref = refs.next().split("/");
            assertTrue(((Map<?, ?>) components.get(ref[0])).containsKey(ref[1]), "component " + ref[0] + "/" + ref[1]);
        }
    }
    /** A node failure's status: its code decides; a full disk, a lost or corrupt block and an I/O error are the node's faults. */
    @Test
    void failure_statusIsTheCodes_storageFailuresAreServerSide() {
        Map<FailureCode, Integer> expected = Map.of(FailureCode.NOT_FOUND, 404, FailureCode.INVALID, 400,
                FailureCode.INSUFFICIENT_STORAGE, 507, FailureCode.BLOCK_MISSING, 500, FailureCode.BLOCK_CORRUPT, 500,
                FailureCode.IO_ERROR, 500, FailureCode.UNAVAILABLE, 503);
        expected.forEach((code, status) -> {
            AdminApi.Answer a = AdminApi.failure(new NodeStore.StoreException(code, "why"), "get");
            assertEquals(status, a.status(), code.name());
            assertTrue(a.json().contains("\"" + code.name() + "\""), a.json());
        });
    }
}
