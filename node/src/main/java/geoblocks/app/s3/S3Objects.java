package geoblocks.app.s3;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.FileOp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
final class S3Objects {
    private static final Logger LOG = LoggerFactory.getLogger(S3Objects.class);
    static final String META_ETAG = "etag";
    static final String META_TYPE = "content-type";
    /** Set on objects stored away from their bucket's home: the regions they are being moved to. */
    static final String META_MIGRATE = PendingMigration.META;
    static final int MAX_CONTENT_TYPE = 100;

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final BodyReceiver receiver;
    private final Migration migration;
    private final S3Versioning versioning;
    private S3Tagging tagging;
    private final HeaderRecords headers;
    private final S3ObjectReads reads;
    private final LongSupplier clock;
    /** Runs after a PutObject stored its version, before the client is answered (the object's ACL, {@link S3Acls#afterPut}). */
    interface AfterPut {
        java.util.concurrent.CompletableFuture<Void> apply(S3Call call, BucketMeta bucket, ClientPort.Written w);
    }

    private AfterPut afterPut = (c, b, w) -> java.util.concurrent.CompletableFuture.completedFuture(null);

    void afterPut(AfterPut a) {
        this.afterPut = a;
    }

    S3Objects(NodeStore store, S3Settings settings, S3Buckets buckets, BodyReceiver receiver, Migration migration,
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
    HeaderRecords headers() {
        return headers;
    }

    /** Where the tags of objects are kept (x-amz-tagging on PUT and copies, x-amz-tagging-count on HEAD). */
    void tagging(S3Tagging t) {
        this.tagging = t;
        reads.tagging(t);
    }

    void put(S3Call call) {
        String type = call.headers().get("Content-Type", "binary/octet-stream");
        if (type.length() > MAX_CONTENT_TYPE) {
            call.fail(S3Error.INVALID_ARGUMENT, "Content-Type is longer than " + MAX_CONTENT_TYPE + " characters");
            return;
        }
        if (call.headers().contains("x-amz-copy-source")) {
            copy(call);
            return;
        }
        WriteCondition condition;
        TagSet tags;
        ObjectHeaders kept;
        try {
            condition = Preconditions.write(call.headers().get("If-Match"), call.headers().get("If-None-Match"));
            tags = TagSet.fromQuery(call.headers().get("x-amz-tagging"), TagSet.MAX_OBJECT_TAGS);
            kept = requested(call);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        receiver.receive(call, buckets.find(call.bucket), true, (bucket, spool) -> {
            String etag = ETags.hex(spool.md5());
            Checksums.Stored checksum = spool.checksumAlgorithm() == null ? null : new Checksums.Stored(
                    spool.checksumAlgorithm(), Checksums.Type.FULL_OBJECT, Checksums.base64(spool.checksumValue()));
            Map<String, String> extra = new java.util.HashMap<>();
            if (checksum != null) {
                extra.put(Checksums.META, checksum.encode());
            }
            headers.write(kept).thenCompose(h -> {
                extra.putAll(h);
                return store(call, bucket, spool.file(), spool.source(), etag, type, condition, extra);
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
                    written(call, bucket, w);
                    call.empty(200);
                });
            });
        });
    }

    /** The user metadata and standard headers a PutObject, CopyObject (REPLACE) or CreateMultipartUpload asks to keep. */
    static ObjectHeaders requested(S3Call call) throws S3Exception {
        return ObjectHeaders.of(call.headers().names(), call.headers()::get);
    }

    /**
     * The headers of a stored version: our id, and S3's when the bucket's versioning is Enabled (a
     * PUT to a suspended bucket makes the {@code null} version and, as S3 does, sends no version id).
     */
    static void written(S3Call call, BucketMeta bucket, ClientPort.Written w) {
        call.ex.header("x-geoblocks-version", w.version());
        if (bucket.versioning() == ObjectVersions.Status.ENABLED) {
            call.ex.header("x-amz-version-id", w.version());
        }
    }

