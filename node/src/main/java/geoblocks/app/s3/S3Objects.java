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
    private S3Copy copier;
    private S3Encryption encryption;
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

    /** CopyObject ({@link S3Copy}) and server-side encryption ({@link S3Encryption}). */
    void copyAndEncryption(S3Copy c, S3Encryption e) {
        this.copier = c;
        this.encryption = e;
    }

    void put(S3Call call) {
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
            Map<String, String> extra = new java.util.HashMap<>();
            if (checksum != null && (plan == null || !plan.customer())) { // an SSE-C object keeps no plaintext checksum
                extra.put(Checksums.META, checksum.encode());
            }
            headers.write(kept).thenCompose(h -> {
                extra.putAll(h);
                if (plan == null) {
                    return store(call, bucket, spool.file(), spool.source(), etag, type, condition, extra);
                }
                extra.put(SseParams.META, plan.params().encode());
                return storeEncrypted(call, bucket, plan, spool, etag, type, condition, extra);
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

    /** Stores a received body encrypted as {@code plan} says: sealed chunk by chunk as the node reads it ({@link SseStreams}). */
    private java.util.concurrent.CompletableFuture<ClientPort.Written> storeEncrypted(S3Call call, BucketMeta bucket,
            S3Encryption.Plan plan, BodySpool spool, String etag, String type, WriteCondition condition, Map<String, String> extra) {
        geoblocks.blockstore.client.ByteSource plain = spool.source();
        SseStreams.FileSource file = null;
        if (plain == null) {
            try {
                file = new SseStreams.FileSource(spool.file());
            } catch (IOException e) {
                return java.util.concurrent.CompletableFuture.failedFuture(e);
            }
            plain = file;
        }
        SseStreams.FileSource opened = file;
        return store(call, bucket, null, new SseStreams.Encrypting(plan.cipher(), plain), etag, type, condition, extra)
                .whenComplete((w, t) -> {
                    if (opened != null) {
                        try {
                            opened.close();
                        } catch (IOException e) {
                            LOG.debug("closing a spooled body: {}", e.toString());
                        }
                    }
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
        SseRequest sse;
        try {
            versionId = call.param("versionId") == null ? null : ObjectVersions.parseId(call.param("versionId"));
            sse = encryption.readRequest(call);
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
                        serve(call, name, m, h, sse);
                    }));
                    return;
                }
                serve(call, name, m, h, sse);
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

    private void serve(S3Call call, String name, Manifest m, ObjectHeaders kept, SseRequest sse) {
        long size = S3Encryption.plainSize(m.meta(), m.size());
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
                long[] r = ObjectParts.range(n, size, etag, m.meta());
                int count = ObjectParts.count(etag);
                if (count > 0) {
                    call.ex.header("x-amz-mp-parts-count", Integer.toString(count));
                }
                rangeHeader = count == 0 || size == 0 ? null : "bytes=" + r[0] + "-" + r[1];
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
        }
        byte[] dataKey; // after partNumber's checks (an invalid part is InvalidPart whatever the key), before any data
        try {
            dataKey = encryption.readKey(m.meta(), sse, false); // a missing or wrong SSE-C key: 400
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        S3Encryption.answer(call, S3Encryption.params(m.meta()), sse);
        kept.headers().forEach(call.ex::header);
        try {
            range = ByteRange.parse(rangeHeader, size);
        } catch (S3Exception e) {
            call.ex.header("Content-Range", "bytes */" + size);
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
            call.ex.header("Content-Range", range.contentRange(size));
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
            serveInline(call, m, range, status, dataKey);
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
        if (dataKey != null) { // the chunks holding the range, opened on their way to the client
            long[] span = SseCipher.cipherSpan(range.first(), range.last(), m.size());
            SseStreams.Decrypting sink = new SseStreams.Decrypting(new SseCipher(dataKey), m.size(), span[0], span[1], download);
            store.get(name, m.version().id(), sink, new ClientPort.Range(span[0], span[1] - 1)).whenComplete((done, t) ->
                    download.finish(t == null ? (sink.complete() ? null : "the object's stored bytes ended early")
                            : String.valueOf(NodeStore.cause(t).getMessage())));
            return;
        }
        store.get(name, m.version().id(), download, range.partial() ? range.blocks() : null).whenComplete((done, t) ->
                download.finish(t == null ? null : String.valueOf(NodeStore.cause(t).getMessage())));
    }

    /**
     * A small object stored inline: its bytes came with the manifest of the stat, so the range is
     * answered from them (checked against their CRC32C first) without a download or a spool file, and sent with the head in one write.
     */
    private void serveInline(S3Call call, Manifest m, ByteRange range, int status, byte[] dataKey) {
        byte[] data;
        try {
            data = m.inline().verified();
            if (dataKey != null) {
                data = SseStreams.decryptBytes(new SseCipher(dataKey), data);
            }
        } catch (IOException e) {
            call.fail(new IOException("object '" + call.key + "': " + e.getMessage(), e));
            return;
        }
        call.ex.respondWhole(status, io.netty.buffer.Unpooled.wrappedBuffer(data, (int) range.first(), (int) range.length()));
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
