package geoblocks.node.s3;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import geoblocks.node.s3.access.BucketAccess;
import geoblocks.node.s3.access.ObjectOwnership;
import geoblocks.node.s3.access.S3Access;
import geoblocks.node.s3.access.S3Acls;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.body.SmallRecord;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.lock.ObjectLock;
import geoblocks.node.s3.object.S3Objects;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.xml.S3ListXml;
import geoblocks.node.s3.xml.S3Xml;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * The bucket operations (ListBuckets, CreateBucket, HeadBucket, GetBucketLocation, DeleteBucket,
 * ListObjectsV2 and v1) and the lookup of a bucket's record, cached for {@value #CACHE_MS} ms (a
 * bucket made or deleted at this node updates the cache at once; one made elsewhere is found on the
 * first miss). Listings ask the node only for the pages of names they need ({@link ObjectListing}).
 */
public final class S3Buckets {
    static final long CACHE_MS = 5_000;
    static final int MAX_RECORD = 4096;
    private final NodeStore store;
    private final S3Settings settings;
    private final Collection<String> regions;
    private final LongSupplier clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private UnaryOperator<String> displayNames = id -> id;

    private record Cached(BucketMeta meta, long at) {}

    public S3Buckets(NodeStore store, S3Settings settings, Collection<String> regions, LongSupplier clock) {
        this.store = store;
        this.settings = settings;
        this.regions = regions;
        this.clock = clock;
    }

    /** The record of {@code bucket}; fails with NoSuchBucket when there is none. */
    public CompletableFuture<BucketMeta> find(String bucket) {
        Cached c = cache.get(bucket);
        long now = clock.getAsLong();
        if (c != null && now - c.at() < CACHE_MS) {
            return CompletableFuture.completedFuture(c.meta());
        }
        SmallRecord sink = new SmallRecord(MAX_RECORD, "bucket record of '" + bucket + "'");
        return store.get(S3Names.bucketFile(bucket), "", sink).handle((m, t) -> {
            if (t != null) {
                Throwable cause = NodeStore.cause(t);
                if (cause instanceof NodeStore.StoreException s && s.notFound()) {
                    cache.remove(bucket);
                    throw new CompletionException(
                            new S3Exception(S3Error.NO_SUCH_BUCKET, "bucket '" + bucket + "' does not exist"));
                }
                throw new CompletionException(cause);
            }
            try {
                BucketMeta meta = BucketMeta.decode(bucket, sink.bytes());
                cache.put(bucket, new Cached(meta, clock.getAsLong()));
                return meta;
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        });
    }

    /** Whether the node is still settling after its start ({@link CreateWait#settling}); always, unless set. */
    private BooleanSupplier settling = () -> true;

    /** Sets where a CreateBucket refused as unavailable learns whether the node is still settling ({@link CreateWait}). */
    void settling(BooleanSupplier settling) {
        this.settling = settling;
    }

    /** Sets how a key id is shown as a name (its key's name, when the node knows it). */
    void displayNames(UnaryOperator<String> names) {
        this.displayNames = names;
    }

    /** The owner of bucket {@code b}'s objects as listings show it: the bucket's owner (objects are the bucket owner's). */
    public S3ListXml.Owner ownerOf(BucketMeta b) {
        return shown(b.access().ownerOr(settings.accessKey()));
    }

    /** Key {@code id} as listings show it: the id and the key's name. */
    public S3ListXml.Owner shown(String id) {
        return new S3ListXml.Owner(id, displayNames.apply(id));
    }

    /** ListBuckets: the buckets the caller's key owns (the owner is in the record file's metadata). */
    void listBuckets(S3Call call) {
        String me = call.requester == null ? settings.accessKey() : call.requester;
        bucketRecords(new TreeMap<>(), "", me).whenComplete((created, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            call.xml(200, S3Xml.buckets(me, displayNames.apply(me), created));
        }));
    }

    /** Every bucket record after {@code after} owned by {@code owner}, page by page: bucket name to creation time. */
    private CompletableFuture<Map<String, Long>> bucketRecords(Map<String, Long> created, String after, String owner) {
        return store.listPage(S3Names.BUCKETS_PREFIX, after, ObjectListing.FETCH).thenCompose(page -> {
            for (ListEntry e : page.entries()) {
                String b = S3Names.bucketOfRecord(e.name());
                if (b != null && e.meta().getOrDefault(META_OWNER, settings.accessKey()).equals(owner)) {
                    created.put(b, e.createdMillis());
                }
            }
            return page.more() ? bucketRecords(created, page.last(), owner) : CompletableFuture.completedFuture(created);
        });
    }

    /** Metadata of a bucket's record file: the owner's key id (ListBuckets reads it from the listing). */
    static final String META_OWNER = "owner";