    /**
     * A conditional write the name's owner refused: 412 PreconditionFailed, or 404 NoSuchKey when
     * If-Match needed an object that is not there (S3's answers); anything else as it is.
     */
    static Throwable writeFailure(S3Call call, Throwable t) {
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
    java.util.concurrent.CompletableFuture<ClientPort.Written> store(S3Call call, BucketMeta bucket, Path file,
            geoblocks.blockstore.client.ByteSource source, String etag, String type, WriteCondition condition) {
        return store(call, bucket, file, source, etag, type, condition, Map.of());
    }

    /**
     * As above, with {@code extra} metadata (an additional checksum); refused InvalidArgument when the
     * version's metadata would exceed what a version holds ({@code Manifest.MAX_META_BYTES}).
     */
    java.util.concurrent.CompletableFuture<ClientPort.Written> store(S3Call call, BucketMeta bucket, Path file,
            geoblocks.blockstore.client.ByteSource source, String etag, String type, WriteCondition condition,
            Map<String, String> extra) {
        String name = S3Names.fileName(call.bucket, call.key);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put(META_ETAG, etag);
        meta.put(META_TYPE, type);
        meta.putAll(extra);
        meta.putAll(ObjectVersions.marks(bucket.versioning()));
        List<String> targets = bucket.home().equals(settings.region()) ? null : migration.targets(bucket.home());
        if (targets != null) {
            meta.put(META_MIGRATE, String.join(",", targets));
        }
        try {
            if (meta.containsKey(ObjectParts.META)) { // the part size is a convenience: dropped when it does not fit
                try {
                    Manifest.validateMeta(meta);
                } catch (IllegalArgumentException e) {
                    meta.remove(ObjectParts.META);
                }
            }
            Manifest.validateMeta(meta);
        } catch (IllegalArgumentException e) {
            return java.util.concurrent.CompletableFuture.failedFuture(new S3Exception(S3Error.INVALID_ARGUMENT,
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
    void get(S3Call call) {
        reads.get(call);
    }

    /**
     * CopyObject: the source's newest version (or {@code ?versionId}) is downloaded into a spool file
     * and stored as the destination, keeping its ETag and, unless the metadata directive is REPLACE,
     * its content type, user metadata and standard headers (the same {@link HeaderRecords} record).
     * A copy of an object onto itself without REPLACE (and without a source versionId) is refused
     * InvalidRequest, as S3 does.
     */
    void copy(S3Call call) {
        String header = call.headers().get("x-amz-copy-source");
        int q = header.indexOf("?versionId=");
        String srcBucket;
        String srcKey;
        String version;
        try {
            String[] src = copySource(header);
            srcBucket = src[0];
            srcKey = src[1];
            version = q >= 0 ? ObjectVersions.parseId(PercentCoding.decode(header.substring(q + "?versionId=".length()))) : "";
        } catch (IllegalArgumentException e) {
            call.fail(S3Error.INVALID_ARGUMENT, "the versionId of x-amz-copy-source is not valid: " + e.getMessage());
            return;
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        boolean replace = "REPLACE".equalsIgnoreCase(call.headers().get("x-amz-metadata-directive", "COPY"));
        boolean replaceTags = "REPLACE".equalsIgnoreCase(call.headers().get("x-amz-tagging-directive", "COPY"));
        TagSet newTags;
        ObjectHeaders newHeaders;
        try {
            newTags = replaceTags ? TagSet.fromQuery(call.headers().get("x-amz-tagging"), TagSet.MAX_OBJECT_TAGS) : null;
            newHeaders = replace ? requested(call) : null;
            if (!replace && version.isEmpty() && srcBucket.equals(call.bucket) && srcKey.equals(call.key)) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "This copy request is illegal because it is trying to copy an"
                        + " object to itself without changing the object's metadata, storage class, website redirect"
                        + " location or encryption attributes.");
            }
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        String srcName = S3Names.fileName(srcBucket, srcKey);
        String pinned = version;
        Path file;
        try {
            file = settings.spoolFile("copy-");
        } catch (IOException e) {
            call.fail(e);
            return;
        }
        BucketMeta[] dst = new BucketMeta[1];
        Manifest[] src = new Manifest[1];
        String[] srcShownId = new String[1];
        ClientPort.Written[] stored = new ClientPort.Written[1];
        buckets.find(call.bucket).thenCompose(b -> {
            dst[0] = b;
            return buckets.find(srcBucket);
        }).thenCompose(b -> pinned.isEmpty() ? java.util.concurrent.CompletableFuture.completedFuture("")
                : versioning.versions(srcName).thenApply(vs -> {
                    ObjectVersions.V v = ObjectVersions.find(srcKey, vs, b.versioning(), pinned);
                    if (v == null || v.deleteMarker()) {
                        throw new java.util.concurrent.CompletionException(new S3Exception(v == null
                                ? S3Error.NO_SUCH_VERSION : S3Error.INVALID_REQUEST, "version '" + pinned + "' of '" + srcKey
                                + "' in bucket '" + srcBucket + "' " + (v == null ? "does not exist" : "is a delete marker")));
                    }
                    srcShownId[0] = v.versionId();
                    return v.nodeVersion();
                })).thenCompose(nodeVersion -> store.getFile(srcName, nodeVersion, file)).thenCompose(m -> {
            src[0] = m;
            String etag = m.meta().getOrDefault(META_ETAG, "");
            if (!Preconditions.copySource(call.headers().get("x-amz-copy-source-if-match"),
                    call.headers().get("x-amz-copy-source-if-none-match"),
                    call.headers().get("x-amz-copy-source-if-modified-since"),
                    call.headers().get("x-amz-copy-source-if-unmodified-since"), etag, m.createdMillis())) {
                throw new java.util.concurrent.CompletionException(new S3Exception(S3Error.PRECONDITION_FAILED,
                        "the copy source's ETag or date does not meet the x-amz-copy-source-if-* conditions"));
            }
            String type = replace ? call.headers().get("Content-Type", "binary/octet-stream")
                    : m.meta().getOrDefault(META_TYPE, "binary/octet-stream");
            String checksum = m.meta().get(Checksums.META); // the same bytes: the same checksum
            Map<String, String> extra = new java.util.HashMap<>();
            if (checksum != null) {
                extra.put(Checksums.META, checksum);
            }
            java.util.concurrent.CompletableFuture<Map<String, String>> kept = replace ? headers.write(newHeaders)
                    : java.util.concurrent.CompletableFuture.completedFuture(m.meta().containsKey(HeaderRecords.META)
                            ? Map.of(HeaderRecords.META, m.meta().get(HeaderRecords.META)) : Map.of()); // the same record
            return kept.thenCompose(h -> {
                extra.putAll(h);
                return store(call, dst[0], file, null, etag, type, WriteCondition.NONE, extra);
            });
        }).thenCompose(w -> {
            stored[0] = w;
            java.util.concurrent.CompletableFuture<TagSet> tags = replaceTags
                    ? java.util.concurrent.CompletableFuture.completedFuture(newTags)
                    : tagging.read(S3Tagging.objectFile(srcBucket, srcKey, src[0].version().id()));
            return tags.thenCompose(ts -> tagging.tagWritten(call.bucket, call.key, w.version(), ts)).thenApply(x -> w);
        }).whenComplete((w, t) -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.debug("could not remove copy spool {}: {}", file, e.toString());
            }
            call.later(() -> {
                Throwable c = t == null ? null : NodeStore.cause(t);
                if (c instanceof NodeStore.StoreException s && s.notFound()) {
                    call.fail(S3Error.NO_SUCH_KEY, "no object '" + srcKey + "' in bucket '" + srcBucket + "' to copy");
                } else if (c != null) {
                    call.fail(c);
                } else {
                    if (srcShownId[0] != null) {
                        call.ex.header("x-amz-copy-source-version-id", srcShownId[0]);
                    }
                    written(call, dst[0], stored[0]);
                    call.xml(200, S3Xml.copyResult(src[0].meta().getOrDefault(META_ETAG, ""), clock.getAsLong()));
                }
            });
        });
    }

    /** The bucket and key an {@code x-amz-copy-source} names ({@code [/]BUCKET/KEY[?versionId=V]}, URL-encoded). */
    static String[] copySource(String header) throws S3Exception {
        String source = header;
        int q = source.indexOf('?');
        if (q >= 0) {
            source = source.substring(0, q);
        }
        try {
            String path = PercentCoding.decode(source.startsWith("/") ? source.substring(1) : source);
            int slash = path.indexOf('/');
            if (slash <= 0 || slash == path.length() - 1) {
                throw new IllegalArgumentException("it must be BUCKET/KEY");
            }
            String bucket = path.substring(0, slash);
            String key = path.substring(slash + 1);
            S3Exception bad = S3Names.keyProblem(bucket, key);
            if (bad != null) {
                throw bad;
            }
            return new String[] {bucket, key};
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-copy-source '" + header + "' is not valid: " + e.getMessage());
        }
    }
}
