package geoblocks.node.s3.access;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.bucket.BucketDocument;
import geoblocks.node.s3.bucket.SettingCache;
import geoblocks.node.s3.bucket.SideRecords;
import geoblocks.node.s3.object.S3Copy;
import geoblocks.node.s3.object.S3Tagging;
import geoblocks.node.s3.object.TagSet;
import geoblocks.node.s3.xml.S3Xml;
import io.netty.handler.ssl.SslHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Bucket policies glue (docs/s3.md): Put/Get/DeleteBucketPolicy keep a bucket's {@link BucketPolicy} in a
 * record of its own ({@code .s3-policies/BUCKET}, on every region like the bucket's other settings; a record
 * older than the bucket is a previous bucket's and ignored), GetBucketPolicyStatus, and the policy's decision
 * for a request ({@link #decide}), with the request's condition keys. Policies are cached {@value #CACHE_MS} ms.
 */
public final class S3Policies {
    static final String PREFIX = ".s3-policies/";
    static final long CACHE_MS = 1000;
    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3Tagging tagging;
    private final SettingCache<BucketPolicy> cache;

    public S3Policies(NodeStore store, S3Buckets buckets, S3Tagging tagging, LongSupplier clock) {
        this.store = store;
        this.buckets = buckets;
        this.tagging = tagging;
        this.cache = new SettingCache<>(clock, CACHE_MS);
    }

    static String file(String bucket) {
        return PREFIX + bucket;
    }

    /**
     * Put/Get/DeleteBucketPolicy (who may was decided by {@link S3Authorizer}): the policy in its side record, kept as
     * sent; the bucket's BlockPublicPolicy refuses one that grants to everyone. A change is seen at once by this
     * node's cache.
     */
    public BucketDocument<BucketPolicy> document() {
        return new BucketDocument<>("policy", S3Error.NO_SUCH_BUCKET_POLICY,
                (body, bucket) -> BucketPolicy.parse(new String(body, StandardCharsets.UTF_8), bucket),
                (b, p) -> p != null && p.isPublic() && b.access().block().blockPublicPolicy() ? new S3Exception(S3Error.ACCESS_DENIED,
                        "the bucket's PublicAccessBlock (BlockPublicPolicy) refuses policies that grant to everyone") : null,
                p -> p.text().getBytes(StandardCharsets.UTF_8), "application/json", BucketDocument.Storage.of(
                        b -> read(b.name(), b.createdMillis()),
                        (b, p, body) -> (p == null ? SideRecords.delete(store, file(b.name()))
                                : store.put(file(b.name()), null, ByteSource.of(body), "tworandom", BucketPolicy.MAX_BYTES, "all",
                                        false, Map.of())).whenComplete((x, t) -> cache.forget(b.name()))), 204);
    }

    /** GET {@code ?policyStatus}: public when the policy grants to everyone or the bucket's ACL grants to a group. */
    public void status(S3Call call) {
        buckets.find(call.bucket).thenCompose(b -> read(call.bucket, b.createdMillis())
                .thenApply(p -> (p != null && p.isPublic()) || b.access().acl().isPublic()))
                .whenComplete((pub, t) -> call.later(() -> {
                    if (t != null) {
                        call.fail(t);
                    } else {
                        call.xml(200, S3Call.utf8("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<PolicyStatus xmlns=\""
                                + S3Xml.NS + "\"><IsPublic>" + pub + "</IsPublic></PolicyStatus>"));
                    }
                }));
    }

    /** The bucket's policy, or null (none, or one older than the bucket, {@code sinceMillis}). */
    CompletableFuture<BucketPolicy> read(String bucket, long sinceMillis) {
        return SideRecords.read(store, file(bucket), sinceMillis, BucketPolicy.MAX_BYTES, "policy of '" + bucket + "'",
                b -> BucketPolicy.parse(new String(b, StandardCharsets.UTF_8), bucket));
    }

    /** The bucket's policy through the cache; null when it has none (a failed read fails: no policy is not assumed). */
    CompletableFuture<BucketPolicy> policy(BucketMeta b) {
        return cache.get(b.name(), () -> read(b.name(), b.createdMillis()));
    }

    /**
     * The policy of bucket {@code b} on {@code action} at {@code resource} for {@code call} (NONE without a
     * policy). {@code key}: the object whose existing tags {@code s3:ExistingObjectTag/...} asks for (null: none);
     * {@code extra}: condition keys set by the caller (lower case), before the request's own. With the bucket's
     * RestrictPublicBuckets, a public policy's Allow counts for the bucket owner only.
     */
    public CompletableFuture<BucketPolicy.Decision> decide(S3Call call, BucketMeta b, String owner, String action, String resource,
            String key, boolean everyKey, Map<String, String> extra) {
        return policy(b).thenCompose(p -> {
            if (p == null) {
                return CompletableFuture.completedFuture(BucketPolicy.Decision.NONE);
            }
            CompletableFuture<TagSet> existing = key != null && p.uses("s3:existingobjecttag/")
                    ? tagging.current(b.name(), key) : CompletableFuture.completedFuture(TagSet.EMPTY);
            return existing.thenApply(tags -> {
                BucketPolicy.Decision d = p.evaluate(new BucketPolicy.Request(call.requester, action, resource,
                        context(call, tags, extra), everyKey));
                boolean restricted = b.access().block().restrictPublicBuckets() && p.isPublic()
                        && (call.requester == null || !call.requester.equals(owner));
                return d == BucketPolicy.Decision.ALLOW && restricted ? BucketPolicy.Decision.NONE : d;
            });
        });
    }

    /** The condition keys of {@code call}: see docs/s3.md for the list. */
    static Function<String, List<String>> context(S3Call call, TagSet existing, Map<String, String> extra) {
        return name -> {
            String n = name.toLowerCase(Locale.ROOT);
            if (extra.containsKey(n)) {
                return List.of(extra.get(n));
            }
            String v;
            if (n.startsWith("s3:existingobjecttag/")) {
                v = existing.tags().get(name.substring("s3:existingobjecttag/".length()));
            } else if (n.startsWith("s3:requestobjecttag/")) {
                try {
                    v = TagSet.fromQuery(call.headers().get("x-amz-tagging"), Integer.MAX_VALUE).tags()
                            .get(name.substring("s3:requestobjecttag/".length()));
                } catch (S3Exception e) {
                    v = null;
                }
            } else if (n.startsWith("s3:x-amz-")) {
                v = call.headers().get(n.substring(3));
                if (v != null && n.equals("s3:x-amz-copy-source")) {
                    v = copySourcePath(v);
                }
            } else {
                v = switch (n) {
                    case "s3:prefix", "s3:delimiter", "s3:max-keys" -> call.param(n.substring(3));
                    case "s3:versionid" -> call.param("versionId");
                    case "aws:referer" -> call.headers().get("Referer");
                    case "aws:useragent" -> call.headers().get("User-Agent");
                    case "aws:sourceip" -> call.ex.clientIp();
                    case "aws:securetransport" -> String.valueOf(call.ex.context().pipeline()
                            .get(SslHandler.class) != null);
                    case "aws:principaltype" -> call.requester == null ? "Anonymous" : "User";
                    case "aws:userid", "aws:username" -> call.requester;
                    default -> null;
                };
            }
            return v == null ? null : List.of(v);
        };
    }

    /** {@code BUCKET/KEY} of a copy source header, decoded, without a leading '/' or a {@code ?versionId}. */
    static String copySourcePath(String header) {
        try {
            String[] bk = S3Copy.copySource(header);
            return bk[0] + "/" + bk[1];
        } catch (S3Exception e) {
            return header;
        }
    }
}