    void create(S3Call call) {
        String problem = S3Names.bucketProblem(call.bucket);
        if (problem != null) {
            call.fail(S3Error.INVALID_BUCKET_NAME, problem);
            return;
        }
        call.ex.onBody(new SmallBody(call, body -> {
            try {
                BucketMeta meta = newBucket(call, S3Xml.locationConstraint(body));
                byte[] record = meta.encode();
                CreateWait wait = new CreateWait(System.nanoTime(), settings.createWait().toNanos());
                putRecord(call.bucket, record, wait, meta.access().owner()).thenApply(w -> (Object) w).exceptionallyCompose(t -> {
                            Throwable c = NodeStore.cause(t);
                            if (c instanceof NodeStore.StoreException s && s.exists()) {
                                cache.remove(call.bucket);
                                return find(call.bucket).thenApply(other -> {
                                    boolean mine = other.access().ownerOr(settings.accessKey()).equals(meta.access().owner());
                                    throw new CompletionException(mine
                                            ? new S3Exception(S3Error.BUCKET_ALREADY_OWNED_BY_YOU, "bucket '" + call.bucket + "' exists")
                                            : new S3Exception(S3Error.BUCKET_ALREADY_EXISTS, "bucket '" + call.bucket
                                                    + "' exists and belongs to another key"));
                                });
                            }
                            return CompletableFuture.failedFuture(c);
                        }).whenComplete((w, t) -> call.later(() -> {
                            if (t != null) {
                                call.fail(t); // a taken name: BucketAlreadyOwnedByYou, or BucketAlreadyExists for another owner
                            } else {
                                cache.put(call.bucket, new Cached(meta, clock.getAsLong()));
                                call.ex.header("Location", "/" + call.bucket);
                                call.empty(200);
                            }
                        }));
            } catch (S3Exception e) {
                call.fail(e);
            }
        }));
        call.ex.sendContinue();
    }

    /** Stores a new bucket's record if the name is free, asking again while {@code wait} says so ({@link CreateWait}). */
    private CompletableFuture<ClientPort.Written> putRecord(String bucket, byte[] record, CreateWait wait, String owner) {
        return store.put(S3Names.bucketFile(bucket), null, ByteSource.of(record), "tworandom", MAX_RECORD, "all", true,
                Map.of(META_OWNER, owner)).handle((w, t) -> {
                    Throwable c = t == null ? null : NodeStore.cause(t);
                    if (c instanceof NodeStore.StoreException s && wait.retry(s, System.nanoTime(), settling.getAsBoolean())) {
                        return CompletableFuture.supplyAsync(() -> null,
                                CompletableFuture.delayedExecutor(CreateWait.RETRY_NANOS, TimeUnit.NANOSECONDS))
                                .thenCompose(x -> putRecord(bucket, record, wait, owner));
                    }
                    return t == null ? CompletableFuture.completedFuture(w) : CompletableFuture.<ClientPort.Written>failedFuture(c);
                }).thenCompose(f -> f);
    }

