package geoblocks.node.s3.bucket;

import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.body.SmallBody;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * CORS (docs/s3.md): Put/Get/DeleteBucketCors keep a bucket's {@link CorsConfig} in a record of its own
 * ({@code .s3-cors/BUCKET}, stored on every region like the bucket's other settings; a record older than
 * the bucket is a previous bucket's and ignored); a preflight {@code OPTIONS} is answered from it; and any
 * request with an {@code Origin} gets the Access-Control-* headers of the rule it matches (also on an
 * error answer). Configurations are cached {@value #CACHE_MS} ms.
 */
public final class S3Cors {
    static final String PREFIX = ".s3-cors/";
    static final int MAX_FILE = 64 * 1024;
    static final long CACHE_MS = 1000;
    private final NodeStore store;
    private final S3Buckets buckets;
    private final SettingCache<CorsConfig> cache;

    public S3Cors(NodeStore store, S3Buckets buckets, LongSupplier clock) {
        this.store = store;
        this.buckets = buckets;
        this.cache = new SettingCache<>(clock, CACHE_MS);
    }

    static String file(String bucket) {
        return PREFIX + bucket;
    }

    /** GET, PUT or DELETE {@code ?cors} of a bucket. */
    public void call(S3Call call) {
        switch (call.method()) {
            case "GET" -> buckets.find(call.bucket).thenCompose(b -> read(call.bucket, b.createdMillis()))
                    .whenComplete((c, t) -> call.later(() -> {
                        if (t != null) {
                            call.fail(t);
                        } else if (c == null) {
                            call.fail(S3Error.NO_SUCH_CORS_CONFIGURATION, "bucket '" + call.bucket + "' has no CORS configuration");
                        } else {
                            call.xml(200, c.toXml());
                        }
                    }));
            case "PUT" -> {
                call.ex.onBody(new SmallBody(call, body -> {
                    CorsConfig c;
                    try {
                        c = CorsConfig.parse(body);
                    } catch (S3Exception e) {
                        call.fail(e);
                        return;
                    }
                    byte[] record = c.toXml();
                    buckets.find(call.bucket).thenCompose(b -> store.put(file(call.bucket), null, geoblocks.blockstore.client.ByteSource.of(record),
                            "tworandom", MAX_FILE, "all", false, Map.of())).whenComplete((x, t) -> cache.forget(call.bucket)).whenComplete(call.emptyWhenDone(200));
                }));
                call.ex.sendContinue();
            }
            case "DELETE" -> buckets.find(call.bucket).thenCompose(b -> SideRecords.delete(store, file(call.bucket))).whenComplete((x, t) -> cache.forget(call.bucket)).whenComplete(call.emptyWhenDone(204));
            default -> throw new IllegalStateException("not a CORS configuration call: " + call.method());
        }
    }

    /** The bucket's configuration, or null (none, or one older than the bucket, {@code sinceMillis}). */
    CompletableFuture<CorsConfig> read(String bucket, long sinceMillis) {
        return SideRecords.read(store, file(bucket), sinceMillis, MAX_FILE, "CORS configuration of '" + bucket + "'", CorsConfig::parse);
    }

    /** The bucket's configuration through the cache; null when it has none or the bucket does not exist. */
    CompletableFuture<CorsConfig> config(String bucket) {
        return cache.get(bucket, () -> buckets.find(bucket).thenCompose(b -> read(bucket, b.createdMillis()))
                .handle((cfg, t) -> t == null ? cfg : null));
    }

    /** Whether {@code call} carries an Origin that CORS headers may answer. */
    public static boolean applies(S3Call call) {
        return call.bucket != null && call.headers().get("Origin") != null;
    }

    /** The headers of {@code m} on the answer. */
    static void headers(S3Call call, CorsConfig.Match m) {
        call.ex.header("Access-Control-Allow-Origin", m.allowOrigin());
        call.ex.header("Access-Control-Allow-Methods", m.allowMethods());
        if (m.allowHeaders() != null) {
            call.ex.header("Access-Control-Allow-Headers", m.allowHeaders());
        }
        if (m.expose() != null) {
            call.ex.header("Access-Control-Expose-Headers", m.expose());
        }
        if (m.maxAge() != null) {
            call.ex.header("Access-Control-Max-Age", String.valueOf(m.maxAge()));
        }
        call.ex.header("Vary", "Origin, Access-Control-Request-Headers, Access-Control-Request-Method");
    }

    /**
     * Adds the Access-Control-* headers of an actual request with an Origin (the method is
     * Access-Control-Request-Method when sent, else the request's), then runs {@code then}.
     */
    public void decorate(S3Call call, Runnable then) {
        config(call.bucket).whenComplete((c, t) -> call.later(() -> {
            if (c != null) {
                String method = call.headers().get("Access-Control-Request-Method");
                CorsConfig.Match m = c.match(call.headers().get("Origin"), method != null ? method : call.method(), List.of());
                if (m != null) {
                    headers(call, m);
                }
            }
            then.run();
        }));
    }

    /** A preflight OPTIONS: 400 without Origin and Access-Control-Request-Method, 403 when no rule allows it, else 200. */
    public void preflight(S3Call call) {
        String origin = call.headers().get("Origin");
        String method = call.headers().get("Access-Control-Request-Method");
        if (call.bucket == null || origin == null || method == null) {
            call.fail(S3Error.INVALID_REQUEST, "a CORS preflight needs a bucket, an Origin and an Access-Control-Request-Method");
            return;
        }
        List<String> requested = CorsConfig.headerList(call.headers().get("Access-Control-Request-Headers"));
        config(call.bucket).whenComplete((c, t) -> call.later(() -> {
            CorsConfig.Match m = c == null ? null : c.match(origin, method, requested);
            if (m == null) {
                call.fail(S3Error.ACCESS_DENIED, "CORSResponse: " + (c == null ? "this bucket has no CORS configuration"
                        : "this CORS request is not allowed by the bucket's rules"));
                return;
            }
            headers(call, m);
            call.empty(200);
        }));
    }
}
