package geoblocks.node.s3.bucket;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
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

    /** Put/Get/DeleteBucketCors: the configuration in its side record (a change is seen at once by this node's cache). */
    public BucketDocument<CorsConfig> document() {
        return new BucketDocument<>("CORS configuration", S3Error.NO_SUCH_CORS_CONFIGURATION, (body, bucket) -> CorsConfig.parse(body),
                BucketDocument.Check.none(), CorsConfig::toXml, BucketDocument.XML, BucketDocument.Storage.of(
                        b -> read(b.name(), b.createdMillis()),
                        (b, c, body) -> (c == null ? SideRecords.delete(store, file(b.name()))
                                : store.put(file(b.name()), null, ByteSource.of(c.toXml()), "tworandom", MAX_FILE, "all", false, Map.of()))
                                .whenComplete((x, t) -> cache.forget(b.name()))), 200);
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