    /** The record a CreateBucket makes: home from LocationConstraint (none or us-east-1: this node's region). */
    private BucketMeta newBucket(S3Call call, String constraint) throws S3Exception {
        String home = constraint == null || constraint.equals("us-east-1") ? settings.region() : constraint;
        if (!regions.contains(home)) {
            throw new S3Exception(S3Error.INVALID_LOCATION_CONSTRAINT, "LocationConstraint '" + constraint
                    + "' is not a region of this cluster " + regions);
        }
        String policy = call.headers().get("x-geoblocks-policy", settings.defaultPolicy());
        String bs = call.headers().get("x-geoblocks-block-size");
        int blockSize = settings.defaultBlockSize();
        if (bs != null) {
            try {
                blockSize = Integer.parseInt(bs.trim());
            } catch (NumberFormatException e) {
                blockSize = -1;
            }
            if (blockSize < 1 || blockSize > settings.maxBlockSize()) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-geoblocks-block-size must be 1.." + settings.maxBlockSize()
                        + " bytes, was '" + bs + "'");
            }
        }
        if (policy.isBlank() || policy.length() > 64) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-geoblocks-policy must name a placement policy");
        }
        String owner = call.requester == null ? settings.accessKey() : call.requester;
        S3Access.Acl acl = S3Acls.requested(call);
        acl = acl == null ? S3Access.Acl.PRIVATE : S3Access.withoutOwner(acl, owner);
        BucketMeta b = new BucketMeta(call.bucket, home, policy, blockSize, false, clock.getAsLong())
                .withAccess(new BucketAccess(owner, acl, S3Access.PublicAccessBlock.NONE));
        String ownership = call.headers().get("x-amz-object-ownership");
        if (ownership != null) {
            ObjectOwnership o = ObjectOwnership.parse(ownership.trim(), S3Error.INVALID_ARGUMENT);
            if (!ObjectOwnership.allowedWith(o, acl)) {
                throw new S3Exception(S3Error.INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP, "a bucket with BucketOwnerEnforced"
                        + " cannot be created with an ACL that grants access");
            }
            b = b.withAccess(b.access().withOwnership(o));
        }
        String lock = call.headers().get("x-amz-bucket-object-lock-enabled");
        if (lock != null && lock.trim().equalsIgnoreCase("true")) { // object lock needs versioning, on for good
            b = b.withVersioning(ObjectVersions.Status.ENABLED).withObjectLock(ObjectLock.Config.ENABLED);
        }
        return b;
    }

    /** Stores a changed record of an existing bucket (a newer version of its record file; the newest wins) and caches it. */
    public CompletableFuture<BucketMeta> update(BucketMeta meta) {
        return store.put(S3Names.bucketFile(meta.name()), null, ByteSource.of(meta.encode()), "tworandom", MAX_RECORD,
                "all", false, Map.of(META_OWNER, meta.access().ownerOr(settings.accessKey()))).thenApply(w -> {
                    cache.put(meta.name(), new Cached(meta, clock.getAsLong()));
                    return meta;
                });
    }

    void head(S3Call call) {
        find(call.bucket).whenComplete((m, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            call.ex.header("x-amz-bucket-region", m.home());
            call.empty(200);
        }));
    }

    void location(S3Call call) {
        find(call.bucket).whenComplete((m, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else {
                call.xml(200, S3Xml.location(m.home()));
            }
        }));
    }

    void delete(S3Call call) {
        String prefix = call.bucket + "/";
        // empty: the node holds no live name under "bucket/" (one entry asked, one seek)
        find(call.bucket).thenCompose(m -> store.listPage(prefix, "", 1)).thenCompose(page -> {
            if (!page.entries().isEmpty()) {
                throw new CompletionException(new S3Exception(S3Error.BUCKET_NOT_EMPTY,
                        "bucket '" + call.bucket + "' still holds '" + page.entries().get(0).name().substring(prefix.length())
                                + "'"));
            }
            return store.delete(S3Names.bucketFile(call.bucket));
        }).whenComplete((w, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            cache.remove(call.bucket);
            call.empty(204);
        }));
    }

    /** ListObjectsV2, and ListObjects (v1: marker and NextMarker instead of continuation tokens). */
    void listObjects(S3Call call) {
        ObjectListing.Query q;
        ObjectListing.Pager pager;
        boolean v2 = "2".equals(call.param("list-type"));
        String marker = call.param("marker");
        try {
            // v1's marker is the last item of the previous page (a key or a common prefix): a token in all but encoding
            String token = v2 ? call.param("continuation-token") : marker == null ? null : ObjectListing.encodeToken(marker);
            q = new ObjectListing.Query(call.param("prefix"), call.param("delimiter"), v2 ? call.param("start-after") : null,
                    token, ObjectListing.maxKeys(call.param("max-keys")));
            pager = new ObjectListing.Pager(q);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        boolean url = "url".equals(call.param("encoding-type"));
        ObjectListing.Query query = q;
        boolean owners = !v2 || "true".equals(call.param("fetch-owner")); // v1 always shows owners, v2 when asked
        collect(call.bucket, query, pager).thenCombine(find(call.bucket), (page, b) -> {
            S3ListXml.Owner owner = owners ? ownerOf(b) : null;
            return v2 ? S3ListXml.listV2(call.bucket, query, query.token(), page, url, owner)
                    : S3ListXml.listV1(call.bucket, query, marker, page, url, owner);
        }).whenComplete((xml, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else {
                call.xml(200, xml);
            }
        }));
    }

    /**
     * Runs {@code pager} against the node: each of its fetches is one page of the node's listing under
     * "bucket/" + prefix, until the pager has its page.
     */
    private CompletableFuture<ObjectListing.Page> collect(String bucket, ObjectListing.Query q, ObjectListing.Pager pager) {
        return collect(bucket, q, pager, false);
    }

    /** As above; with {@code deleted} the keys whose newest version is a tombstone are listed too. */
    public CompletableFuture<ObjectListing.Page> collect(String bucket, ObjectListing.Query q, ObjectListing.Pager pager,
            boolean deleted) {
        ObjectListing.Fetch f = pager.next();
        if (f == null) {
            return CompletableFuture.completedFuture(pager.page());
        }
        String base = bucket + "/";
        return store.listPage(base + q.prefix(), f.after().isEmpty() ? "" : base + f.after(), f.limit(), deleted)
                .thenCompose(page -> {
                    List<ObjectListing.Entry> keys = new ArrayList<>(page.entries().size());
                    for (ListEntry e : page.entries()) {
                        if (e.name().startsWith(base)) {
                            keys.add(new ObjectListing.Entry(e.name().substring(base.length()),
                                    S3Encryption.plainSize(e.meta(), e.size()), e.createdMillis(),
                                    e.meta().get(S3Objects.META_ETAG)));
                        }
                    }
                    pager.accept(keys, page.more());
                    return collect(bucket, q, pager, deleted);
                });
    }
}
