package geoblocks.node.s3;

import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.net.ClusterConfig;
import geoblocks.net.HostPort;
import geoblocks.node.http.Exchange;
import geoblocks.node.http.Route;
import geoblocks.node.http.Router;
import geoblocks.node.s3.access.S3Acls;
import geoblocks.node.s3.access.S3Authorizer;
import geoblocks.node.s3.auth.AccessKeys;
import geoblocks.node.s3.auth.S3KeyStore;
import geoblocks.node.s3.auth.SigV4;
import geoblocks.node.s3.body.DeferredBody;
import geoblocks.node.s3.bucket.S3Cors;
import geoblocks.node.s3.post.FormData;
import geoblocks.node.s3.xml.S3Xml;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The node's S3 gateway: a path-style subset of the S3 REST API on the node's HTTP server (docs/s3.md).
 * Every request signed with AWS SigV4 comes here (whatever its path); unsigned ones come for every
 * path the operator's routes do not use, and may only read objects of public-read buckets. A request
 * is parsed (bucket, key, query), checked (names, signature), redirected by DataBridge when its
 * client is nearer another node, then sent to the handler of its operation: parsed once into an {@link S3Operation}
 * ({@link S3Router}), dispatched in one switch ({@link S3Handlers#dispatch}).
 */
public final class S3Gateway {
    private final S3Settings settings;
    private final SigV4 sigv4;
    private final S3KeyStore keys;
    private final S3Handlers handlers;
    private final LongSupplier clock;
    private final AtomicLong requests = new AtomicLong();

    public S3Gateway(S3Settings settings, ClusterConfig cluster, NodeStore store, LongSupplier clock) throws IOException {
        this.settings = settings;
        this.clock = clock;
        this.keys = new S3KeyStore(store, new AccessKeys(settings.clusterSecret()), settings.accessKey(),
                settings.secretKey(), clock);
        this.sigv4 = new SigV4(keys::secret, signingRegions(settings.region(), cluster.regionIds()));
        this.handlers = new S3Handlers(settings, cluster, store, keys, clock);
    }

    /** Whether a request carries SigV4 credentials (header or presigned query). */
    public static boolean signed(HttpRequest req) {
        return SigV4.isSigned(req.headers().get("Authorization"), new QueryStringDecoder(req.uri()).parameters());
    }

    /** Mounts the gateway: signed requests at any path, unsigned ones under every path no other route has. */
    /**
     * Reads the node's state from its latest snapshot (null: none yet): a CreateBucket refused as unavailable waits
     * for the owner only while the node is settling after its start ({@link CreateWait#settling}); without this it
     * always waits up to create-wait.
     */
    public S3Gateway withNodeState(Supplier<NodeSnapshot> snapshots) {
        handlers.buckets().settling(() -> CreateWait.settling(snapshots.get()));
        return this;
    }

    public Router mount(Router router) {
        Route route = new Route() {
            @Override
            public void handle(Exchange ex) {
                S3Gateway.this.handle(ex);
            }

            @Override
            public void malformed(Exchange ex, Throwable why) {
                S3Gateway.this.malformed(ex, why);
            }
        };
        router.override(S3Gateway::signed, route);
        for (String m : List.of("GET", "PUT", "POST", "DELETE", "HEAD", "OPTIONS")) {
            router.add(m, "/*", false, route);
        }
        return router;
    }

    /** A request whose head could not be parsed (e.g. a Content-Length that is not a number): InvalidArgument. */
    void malformed(Exchange ex, Throwable why) {
        String id = Long.toHexString(requests.incrementAndGet()) + "-" + settings.region();
        new S3Call(ex, null, null, Map.of(), id).fail(S3Error.INVALID_ARGUMENT, "malformed request: " + why.getMessage());
    }

    void handle(Exchange ex) {
        String uri = ex.request().uri();
        int q = uri.indexOf('?');
        String rawPath = q < 0 ? uri : uri.substring(0, q);
        Map<String, List<String>> query = new TreeMap<>(new QueryStringDecoder(uri).parameters());
        String bucket = null;
        String key = null;
        String id = Long.toHexString(requests.incrementAndGet()) + "-" + settings.region();
        S3Call call;
        try {
            String path = PercentCoding.decode(rawPath);
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("the path must start with '/'");
            }
            String virtual = settings.virtualBucket(ex.request().headers().get("Host"));
            if (virtual != null) { // virtual-hosted style: the bucket in the Host, the whole path is the key
                bucket = virtual;
                key = path.length() <= 1 ? null : path.substring(1);
            } else {
                int slash = path.indexOf('/', 1);
                bucket = path.length() <= 1 ? null : slash < 0 ? path.substring(1) : path.substring(1, slash);
                key = slash < 0 ? null : path.substring(slash + 1);
            }
            if (key != null && key.isEmpty()) {
                key = null;
            }
        } catch (IllegalArgumentException e) {
            call = new S3Call(ex, null, null, query, id);
            call.fail(S3Error.INVALID_ARGUMENT, "the request path is not valid: " + e.getMessage());
            return;
        }
        call = new S3Call(ex, bucket, key, query, id);
        boolean signed = signed(ex.request());
        call.route = S3Router.parse(new S3Router.Request(call.method(), bucket != null, key != null, query,
                call.headers().contains("x-amz-copy-source"),
                !signed && FormData.boundary(call.headers().get("Content-Type")) != null));
        if (call.route.operation() == S3Operation.PreflightCors) {
            handlers.dispatch(call); // a CORS preflight: unsigned, answered from the bucket's rules
            return;
        }
        if (S3Cors.applies(call)) { // the Access-Control-* headers first, then the request as usual
            DeferredBody held = DeferredBody.install(ex);
            S3Call c = call;
            handlers.cors().decorate(call, () -> onLoop(c, held, () -> proceed(c, rawPath, held)));
            return;
        }
        proceed(call, rawPath, null);
    }

    /*
     * The body of a request that waits for a lookup (its CORS rules, its access key, its permission) is
     * held in one DeferredBody, which is resumed once, when the request is answered or its operation has
     * registered the sink of its body: every path below ends in exactly one resume. Resuming earlier drops
     * what was held (a PutBucketPolicy whose key and policy were both read first was never answered).
     */

    /** A parsed request: names checked, then the signature, the permission and the dispatch; {@code held}: its body held, or null. */
    private void proceed(S3Call call, String rawPath, DeferredBody held) {
        Exchange ex = call.ex;
        String bucket = call.bucket;
        String key = call.key;
        if (bucket != null && key != null) {
            S3Exception bad = S3Names.keyProblem(bucket, key);
            if (bad != null) {
                call.fail(bad);
                resume(held);
                return;
            }
        }
        if (call.route.operation() == S3Operation.PostObject) {
            handlers.dispatch(call); // a browser-based upload (unsigned): the form carries its own signature
            resume(held);
            return;
        }
        if (signed(ex.request())) {
            SigV4.Request signedRequest = new SigV4.Request(ex.request().method().name(), rawPath, call.query,
                    headers(ex.request()));
            String keyId = SigV4.accessKeyId(signedRequest);
            if (!keys.known(keyId)) { // a key not cached: read its record first, holding the body meanwhile
                DeferredBody body = held != null ? held : DeferredBody.install(ex);
                S3Call c = call;
                keys.load(keyId).whenComplete((x, t) -> onLoop(c, body, () -> verified(c, signedRequest, rawPath, body)));
                return;
            }
            verified(call, signedRequest, rawPath, held);
        } else if (key == null || call.method().equals("POST")) {
            refuseUnsigned(call);
            resume(held);
        } else {
            authorized(call, rawPath, held);
        }
    }

    /**
     * The credential-scope regions a request may be signed for here: every region of the cluster (each
     * gateway serves every bucket, and a client signs with the location GetBucketLocation gave it), and
     * {@code us-east-1} (what clients use when told no region).
     */
    public static Set<String> signingRegions(String self, Collection<String> cluster) {
        Set<String> r = new TreeSet<>(cluster);
        r.add(self);
        r.add("us-east-1");
        return r;
    }

    /** Runs {@code r} on the call's event loop: at once when already there; if it throws, answers and resumes {@code held}. */
    private static void onLoop(S3Call call, DeferredBody held, Runnable r) {
        Runnable guarded = () -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                call.fail(e);
                resume(held);
            }
        };
        if (call.ex.context().executor().inEventLoop()) {
            guarded.run();
        } else {
            call.ex.context().executor().execute(guarded);
        }
    }

    /** Checks the signature (the key is cached now); {@code held}: the body held while the key was read, or null. */
    private void verified(S3Call call, SigV4.Request r, String rawPath, DeferredBody held) {
        SigV4.Verdict v = sigv4.verify(r, clock.getAsLong());
        if (!v.ok()) {
            call.fail(v.error(), v.message());
            resume(held);
            return;
        }
        call.payloadHash = v.payloadHash();
        call.chunkSeed = v.seed();
        call.requester = v.accessKey();
        authorized(call, rawPath, held);
    }

    /** Redirects (DataBridge) or checks the permission ({@link S3Authorizer#authorize}) and dispatches. */
    private void authorized(S3Call call, String rawPath, DeferredBody held) {
        if (redirected(call, rawPath)) {
            resume(held);
            return;
        }
        try {
            if (call.key != null && call.method().equals("PUT") && !call.has("acl") && !call.has("uploadId")) {
                S3Acls.requested(call); // a bad x-amz-acl or grant header is refused before the body
            }
        } catch (S3Exception e) {
            call.fail(e);
            resume(held);
            return;
        }
        CompletableFuture<Void> decision = handlers.authorizer().authorize(call);
        if (decision.isDone() && !decision.isCompletedExceptionally()) {
            handlers.dispatch(call);
            resume(held);
            return;
        }
        DeferredBody body = held != null ? held : DeferredBody.install(call.ex);
        decision.whenComplete((x, t) -> onLoop(call, body, () -> {
            try {
                if (t != null) {
                    call.fail(t);
                } else {
                    handlers.dispatch(call);
                }
            } finally {
                resume(body);
            }
        }));
    }

    private static void resume(DeferredBody held) {
        if (held != null) {
            held.resume();
        }
    }

    /**
     * An unsigned request that may not read: AccessDenied (403, counted as the HTTP refusal
     * {@code http_forbidden}), without asking the node whether its bucket exists, so a stray unsigned
     * request (a browser's {@code GET /nope}) neither costs a lookup nor shows as a failed get among
     * the node's requests, and does not tell which bucket names exist.
     */
    private void refuseUnsigned(S3Call call) {
        call.fail(S3Error.ACCESS_DENIED, "this request needs an AWS Signature V4 (an access key and its secret);"
                + " unsigned requests may only read, write or delete objects whose ACLs allow it");
    }

    /** Header values by lower-case name (repeated headers joined with ','), as SigV4 canonicalizes them. */
    private static Map<String, String> headers(HttpRequest req) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : req.headers()) {
            out.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + "," + b);
        }
        return out;
    }

    /**
     * DataBridge: a PutObject or CreateMultipartUpload from a client nearer another node, a GET with
     * {@code ?redirect=nearest} (or redirect-gets), and any request for a multipart upload begun at
     * another node, are answered 307 with the same URL at that node (before any body is read).
     */
    private boolean redirected(S3Call call, String rawPath) {
        String target = null;
        String upload = call.param("uploadId");
        if (upload != null && upload.lastIndexOf('.') > 0) {
            String origin = upload.substring(0, upload.lastIndexOf('.'));
            if (!origin.equals(settings.region()) && settings.endpoints().containsKey(origin)) {
                target = origin;
            }
        } else if (call.key != null) {
            boolean put = call.method().equals("PUT") || (call.method().equals("POST") && call.has("uploads"));
            boolean get = call.method().equals("GET") && (settings.redirectGets() || "nearest".equals(call.param("redirect")));
            if ((put && settings.redirectPuts()) || get) {
                InetSocketAddress remote = (InetSocketAddress) call.ex.context().channel().remoteAddress();
                String region = settings.networks().regionOf(call.headers().get("X-Geoblocks-Client-Region"),
                        remote == null ? null : remote.getAddress(), settings.endpoints().keySet());
                if (region != null && !region.equals(settings.region())) {
                    target = region;
                }
            }
        }
        if (target == null) {
            return false;
        }
        InetSocketAddress at = settings.endpoints().get(target);
        boolean tls = call.ex.context().pipeline().get(SslHandler.class) != null;
        // a virtual-hosted request is sent on in path style: the target's host is its address
        String uri = settings.virtualBucket(call.headers().get("Host")) == null ? call.ex.request().uri()
                : "/" + call.bucket + call.ex.request().uri();
        call.ex.header("Location", (tls ? "https://" : "http://") + HostPort.of(at.getAddress(), at.getPort()) + uri);
        call.ex.header("x-geoblocks-redirect", settings.region() + " -> " + target);
        if (call.ex.expectsContinue() || HttpUtil.getContentLength(call.ex.request(), 0L) > 0) {
            call.ex.closeAfterAnswer(); // the body, if the client sends it anyway, is not read as a request
        }
        call.xml(307, S3Xml.error(S3Error.TEMPORARY_REDIRECT, "DataBridge: send this request to the node of region "
                + target, call.resource(), call.requestId));
        return true;
    }
}
