package geoblocks.app.s3;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.blockstore.wire.FileOp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single-object operations: PutObject, CopyObject, GetObject (with Range) and HeadObject (deletes are
 * {@link S3Deletes}). Bodies are received by {@link BodyReceiver} and stored from their spool files; downloads stream through {@link SpooledDownload}.
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
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final BodyReceiver receiver;
    private final Migration migration;
    private final S3Versioning versioning;
    private S3Tagging tagging;
    private final HeaderRecords headers;
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
    }

    /** Where objects' user metadata and standard headers are kept. */
    HeaderRecords headers() {
        return headers;
    }

    /** Where the tags of objects are kept (x-amz-tagging on PUT and copies, x-amz-tagging-count on HEAD). */
    void tagging(S3Tagging t) {
        this.tagging = t;
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

    void get(S3Call call) {
        String name = S3Names.fileName(call.bucket, call.key);
        String versionId;
        try {
            versionId = call.param("versionId") == null ? null : ObjectVersions.parseId(call.param("versionId"));
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        BucketMeta[] bucket = new BucketMeta[1];
        String[] shownId = new String[1];
        buckets.find(call.bucket).thenCompose(b -> {
            bucket[0] = b;
            // who may read was decided before (S3Acls.authorize)
            if (versionId == null) {
                return store.stat(name);
            }
            return versioning.versions(name).thenCompose(vs -> {
                ObjectVersions.V v = ObjectVersions.find(call.key, vs, b.versioning(), versionId);
                if (v == null) {
                    throw new java.util.concurrent.CompletionException(new S3Exception(S3Error.NO_SUCH_VERSION,
                            "no version '" + versionId + "' of '" + call.key + "' in bucket '" + call.bucket + "'"));
                }
                shownId[0] = v.versionId();
                if (v.deleteMarker()) {
                    call.ex.header("x-amz-delete-marker", "true");
                    call.ex.header("x-amz-version-id", v.versionId());
                    throw new java.util.concurrent.CompletionException(new S3Exception(S3Error.METHOD_NOT_ALLOWED,
                            "version '" + versionId + "' of '" + call.key + "' is a delete marker"));
                }
                return store.stat(name, v.nodeVersion());
            });
        }).whenComplete((stat, t) -> call.later(() -> {
            if (t != null) {
                Throwable c = NodeStore.cause(t);
                if (versionId == null && bucket[0] != null && bucket[0].versioning() != ObjectVersions.Status.OFF
                        && c instanceof NodeStore.StoreException s && s.notFound()) {
                    markerHeaders(call, name, bucket[0], c);
                } else {
                    call.failObject(t);
                }
                return;
            }
            Manifest m = stat.manifest();
            if (bucket[0].versioning() != ObjectVersions.Status.OFF) {
                call.ex.header("x-amz-version-id", shownId[0] != null ? shownId[0]
                        : ObjectVersions.id(false, m.meta(), m.version().id()));
            }
            headers.read(m.meta()).whenComplete((h, t1) -> call.later(() -> {
                if (t1 != null) {
                    call.fail(NodeStore.cause(t1));
                    return;
                }
                if (call.method().equals("HEAD") && tagging != null) { // x-amz-tagging-count: one lookup, on HEAD only
                    tagging.read(S3Tagging.objectFile(call.bucket, call.key, m.version().id())).whenComplete((tags, t2) -> call.later(() -> {
                        if (tags != null && tags.size() > 0) {
                            call.ex.header("x-amz-tagging-count", Integer.toString(tags.size()));
                        }
                        serve(call, name, m, h);
                    }));
                    return;
                }
                serve(call, name, m, h);
            }));
        }));
    }

    /** A 404 of a versioned key whose current version is a delete marker says so, with the marker's id (S3). */
    private void markerHeaders(S3Call call, String name, BucketMeta bucket, Throwable notFound) {
        versioning.versions(name).whenComplete((vs, t) -> call.later(() -> {
            List<ObjectVersions.V> shown = t == null ? List.of() : null;
            if (t == null) {
                shown = ObjectVersions.visible(call.key, vs, bucket.versioning());
            }
            if (shown != null && !shown.isEmpty() && shown.get(0).latest() && shown.get(0).deleteMarker()) {
                call.ex.header("x-amz-delete-marker", "true");
                call.ex.header("x-amz-version-id", shown.get(0).versionId());
            }
            call.failObject(notFound);
        }));
    }

    private void serve(S3Call call, String name, Manifest m, ObjectHeaders kept) {
        kept.headers().forEach(call.ex::header);
        ByteRange range;
        String rangeHeader = call.headers().get("Range");
        if (call.param("partNumber") != null) { // a part of a multipart object, by the part boundaries kept
            try {
                int n;
                try {
                    n = Integer.parseInt(call.param("partNumber").trim());
                } catch (NumberFormatException e) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "partNumber must be an integer, was '"
                            + call.param("partNumber") + "'");
                }
                String etag = m.meta().get(META_ETAG);
                long[] r = ObjectParts.range(n, m.size(), etag, m.meta());
                int count = ObjectParts.count(etag);
                if (count > 0) {
                    call.ex.header("x-amz-mp-parts-count", Integer.toString(count));
                }
                rangeHeader = count == 0 || m.size() == 0 ? null : "bytes=" + r[0] + "-" + r[1];
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
        }
        try {
            range = ByteRange.parse(rangeHeader, m.size());
        } catch (S3Exception e) {
            call.ex.header("Content-Range", "bytes */" + m.size());
            call.fail(e);
            return;
        }
        String etag = m.meta().get(META_ETAG);
        if (etag != null) {
            call.ex.header("ETag", ETags.quote(etag));
        }
        call.ex.header("Content-Type", m.meta().getOrDefault(META_TYPE, "binary/octet-stream"));
        call.ex.header("Last-Modified", HTTP_DATE.format(Instant.ofEpochMilli(m.createdMillis())));
        call.ex.header("Accept-Ranges", "bytes");
        call.ex.header("x-geoblocks-version", m.version().id());
        if (range.partial()) {
            call.ex.header("Content-Range", range.contentRange(m.size()));
        }
        int cond = Preconditions.status(call.headers().get("If-Match"), call.headers().get("If-None-Match"),
                call.headers().get("If-Modified-Since"), call.headers().get("If-Unmodified-Since"), etag, m.createdMillis());
        if (cond == 412) {
            call.fail(S3Error.PRECONDITION_FAILED, "the object's ETag or date does not meet If-Match / If-Unmodified-Since");
            return;
        }
        if (cond == 304) {
            call.ex.respondHead(304, 0);
            if (!call.method().equals("HEAD")) {
                call.ex.context().writeAndFlush(io.netty.handler.codec.http.LastHttpContent.EMPTY_LAST_CONTENT);
            }
            return;
        }
        Checksums.Stored checksum = Checksums.Stored.of(m.meta());
        if (checksum != null && !range.partial() && "ENABLED".equalsIgnoreCase(call.headers().get("x-amz-checksum-mode"))) {
            // a whole object's checksum, on a 200 only (S3 sends none for a range; SDKs check it against the body)
            checksum.headers().forEach(call.ex::header);
        }
        int status = range.partial() ? 206 : 200;
        if (call.method().equals("HEAD") || range.length() == 0) {
            boolean keepAlive = call.ex.respondHead(status, range.length());
            if (!call.method().equals("HEAD")) {
                io.netty.channel.ChannelFuture f = call.ex.context().writeAndFlush(
                        io.netty.handler.codec.http.LastHttpContent.EMPTY_LAST_CONTENT);
                if (!keepAlive) {
                    f.addListener(io.netty.channel.ChannelFutureListener.CLOSE);
                }
            }
            return;
        }
        if (m.isInline()) {
            serveInline(call, m, range, status);
            return;
        }
        boolean keepAlive = call.ex.respondHead(status, range.length());
        SpooledDownload download;
        try {
            download = new SpooledDownload(call.ex.context(), settings, range.first(), range.length(), keepAlive);
        } catch (IOException e) {
            call.ex.context().close();
            return;
        }
        store.get(name, m.version().id(), download, range.partial() ? range.blocks() : null).whenComplete((done, t) ->
                download.finish(t == null ? null : String.valueOf(NodeStore.cause(t).getMessage())));
    }

    /**
     * A small object stored inline: its bytes came with the manifest of the stat, so the range is
     * answered from them (checked against their CRC32C first) without a download or a spool file, and sent with the head in one write.
     */
    private void serveInline(S3Call call, Manifest m, ByteRange range, int status) {
        byte[] data;
        try {
            data = m.inline().verified();
        } catch (IOException e) {
            call.fail(new IOException("object '" + call.key + "': " + e.getMessage(), e));
            return;
        }
        call.ex.respondWhole(status, io.netty.buffer.Unpooled.wrappedBuffer(data, (int) range.first(), (int) range.length()));
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
