package geoblocks.node.s3.lock;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp.VersionEntry;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.bucket.BucketDocument;
import geoblocks.node.s3.bucket.SideRecords;
import geoblocks.node.s3.object.S3Tagging;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import geoblocks.node.s3.xml.S3Xml;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Object lock glue (the decisions are {@link ObjectLock}): Put/GetObjectLockConfiguration (a line of the
 * bucket's record), Put/GetObjectRetention and Put/GetObjectLegalHold, the lock headers of HeadObject and
 * GetObject, and the check DeleteObject, DeleteObjects and the lifecycle make before a version is purged.
 *
 * <p>A version is written with the retention and hold its request asked for (or the bucket's default
 * rule) in its own metadata ({@link ObjectLock#META_RETENTION}, {@link ObjectLock#META_HOLD}), so it never
 * exists unlocked. A later PutObjectRetention or PutObjectLegalHold writes a record beside it,
 * {@code .s3-retention/BUCKET/SHA256(KEY)/VERSION} or {@code .s3-legal-hold/...} (stored like tags: policy
 * {@code tworandom}, every region acknowledging before the answer; the newest write wins), which replaces
 * what the metadata says. Records stay when their version is purged (small; the version ids are unique).
 */
public final class S3ObjectLock {
    static final String RETENTION_PREFIX = ".s3-retention/";
    static final String HOLD_PREFIX = ".s3-legal-hold/";
    static final int MAX_RECORD = 256;
    static final String BYPASS = "x-amz-bypass-governance-retention";

    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3Versioning versioning;
    private final ObjectLock rules;
    private final Function<BucketMeta, String> owner;

    public S3ObjectLock(NodeStore store, S3Buckets buckets, S3Versioning versioning, ObjectLock rules, Function<BucketMeta, String> owner) {
        this.store = store;
        this.buckets = buckets;
        this.versioning = versioning;
        this.rules = rules;
        this.owner = owner;
    }

    /** What a version's lock is now: its retention (null: none) and hold (null: never set). */
    record Found(ObjectLock.Retention retention, Boolean hold) {
        ObjectLock.State state() {
            return new ObjectLock.State(retention, Boolean.TRUE.equals(hold));
        }
    }

    static String retentionFile(String bucket, String key, String nodeVersion) {
        return RETENTION_PREFIX + S3Tagging.objectFile(bucket, key, nodeVersion).substring(S3Tagging.PREFIX.length());
    }

    static String holdFile(String bucket, String key, String nodeVersion) {
        return HOLD_PREFIX + S3Tagging.objectFile(bucket, key, nodeVersion).substring(S3Tagging.PREFIX.length());
    }

    /** Whether {@code call} bypasses governance retention: it asks to, and comes from the bucket's owner. */
    public boolean bypass(S3Call call, BucketMeta b) {
        return "true".equalsIgnoreCase(String.valueOf(call.headers().get(BYPASS)).trim()) && call.requester != null
                && call.requester.equals(owner.apply(b));
    }

    /**
     * The lock metadata of a version {@code call} writes into {@code b}: a PutObject's or CopyObject's
     * {@code x-amz-object-lock-*} headers, else (CompleteMultipartUpload) what CreateMultipartUpload kept in
     * {@code extra}; the bucket's default retention when none was asked for.
     */
    public Map<String, String> versionMeta(S3Call call, BucketMeta b, Map<String, String> extra) throws S3Exception {
        if (call.method().equals("PUT")) {
            return versionMeta(call.headers()::get, b);
        }
        if (extra.containsKey(ObjectLock.META_RETENTION) || b.objectLock() == null) {
            return Map.of();
        }
        return rules.versionMeta(b.objectLock(), ObjectLock.Requested.NONE);
    }

    /** The lock metadata a write with these headers starts with in {@code b} (CreateMultipartUpload keeps it until Complete). */
    public Map<String, String> versionMeta(Function<String, String> headers, BucketMeta b) throws S3Exception {
        return rules.versionMeta(b.objectLock(), rules.requested(headers));
    }

    /** Checks a write's lock headers before its body is read (InvalidArgument). */
    public void checkHeaders(S3Call call) throws S3Exception {
        rules.requested(call.headers()::get);
    }

    /** The lock of version {@code nodeVersion} of {@code key} whose metadata is {@code meta}: its records, else its metadata. */
    CompletableFuture<Found> found(String bucket, String key, String nodeVersion, Map<String, String> meta) {
        ObjectLock.State written = ObjectLock.ofMeta(meta);
        CompletableFuture<String> r = read(retentionFile(bucket, key, nodeVersion));
        CompletableFuture<String> h = read(holdFile(bucket, key, nodeVersion));
        return r.thenCombine(h, (rs, hs) -> {
            ObjectLock.Retention ret = rs == null ? written.retention() : ObjectLock.Retention.decode(rs.trim().replace("-", ""));
            Boolean hold = hs == null ? (written.legalHold() ? Boolean.TRUE : null) : Boolean.valueOf(hs.trim().equals("ON"));
            return new Found(ret, hold);
        });
    }

    /** A record's text, or null when there is none. */
    private CompletableFuture<String> read(String file) {
        return SideRecords.read(store, file, Long.MIN_VALUE, MAX_RECORD, "object lock record " + file,
                b -> new String(b, StandardCharsets.UTF_8));
    }

    private CompletableFuture<Void> write(String file, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return store.put(file, null, ByteSource.of(b), "tworandom", MAX_RECORD, "all", false, Map.of())
                .thenApply(w -> null);
    }

    /**
     * Why purging {@code nodeVersions} of {@code key} (entries of {@code vs}) is refused now (the first
     * refusal), or null when every one of them may go. Delete markers hold no lock.
     */
    public CompletableFuture<String> deleteRefusal(BucketMeta b, String key, List<VersionEntry> vs, List<String> nodeVersions,
            boolean bypass) {
        if (b.objectLock() == null) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<String> chain = CompletableFuture.completedFuture(null);
        for (String id : nodeVersions) {
            VersionEntry e = vs.stream().filter(x -> x.id().equals(id)).findFirst().orElse(null);
            if (e == null || e.deleted()) {
                continue;
            }
            chain = chain.thenCompose(refused -> refused != null ? CompletableFuture.completedFuture(refused)
                    : found(b.name(), key, id, e.meta()).thenApply(f -> rules.deleteRefusal(f.state(), bypass)));
        }
        return chain;
    }

    /** Sets HeadObject's and GetObject's {@code x-amz-object-lock-*} headers of version {@code m} (object lock buckets only). */
    public CompletableFuture<Void> answerHeaders(S3Call call, BucketMeta b, Manifest m) {
        if (b.objectLock() == null) {
            return CompletableFuture.completedFuture(null);
        }
        return found(b.name(), call.key, m.version().id(), m.meta()).thenAccept(f -> {
            if (f.retention() != null) {
                call.ex.header("x-amz-object-lock-mode", f.retention().mode().name());
                call.ex.header("x-amz-object-lock-retain-until-date", S3Xml.iso(f.retention().untilMillis()));
            }
            if (f.hold() != null) {
                call.ex.header("x-amz-object-lock-legal-hold", f.hold() ? "ON" : "OFF");
            }
        });
    }

    /**
     * Put/GetObjectLockConfiguration ({@code ?object-lock} on a bucket; there is no Delete): a line of the bucket's
     * record, which a bucket takes only with its versioning Enabled (or with object lock enabled when created).
     */
    public BucketDocument<ObjectLock.Config> config() {
        return new BucketDocument<>("object lock configuration", S3Error.OBJECT_LOCK_CONFIGURATION_NOT_FOUND,
                (body, bucket) -> ObjectLockXml.config(body),
                (b, c) -> b.objectLock() == null && b.versioning() != ObjectVersions.Status.ENABLED ? new S3Exception(
                        S3Error.INVALID_BUCKET_STATE, "object lock needs the bucket's versioning Enabled (or"
                        + " x-amz-bucket-object-lock-enabled when the bucket is created)") : null,
                ObjectLockXml::config, BucketDocument.XML, BucketDocument.Storage.of(
                        b -> CompletableFuture.completedFuture(b.objectLock()), (b, c, body) -> buckets.update(b.withObjectLock(c))),
                200);
    }

    /** The version a retention or legal hold call names ({@code versionId}, else the current one), in an object lock bucket. */
    private record Target(BucketMeta bucket, String nodeVersion, Map<String, String> meta) {}

    private CompletableFuture<Target> target(S3Call call) {
        String name = S3Names.fileName(call.bucket, call.key);
        String versionId;
        try {
            versionId = call.param("versionId") == null ? null : ObjectVersions.parseId(call.param("versionId"));
        } catch (S3Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        return buckets.find(call.bucket).thenCompose(b -> {
            if (b.objectLock() == null) {
                throw new CompletionException(new S3Exception(S3Error.INVALID_REQUEST, "bucket '" + call.bucket
                        + "' is missing an object lock configuration"));
            }
            if (versionId == null) {
                return store.stat(name).handle((st, t) -> {
                    if (t != null) {
                        throw new CompletionException(call.missingObject(t));
                    }
                    Manifest m = st.manifest();
                    call.ex.header("x-amz-version-id", ObjectVersions.id(false, m.meta(), m.version().id()));
                    return new Target(b, m.version().id(), m.meta());
                });
            }
            return versioning.versions(name).thenApply(vs -> {
                ObjectVersions.V v = ObjectVersions.find(call.key, vs, b.versioning(), versionId);
                if (v == null || v.deleteMarker()) {
                    throw new CompletionException(new S3Exception(v == null ? S3Error.NO_SUCH_VERSION : S3Error.METHOD_NOT_ALLOWED,
                            "version '" + versionId + "' of '" + call.key + "' " + (v == null ? "does not exist" : "is a delete marker")));
                }
                call.ex.header("x-amz-version-id", v.versionId());
                VersionEntry e = vs.stream().filter(x -> x.id().equals(v.nodeVersion())).findFirst().orElseThrow();
                return new Target(b, v.nodeVersion(), e.meta());
            });
        });
    }

    /** GetObjectRetention ({@code ?retention} GET). */
    public void getRetention(S3Call call) {
        target(call).thenCompose(tg -> found(call.bucket, call.key, tg.nodeVersion(), tg.meta()))
                .whenComplete((f, t) -> call.later(() -> {
                    if (t != null) {
                        call.fail(t);
                    } else if (f.retention() == null) {
                        call.fail(S3Error.NO_SUCH_OBJECT_LOCK_CONFIGURATION, "the version has no retention");
                    } else {
                        call.xml(200, ObjectLockXml.retention(f.retention()));
                    }
                }));
    }

    /** PutObjectRetention ({@code ?retention} PUT). */
    public void putRetention(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            ObjectLock.Retention wanted;
            try {
                wanted = ObjectLockXml.retention(body);
                rules.checkFuture(wanted);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            target(call).thenCompose(tg -> found(call.bucket, call.key, tg.nodeVersion(), tg.meta()).thenCompose(f -> {
                String refused = rules.retentionRefusal(f.retention(), wanted, bypass(call, tg.bucket()));
                if (refused != null) {
                    throw new CompletionException(new S3Exception(S3Error.ACCESS_DENIED, refused));
                }
                return write(retentionFile(call.bucket, call.key, tg.nodeVersion()), wanted == null ? "-" : wanted.encode());
            })).whenComplete(call.emptyWhenDone(200));
        }));
        call.ex.sendContinue();
    }

    /** GetObjectLegalHold ({@code ?legal-hold} GET). */
    public void getLegalHold(S3Call call) {
        target(call).thenCompose(tg -> found(call.bucket, call.key, tg.nodeVersion(), tg.meta()))
                .whenComplete((f, t) -> call.later(() -> {
                    if (t != null) {
                        call.fail(t);
                    } else if (f.hold() == null) {
                        call.fail(S3Error.NO_SUCH_OBJECT_LOCK_CONFIGURATION, "the version has no legal hold");
                    } else {
                        call.xml(200, ObjectLockXml.legalHold(f.hold()));
                    }
                }));
    }

    /** PutObjectLegalHold ({@code ?legal-hold} PUT). */
    public void putLegalHold(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            boolean on;
            try {
                on = ObjectLockXml.legalHold(body);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            target(call).thenCompose(tg -> write(holdFile(call.bucket, call.key, tg.nodeVersion()), on ? "ON" : "OFF"))
                    .whenComplete(call.emptyWhenDone(200));
        }));
        call.ex.sendContinue();
    }
}
