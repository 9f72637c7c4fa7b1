package geoblocks.node.admin;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.net.HostPort;
import geoblocks.node.http.Exchange;
import geoblocks.node.http.JsonWriter;
import geoblocks.node.http.LoginThrottle;
import geoblocks.node.http.Resources;
import geoblocks.node.http.Router;
import geoblocks.node.s3.MiniJson;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.auth.AccessKeys;
import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's admin API, JSON over the node's HTTP(S) port under {@value #BASE}, described by the OpenAPI 3
 * document it serves at {@code GET /_admin/v1/openapi.json}: the cluster layout and its changes, moves,
 * purges and the admin tokens themselves. Every other route needs {@code Authorization: Bearer TOKEN}: the
 * node's root token, or a created token ({@link AdminTokens}) that has the route's scope and has neither
 * expired nor been revoked. A missing or bad token is 401, a token without the scope 403; an address with
 * 10 bad tokens in a minute is refused 429 for a minute. Each allowed change is logged with who asked. The
 * operations reach the node through {@link AdminBackend}: in production the S3 gateway's in-process client,
 * the one client the node takes admin operations from.
 */
public final class AdminApi {
    public static final String BASE = "/_admin/v1";
    static final int MAX_BODY = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(AdminApi.class);

    private final AdminBackend backend;
    private final AdminTokenStore tokens;
    private final String rootToken;
    private final LongSupplier clock;
    private final SecureRandom random;
    private final LoginThrottle throttle;
    private final byte[] openapi;
    private final List<Op> ops = new ArrayList<>();
    private final KeyRotation rotation;

    /** This node's region and how it makes its next node key (see {@code NodeKeys#prepareRotation}). */
    public record KeyRotation(String region, NextKey next) {
        /** The public key of the node's next key pair, made first if there is none. */
        @FunctionalInterface
        public interface NextKey {
            String make() throws IOException;
        }
    }

    /** An answer: an HTTP status and a JSON document. */
    public record Answer(int status, String json) {
        static Answer error(int status, String error, String message) {
            return new Answer(status, new JsonWriter().begin().field("error", error).field("message", message).end().toString());
        }
    }

    /** A request as the operations see it: who asked, the body's JSON object, and the path after the route's prefix. */
    record Call(String who, Set<AdminScope> scopes, Map<String, Object> body, String rest) {}

    @FunctionalInterface
    interface Handler {
        CompletableFuture<Answer> handle(Call call);
    }

    /** One route: method, path ("/x" or "/x/*"), the scope it needs (null: no token) and its handler. */
    private record Op(String method, String path, AdminScope scope, Handler handler) {
        boolean matches(String m, String p) {
            return method.equals(m) && (path.endsWith("/*") ? p.startsWith(path.substring(0, path.length() - 1))
                    && p.length() > path.length() - 1 : p.equals(path));
        }
    }

    /**
     * The API over {@code backend}, with its token records in {@code tokens}, the node's {@code rootToken}, and the
     * S3 access keys sealed with {@code accessKeys} (the cluster secret's).
     */
    public AdminApi(AdminBackend backend, AdminTokenStore tokens, String rootToken, LongSupplier clockMillis,
            SecureRandom random, LoginThrottle throttle, AccessKeys accessKeys, KeyRotation rotation) {
        this.rotation = rotation;
        if (AdminTokens.rootProblem(rootToken) != null) {
            throw new IllegalArgumentException(AdminTokens.rootProblem(rootToken));
        }
        this.backend = backend;
        this.tokens = tokens;
        this.rootToken = rootToken;
        this.clock = clockMillis;
        this.random = random;
        this.throttle = throttle;
        this.openapi = Resources.read("/geoblocks/admin/openapi.json");
        ops.add(new Op("GET", BASE + "/openapi.json", null, c -> CompletableFuture.completedFuture(
                new Answer(200, new String(openapi, StandardCharsets.UTF_8)))));
        ops.add(new Op("GET", BASE + "/cluster", AdminScope.CLUSTER, this::showCluster));
        ops.add(new Op("POST", BASE + "/cluster", AdminScope.CLUSTER, this::changeCluster));
        ops.add(new Op("POST", BASE + "/node-key", AdminScope.CLUSTER, this::rotateNodeKey));
        ops.add(new Op("POST", BASE + "/moves", AdminScope.DATA, this::move));
        ops.add(new Op("POST", BASE + "/purges", AdminScope.DATA, this::purge));
        ops.add(new Op("GET", BASE + "/tokens", AdminScope.TOKENS, this::listTokens));
        ops.add(new Op("POST", BASE + "/tokens", AdminScope.TOKENS, this::createToken));
        ops.add(new Op("DELETE", BASE + "/tokens/*", AdminScope.TOKENS, this::revokeToken));
        AccessKeyAdmin keys = new AccessKeyAdmin(backend, accessKeys, clockMillis, random);
        ops.add(new Op("GET", BASE + "/keys", AdminScope.KEYS, keys::list));
        ops.add(new Op("POST", BASE + "/keys", AdminScope.KEYS, keys::create));
        ops.add(new Op("DELETE", BASE + "/keys/*", AdminScope.KEYS, keys::revoke));
    }

    /** The routes' methods and paths ("/x" or "/x/*"), for the OpenAPI check. */
    List<String> routes() {
        return ops.stream().map(o -> o.method() + " " + o.path()).toList();
    }

    /** Adds the routes to {@code router} (none needs the dashboard's Basic credentials: they take tokens). */
    public Router mount(Router router) {
        for (Op o : ops) {
            router.add(o.method(), o.path(), false, this::http);
        }
        return router;
    }

    private void http(Exchange ex) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String method = ex.request().method().name();
        String path = ex.path();
        String auth = ex.request().headers().get("Authorization");
        String ip = ex.clientIp() == null ? "?" : ex.clientIp();
        ex.onBody(new Exchange.BodySink() {
            private boolean tooBig;

            @Override
            public void onChunk(ByteBuf chunk) {
                if (body.size() + chunk.readableBytes() > MAX_BODY) {
                    tooBig = true;
                    return;
                }
                byte[] b = new byte[chunk.readableBytes()];
                chunk.getBytes(chunk.readerIndex(), b);
                body.write(b, 0, b.length);
            }

            @Override
            public void onEnd() {
                CompletableFuture<Answer> answer = tooBig
                        ? CompletableFuture.completedFuture(Answer.error(413, "TooLarge", "an admin request's body is at most "
                                + MAX_BODY + " bytes"))
                        : serve(method, path, auth, ip, body.toByteArray());
                answer.whenComplete((a, t) -> {
                    Answer out = a != null ? a : Answer.error(500, "Internal", String.valueOf(t));
                    if (out.status() == 401) {
                        ex.header("WWW-Authenticate", "Bearer realm=\"geoblocks-admin\"");
                    }
                    ex.respond(out.status(), "application/json", out.json().getBytes(StandardCharsets.UTF_8));
                });
            }
        });
    }

    /**
     * Serves one request: {@code authorization} is its Authorization header (or null), {@code clientIp} its
     * address (for the bound on bad tokens), {@code body} its body (empty for none). Never fails: errors are answers.
     */
    public CompletableFuture<Answer> serve(String method, String path, String authorization, String clientIp, byte[] body) {
        Op op = null;
        for (Op o : ops) {
            if (o.matches(method, path)) {
                op = o;
                break;
            }
        }
        if (op == null) {
            return done(Answer.error(404, "NoSuchRoute", method + " " + path + " is not an admin API route (see "
                    + BASE + "/openapi.json)"));
        }
        Op route = op;
        Map<String, Object> json;
        try {
            json = parseBody(body);
        } catch (IllegalArgumentException e) {
            return done(Answer.error(400, "MalformedBody", e.getMessage()));
        }
        String rest = route.path().endsWith("/*") ? path.substring(route.path().length() - 1) : "";
        if (route.scope() == null) {
            return run(route, new Call("anyone", Set.of(), json, rest));
        }
        long locked = throttle.lockedMs(clientIp);
        if (locked > 0) {
            return done(Answer.error(429, "TooManyBadTokens", "too many bad admin tokens from " + clientIp + ": try again in "
                    + (locked + 999) / 1000 + " s"));
        }
        String presented = AdminTokens.bearer(authorization);
        if (presented == null) {
            return done(Answer.error(401, "Unauthorized", "an admin token is needed: Authorization: Bearer TOKEN (the"
                    + " node's root token is geoblocks.admin.token, or DATA/admin-token when that is empty)"));
        }
        if (AdminTokens.isRoot(presented, rootToken)) {
            throttle.succeeded(clientIp);
            return run(route, new Call("root token", EnumSet.allOf(AdminScope.class), json, rest));
        }
        AdminTokens.Presented p = AdminTokens.parse(presented);
        if (p == null) {
            throttle.failed(clientIp);
            return done(Answer.error(401, "Unauthorized", "not an admin token: neither the root token nor gbt_ID_SECRET"));
        }
        return tokens.find(p.id()).handle((record, t) -> {
            if (t != null) {
                return CompletableFuture.completedFuture(failure(t, "reading admin token " + p.id()));
            }
            AdminTokens.Verdict v = AdminTokens.decide(p, record, route.scope(), clock.getAsLong());
            if (v instanceof AdminTokens.Verdict.Refused r) {
                if (r.status() == 401) {
                    throttle.failed(clientIp);
                }
                return done(Answer.error(r.status(), r.status() == 401 ? "Unauthorized" : "Forbidden", r.reason()));
            }
            AdminTokens.Verdict.Allowed a = (AdminTokens.Verdict.Allowed) v;
            throttle.succeeded(clientIp);
            return run(route, new Call(a.who(), a.scopes(), json, rest));
        }).thenCompose(f -> f);
    }

    private CompletableFuture<Answer> run(Op route, Call call) {
        try {
            return route.handler().handle(call).exceptionally(t -> failure(t, route.method() + " " + route.path()));
        } catch (IllegalArgumentException e) {
            return done(Answer.error(400, "InvalidRequest", e.getMessage()));
        }
    }

    static CompletableFuture<Answer> done(Answer a) {
        return CompletableFuture.completedFuture(a);
    }

    /** The answer for a failed operation: the node's failure code decides the status. */
    static Answer failure(Throwable t, String what) {
        Throwable c = NodeStore.cause(t);
        if (c instanceof NodeStore.StoreException s) {
            FailureCode code = s.code();
            int status = switch (code) {
                case INVALID -> 400;
                case FORBIDDEN -> 403;
                case NOT_FOUND -> 404;
                case EXISTS, NEWER_EXISTS, PRECONDITION_FAILED -> 409;
                case BUSY, UNAVAILABLE -> 503;
                case OUTCOME_UNKNOWN -> 504;
                case INTERNAL, BLOCK_MISSING, BLOCK_CORRUPT, IO_ERROR -> 500;
                case UNSUPPORTED -> 501;
                case INSUFFICIENT_STORAGE -> 507;
            };
            return Answer.error(status, code.name(), s.getMessage());
        }
        if (c instanceof IllegalArgumentException) {
            return Answer.error(400, "InvalidRequest", c.getMessage());
        }
        LOG.warn("admin API: {} failed: {}", what, c.toString());
        return Answer.error(500, "Internal", what + " failed: " + c);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parseBody(byte[] body) {
        if (body.length == 0) {
            return Map.of();
        }
        Object v = MiniJson.parse(new String(body, StandardCharsets.UTF_8));
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("the body must be a JSON object");
        }
        return (Map<String, Object>) v;
    }

    private CompletableFuture<Answer> showCluster(Call c) {
        return backend.cluster("show", "", "", "", 0, false, "").thenApply(r -> new Answer(200, render(r)));
    }

    private CompletableFuture<Answer> changeCluster(Call c) {
        String action = string(c.body(), "action", true);
        if (!List.of("add", "set", "drain", "remove", "rekey", "retire-key", "finalize").contains(action)) {
            throw new IllegalArgumentException("action must be add, set, drain, remove, rekey, retire-key or finalize, was '"
                    + action + "'");
        }
        String region = string(c.body(), "region", !action.equals("finalize"));
        String address = string(c.body(), "address", action.equals("add"));
        if (!address.isEmpty()) {
            // checked and spelled here, as addresses are printed: [IPv6]:port in its short form, so that one
            // address is one string in the layout (which compares them as text); a name stays as typed
            address = HostPort.parse(address).toString();
        }
        String zone = string(c.body(), "zone", false);
        long capacity = number(c.body(), "capacityBytes", action.equals("set") ? -1 : 0);
        boolean force = Boolean.TRUE.equals(c.body().get("force"));
        String key = string(c.body(), "key", false);
        if (!key.isEmpty() && !action.equals("add") && !action.equals("rekey")) {
            throw new IllegalArgumentException("a node key is given with add or rekey only");
        }
        LOG.info("admin: {} asks cluster {} {}{}", c.who(), action, region, force ? " (forced)" : "");
        return backend.cluster(action, region, address, zone, capacity, force, key).thenApply(r -> new Answer(200, render(r)));
    }

    /**
     * Starts rotating this node's key: makes its next key and names it in the layout ({@code rekey}), the
     * current one still accepted; the node signs with the new key once every member reported that layout.
     */
    private CompletableFuture<Answer> rotateNodeKey(Call c) {
        String next;
        try {
            next = rotation.next().make();
        } catch (IOException e) {
            return done(Answer.error(500, "Internal", "making the next node key failed: " + e.getMessage()));
        }
        LOG.info("admin: {} rotates node {}'s key to {}", c.who(), rotation.region(), next);
        return backend.cluster("rekey", rotation.region(), "", "", -1, false, next).thenApply(r -> new Answer(200, render(r)));
    }

    private CompletableFuture<Answer> move(Call c) {
        String name = string(c.body(), "name", true);
        List<String> regions = strings(c.body(), "regions");
        LOG.info("admin: {} asks to move {} to {}", c.who(), name, regions);
        return backend.move(name, regions).thenApply(info -> new Answer(200, new JsonWriter().begin().field("name", name)
                .field("result", info).end().toString()));
    }

    private CompletableFuture<Answer> purge(Call c) {
        String name = string(c.body(), "name", true);
        String version = string(c.body(), "version", true);
        LOG.info("admin: {} asks to purge {} version {}", c.who(), name, version);
        return backend.purge(name, version).thenApply(v -> new Answer(200, new JsonWriter().begin().field("name", name)
                .field("version", v).end().toString()));
    }

    private CompletableFuture<Answer> listTokens(Call c) {
        return tokens.all().thenApply(all -> {
            JsonWriter w = new JsonWriter().begin().name("tokens").beginArray();
            all.forEach(t -> describe(w, t));
            return new Answer(200, w.endArray().end().toString());
        });
    }

    private CompletableFuture<Answer> createToken(Call c) {
        String name = string(c.body(), "name", true);
        Set<AdminScope> scopes = EnumSet.noneOf(AdminScope.class);
        for (String s : strings(c.body(), "scopes")) {
            scopes.add(AdminScope.of(s));
        }
        if (!c.scopes().containsAll(scopes)) {
            Set<AdminScope> extra = EnumSet.copyOf(scopes);
            extra.removeAll(c.scopes());
            return done(Answer.error(403, "Forbidden", c.who() + " may not make a token with scopes it lacks: "
                    + AdminScope.labels(extra)));
        }
        long ttl = number(c.body(), "ttlSeconds", -1);
        if (ttl < 0) {
            throw new IllegalArgumentException("ttlSeconds is required: how long the token lives (60 to 31622400)");
        }
        // mint refuses anything past the longest life; the cap only keeps the multiplication from overflowing
        long ttlMillis = Math.min(ttl, AdminTokens.MAX_TTL_MILLIS / 1000 + 1) * 1000L;
        AdminTokens.Minted m = AdminTokens.mint(name, scopes, ttlMillis, clock.getAsLong(), random);
        LOG.info("admin: {} creates admin token {} ({}) with scopes {}, expiring {}", c.who(), m.record().id(), name,
                AdminScope.labels(scopes), Instant.ofEpochMilli(m.record().expiresMillis()));
        // not create-if-absent: that needs the name's owner region up, and an 80-bit random id does not collide
        return tokens.save(m.record(), false).thenApply(x -> {
            JsonWriter w = new JsonWriter().begin();
            fields(w, m.record());
            return new Answer(201, w.field("token", m.token()).end().toString());
        });
    }

    private CompletableFuture<Answer> revokeToken(Call c) {
        String id = c.rest();
        if (!AdminTokens.validId(id)) {
            throw new IllegalArgumentException("not an admin token id: '" + id + "'");
        }
        return tokens.find(id).thenCompose(t -> {
            if (t == null) {
                return done(Answer.error(404, "NoSuchToken", "no admin token " + id));
            }
            AdminToken revoked = t.revoked() ? t : t.revoke(clock.getAsLong());
            LOG.info("admin: {} revokes admin token {} ({})", c.who(), id, t.name());
            return tokens.save(revoked, false).thenApply(x -> {
                JsonWriter w = new JsonWriter().begin();
                fields(w, revoked);
                return new Answer(200, w.end().toString());
            });
        });
    }

    private static void describe(JsonWriter w, AdminToken t) {
        w.begin();
        fields(w, t);
        w.end();
    }

    private static void fields(JsonWriter w, AdminToken t) {
        w.field("id", t.id()).field("name", t.name()).name("scopes").beginArray();
        t.scopes().stream().map(AdminScope::label).sorted().forEach(w::value);
        w.endArray().field("created", Instant.ofEpochMilli(t.createdMillis()).toString())
                .field("expires", Instant.ofEpochMilli(t.expiresMillis()).toString())
                .field("revoked", t.revoked() ? Instant.ofEpochMilli(t.revokedMillis()).toString() : null);
    }

    private static String render(ClientOp.ClusterReply r) {
        try {
            return ClusterJson.render(r);
        } catch (IOException e) {
            throw new UncheckedIOException("the node's layout could not be read: " + e.getMessage(), e);
        }
    }

    static String string(Map<String, Object> body, String key, boolean required) {
        Object v = body.get(key);
        if (v == null) {
            if (required) {
                throw new IllegalArgumentException("'" + key + "' is required");
            }
            return "";
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("'" + key + "' must be a string");
        }
        return s;
    }

    private static long number(Map<String, Object> body, String key, long otherwise) {
        Object v = body.get(key);
        if (v == null) {
            return otherwise;
        }
        if (!(v instanceof Long l)) {
            throw new IllegalArgumentException("'" + key + "' must be a whole number");
        }
        return l;
    }

    private static List<String> strings(Map<String, Object> body, String key) {
        Object v = body.get(key);
        if (!(v instanceof List<?> l) || l.isEmpty()) {
            throw new IllegalArgumentException("'" + key + "' must be a non-empty array of strings");
        }
        List<String> out = new ArrayList<>();
        for (Object o : l) {
            if (!(o instanceof String s)) {
                throw new IllegalArgumentException("'" + key + "' must hold strings only");
            }
            out.add(s);
        }
        return out;
    }

}
