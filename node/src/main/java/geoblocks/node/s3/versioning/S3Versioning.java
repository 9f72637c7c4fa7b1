package geoblocks.node.s3.versioning;

import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.ObjectListing;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.xml.S3ListXml;
import geoblocks.node.s3.xml.S3Xml;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bucket calls of versioning: PutBucketVersioning and GetBucketVersioning (the state is a line
 * of the bucket's record, {@link BucketMeta}) and ListObjectVersions, which pages through the
 * bucket's live keys as ListObjects does ({@link ObjectListing}), asks the node for each key's
 * versions, and builds the page with {@link VersionListing} and {@link ObjectVersions}.
 */
public final class S3Versioning {
    /** Keys whose versions are asked of the node at once. */
    static final int VERSIONS_AT_ONCE = 16;
    private final NodeStore store;
    private final S3Buckets buckets;

    public S3Versioning(NodeStore store, S3Buckets buckets) {
        this.store = store;
        this.buckets = buckets;
    }

    public void get(S3Call call) {
        buckets.find(call.bucket).whenComplete((b, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else {
                call.xml(200, S3Xml.versioning(b.versioning()));
            }
        }));
    }

    public void put(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            ObjectVersions.Status status;
            try {
                status = S3Xml.versioningStatus(body);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            buckets.find(call.bucket).thenCompose(b -> {
                if (b.objectLock() != null && status != ObjectVersions.Status.ENABLED) {
                    throw new CompletionException(new S3Exception(S3Error.INVALID_BUCKET_STATE,
                            "versioning cannot be suspended on a bucket with object lock"));
                }
                return b.versioning() == status
                    ? CompletableFuture.completedFuture(b) : buckets.update(b.withVersioning(status));
            })
                    .whenComplete(call.emptyWhenDone(200));
        }));
        call.ex.sendContinue();
    }

    public void list(S3Call call) {
        String prefix = call.param("prefix") == null ? "" : call.param("prefix");
        String delimiter = call.param("delimiter") == null ? "" : call.param("delimiter");
        String keyMarker = call.param("key-marker") == null ? "" : call.param("key-marker");
        String versionIdMarker = call.param("version-id-marker");
        boolean url = "url".equals(call.param("encoding-type"));
        int maxKeys;
        ObjectListing.Pager pager;
        ObjectListing.Query q;
        try {
            maxKeys = ObjectListing.maxKeys(call.param("max-keys"));
            if (versionIdMarker != null && !versionIdMarker.isEmpty()) {
                if (keyMarker.isEmpty()) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "a version-id-marker needs a key-marker");
                }
                ObjectVersions.parseId(versionIdMarker);
            }
            q = new ObjectListing.Query(prefix, delimiter, null, keyMarker.isEmpty() ? null : ObjectListing.encodeToken(keyMarker),
                    Math.max(1, maxKeys));
            pager = new ObjectListing.Pager(q);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        BucketMeta[] bucket = new BucketMeta[1];
        List<ObjectVersions.V> rest = new ArrayList<>();
        buckets.find(call.bucket).thenCompose(b -> {
            bucket[0] = b;
            if (versionIdMarker == null || versionIdMarker.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            return shown(call.bucket, List.of(keyMarker), b.versioning()).thenAccept(m ->
                    rest.addAll(VersionListing.after(m.getOrDefault(keyMarker, List.of()), versionIdMarker)));
        }).thenCompose(v -> buckets.collect(call.bucket, q, pager, bucket[0].versioning() != ObjectVersions.Status.OFF))
                .thenCompose(page -> {
            List<String> keys = page.contents().stream().map(ObjectListing.Entry::key).toList();
            return shown(call.bucket, keys, bucket[0].versioning()).thenApply(m ->
                    VersionListing.page(rest, VersionListing.items(page, m), page.truncated(), maxKeys));
        }).whenComplete((page, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else {
                call.xml(200, S3ListXml.listVersions(call.bucket, prefix, delimiter, keyMarker,
                        versionIdMarker == null ? "" : versionIdMarker, maxKeys, page, url, buckets.ownerOf(bucket[0])));
            }
        }));
    }

    /** The shown versions of each of {@code keys}, asked {@value #VERSIONS_AT_ONCE} keys at a time; a key gone meanwhile has none. */
    private CompletableFuture<Map<String, List<ObjectVersions.V>>> shown(String bucket, List<String> keys,
            ObjectVersions.Status status) {
        Map<String, List<ObjectVersions.V>> out = new ConcurrentHashMap<>();
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (int from = 0; from < keys.size(); from += VERSIONS_AT_ONCE) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + VERSIONS_AT_ONCE));
            chain = chain.thenCompose(v -> CompletableFuture.allOf(batch.stream().map(key ->
                    versions(S3Names.fileName(bucket, key)).thenAccept(vs -> out.put(key, ObjectVersions.visible(key, vs, status))))
                    .toArray(CompletableFuture[]::new)));
        }
        return chain.thenApply(v -> out);
    }

    /** The node's versions of {@code name}, newest first; none when it has none. */
    public CompletableFuture<List<VersionEntry>> versions(String name) {
        return store.versions(name).handle((vs, t) -> {
            if (t == null) {
                return vs;
            }
            Throwable c = NodeStore.cause(t);
            if (c instanceof NodeStore.StoreException s && s.notFound()) {
                return List.<VersionEntry>of();
            }
            throw new CompletionException(c);
        });
    }
}
