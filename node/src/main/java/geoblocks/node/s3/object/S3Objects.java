package geoblocks.node.s3.object;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.access.S3Acls;
import geoblocks.node.s3.body.BodyReceiver;
import geoblocks.node.s3.body.SpooledDownload;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseParams;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.encryption.SseStreams;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.migration.Migration;
import geoblocks.node.s3.migration.PendingMigration;
import geoblocks.node.s3.multipart.ObjectParts;
import geoblocks.node.s3.multipart.PartChecksums;
import geoblocks.node.s3.multipart.S3Multipart;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single-object operations: PutObject, CopyObject, GetObject (with Range) and HeadObject (deletes are
 * {@link S3Deletes}; GetObject and HeadObject are served by {@link S3ObjectReads}). Bodies are received by {@link BodyReceiver} and stored from their spool files; downloads stream through {@link SpooledDownload}.
 * An object whose bucket's home is this node's region is stored with the bucket's policy (ack all);
 * anywhere else it is stored here with policy {@code local} and ack local, then moved home in the
 * background ({@link Migration}): DataBridge's near node. Multipart uploads are {@link S3Multipart}.
 * A small body (at most the node's {@code inline-max}) goes the same way: the node stores it inline
 * in its manifest, and a GET of it is answered from the manifest the stat brought.
 */
public final class S3Objects {
    private static final Logger LOG = LoggerFactory.getLogger(S3Objects.class);
    public static final String META_ETAG = "etag";
    static final String META_TYPE = "content-type";
    /** Set on objects stored away from their bucket's home: the regions they are being moved to. */
    static final String META_MIGRATE = PendingMigration.META;
    public static final int MAX_CONTENT_TYPE = 100;

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final BodyReceiver receiver;
    private final Migration migration;
    private final S3Versioning versioning;
    private S3Tagging tagging;
    private S3Copy copier;
    private S3Encryption encryption;
    private S3ObjectLock objectLock;
    private final HeaderRecords headers;
    private final S3ObjectReads reads;
    private final LongSupplier clock;
    /** Runs after a PutObject stored its version, before the client is answered (the object's ACL, {@link S3Acls#afterPut}). */
    public interface AfterPut {
        CompletableFuture<Void> apply(S3Call call, BucketMeta bucket, ClientPort.Written w);
    }

    private AfterPut afterPut = (c, b, w) -> CompletableFuture.completedFuture(null);

    public void afterPut(AfterPut a) {
        this.afterPut = a;
    }

    public S3Objects(NodeStore store, S3Settings settings, S3Buckets buckets, BodyReceiver receiver, Migration migration,
            S3Versioning versioning, LongSupplier clock) {
        this.versioning = versioning;
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.receiver = receiver;
        this.migration = migration;
        this.clock = clock;
        this.headers = new HeaderRecords(store);
        this.reads = new S3ObjectReads(store, settings, buckets, versioning, headers);
    }

    /** Where objects' user metadata and standard headers are kept. */
    public HeaderRecords headers() {
        return headers;
    }

    /** Where the tags of objects are kept (x-amz-tagging on PUT and copies, x-amz-tagging-count on HEAD). */
    public void tagging(S3Tagging t) {
        this.tagging = t;
        reads.tagging(t);
    }

    /** Object lock: the retention and hold a new version is written with, the lock headers of reads. */
    public void objectLock(S3ObjectLock l) {
        this.objectLock = l;
        reads.objectLock(l);
    }

    /** CopyObject ({@link S3Copy}) and server-side encryption ({@link S3Encryption}). */
    public void copyAndEncryption(S3Copy c, S3Encryption e) {
        this.copier = c;
        this.encryption = e;
        reads.encryption(e);
    }

    public void put(S3Call call) {
        String type = call.headers().get("Content-Type", "binary/octet-stream");
        if (type.length() > MAX_CONTENT_TYPE) {
            call.fail(S3Error.INVALID_ARGUMENT, "Content-Type is longer than " + MAX_CONTENT_TYPE + " characters");
            return;
        }
        if (call.headers().contains("x-amz-copy-source")) {
            copier.copy(call);
            return;
        }
        WriteCondition condition;
        TagSet tags;
        ObjectHeaders kept;
        SseRequest sse;
        try {
            condition = Preconditions.write(call.headers().get("If-Match"), call.headers().get("If-None-Match"));
            tags = TagSet.fromQuery(call.headers().get("x-amz-tagging"), TagSet.MAX_OBJECT_TAGS);
            kept = requested(call);
            sse = encryption.writeRequest(call);
            objectLock.checkHeaders(call);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        receiver.receive(call, buckets.find(call.bucket), true, (bucket, spool) -> {
            S3Encryption.Plan plan;
            try {
                plan = encryption.plan(sse, bucket);
            } catch (S3Exception e) {
                spool.discard();
                call.fail(e);
                return;
            }
            String etag = plan == null ? ETags.hex(spool.md5()) : plan.etag(ETags.hex(spool.md5()));
            Checksums.Stored checksum = spool.checksumAlgorithm() == null ? null : new Checksums.Stored(
                    spool.checksumAlgorithm(), Checksums.Type.FULL_OBJECT, Checksums.base64(spool.checksumValue()));
            Map<String, String> extra = new HashMap<>();
            if (checksum != null && (plan == null || !plan.customer())) { // an SSE-C object keeps no plaintext checksum
                extra.put(Checksums.META, checksum.encode());
            }
            headers.write(kept).thenCompose(h -> {
                extra.putAll(h);
                if (plan == null) {
                    return store(call, bucket, spool.file(), spool.source(), etag, type, condition, extra);
                }
                return storeEncrypted(call, bucket, plan, spool.file(), spool.source(), etag, type, condition, extra);
            })
                    .thenCompose(w -> tagging.tagWritten(call.bucket, call.key, w.version(), tags).thenApply(x -> w))
                    .thenCompose(w -> afterPut.apply(call, bucket, w).thenApply(x -> w)).whenComplete((w, t) -> {
                spool.discard();
                call.later(() -> {
                    if (t != null) {
                        call.fail(writeFailure(call, t));
                        return;
                    }
                    call.ex.header("ETag", ETags.quote(etag));
                    if (checksum != null) {
                        checksum.headers().forEach(call.ex::header);
                    }
                    S3Encryption.answer(call, plan == null ? null : plan.params(), sse);
                    written(call, bucket, w);
                    call.empty(200);
                });
            });
        });
    }

    /**
     * Stores plaintext (the bytes of {@code source}, or else of {@code file}) encrypted as {@code plan}
     * says: sealed chunk by chunk as the node reads it ({@link SseStreams}); {@code plan}'s parameters go
     * into {@code extra}. A PutObject's body and a CopyObject's source both end here.
     */
    public CompletableFuture<ClientPort.Written> storeEncrypted(S3Call call, BucketMeta bucket,
            S3Encryption.Plan plan, Path file, ByteSource source, String etag, String type,
            WriteCondition condition, Map<String, String> extra) {
        extra.put(SseParams.META, plan.params().encode());
        ByteSource plain = source;
        SseStreams.FileSource opened = null;
        if (plain == null) {
            try {
                opened = new SseStreams.FileSource(file);
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
            plain = opened;
        }
        SseStreams.FileSource toClose = opened;
        return store(call, bucket, null, new SseStreams.Encrypting(plan.cipher(), plain), etag, type, condition, extra)
                .whenComplete((w, t) -> {
                    if (toClose != null) {
                        try {
                            toClose.close();
                        } catch (IOException e) {
                            LOG.debug("closing a spooled body: {}", e.toString());
                        }
                    }
                });
    }

    /** The user metadata and standard headers a PutObject, CopyObject (REPLACE) or CreateMultipartUpload asks to keep. */
    public static ObjectHeaders requested(S3Call call) throws S3Exception {
        return ObjectHeaders.of(call.headers().names(), call.headers()::get);
    }

    /**
     * The headers of a stored version: our id, and S3's when the bucket's versioning is Enabled (a
     * PUT to a suspended bucket makes the {@code null} version and, as S3 does, sends no version id).
     */
    public static void written(S3Call call, BucketMeta bucket, ClientPort.Written w) {
        call.ex.header("x-geoblocks-version", w.version());
        if (bucket.versioning() == ObjectVersions.Status.ENABLED) {
            call.ex.header("x-amz-version-id", w.version());
        }
    }

    /**
     * A conditional write the name's owner refused: 412 PreconditionFailed, or 404 NoSuchKey when
     * If-Match needed an object that is not there (S3's answers); anything else as it is.
     */
    public static Throwable writeFailure(S3Call call, Throwable t) {
        Throwable c = NodeStore.cause(t);
        if (c instanceof NodeStore.StoreException s) {
            if (s.notFound()) {
                return new S3Exception(S3Error.NO_SUCH_KEY, "no object '" + call.key + "' to match If-Match: " + s.getMessage());
            }
            if (s.preconditionFailed()) {
                return new S3Exception(S3Error.PRECONDITION_FAILED, s.getMessage());
            }
        }
        return c;
    }

    /** Stores an object: at home with the bucket's policy, elsewhere here with ack local, then moved home. */
    public CompletableFuture<ClientPort.Written> store(S3Call call, BucketMeta bucket, Path file,
            ByteSource source, String etag, String type, WriteCondition condition) {
        return store(call, bucket, file, source, etag, type, condition, Map.of());
    }

    /**
     * As above, with {@code extra} metadata (an additional checksum); refused InvalidArgument when the
     * version's metadata would exceed what a version holds ({@code Manifest.MAX_META_BYTES}).
     */
    public CompletableFuture<ClientPort.Written> store(S3Call call, BucketMeta bucket, Path file,
            ByteSource source, String etag, String type, WriteCondition condition,
            Map<String, String> extra) {
        String name = S3Names.fileName(call.bucket, call.key);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put(META_ETAG, etag);
        meta.put(META_TYPE, type);
        meta.putAll(extra);
        meta.putAll(ObjectVersions.marks(bucket.versioning()));
        try {
            meta.putAll(objectLock.versionMeta(call, bucket, extra)); // the retention and hold it starts with
        } catch (S3Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        List<String> targets = bucket.home().equals(settings.region()) ? null : migration.targets(bucket.home());
        if (targets != null) {
            meta.put(META_MIGRATE, String.join(",", targets));
        }
        try {
            if (meta.containsKey(PartChecksums.META)) { // the parts' checksums too
                try {
                    Manifest.validateMeta(meta);
                } catch (IllegalArgumentException e) {
                    meta.remove(PartChecksums.META);
                }
            }
            if (meta.containsKey(ObjectParts.META)) { // the part size is a convenience: dropped when it does not fit
                try {
                    Manifest.validateMeta(meta);
                } catch (IllegalArgumentException e) {
                    meta.remove(ObjectParts.META);
                }
            }
            Manifest.validateMeta(meta);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new S3Exception(S3Error.INVALID_ARGUMENT,
                    "the object's Content-Type (" + type.length() + " characters) and checksum do not fit the "
                    + Manifest.MAX_META_BYTES + " bytes of metadata a version holds: " + e.getMessage()));
        }
        if (targets == null) {
            return store.put(name, file, source, bucket.policy(), bucket.blockSize(), ClientOp.ACK_ALL, condition, meta);
        }
        return store.put(name, file, source, "local", bucket.blockSize(), ClientOp.ACK_LOCAL, condition, meta)
                .thenApply(w -> {
                    migration.start(name, w.version(), targets);
                    return w;
                });
    }

    /** GetObject and HeadObject: {@link S3ObjectReads}. */
    public void get(S3Call call) {
        reads.get(call);
    }
}
