package geoblocks.node.s3.object;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.body.SpooledDownload;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseCipher;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.encryption.SseStreams;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.multipart.ObjectParts;
import geoblocks.node.s3.multipart.PartChecksums;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * GetObject and HeadObject (with Range, partNumber, conditional headers and versionId): find the
 * version (a delete marker answers 404 or 405 with its id, as S3 does), then serve it: the
 * object's kept headers, its ETag and dates, a 304 or 412 from the preconditions, and the bytes:
 * an inline object's from the manifest the stat brought, any other's streamed from the node
 * through {@link SpooledDownload}.
 */
final class S3ObjectReads {
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
    private static final String META_ETAG = S3Objects.META_ETAG;
    private static final String META_TYPE = S3Objects.META_TYPE;

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final S3Versioning versioning;
    private final HeaderRecords headers;
    private S3Tagging tagging;
    private S3ObjectLock objectLock;
    private final PartChecksums partChecksums;
    private S3Encryption encryption;

    S3ObjectReads(NodeStore store, S3Settings settings, S3Buckets buckets, S3Versioning versioning, HeaderRecords headers) {
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.versioning = versioning;
        this.headers = headers;
        this.partChecksums = new PartChecksums(store);
    }

    /** Which key opens an encrypted object ({@link S3Encryption}). */
    void encryption(S3Encryption e) {
        this.encryption = e;
    }

    /** Where the tags of objects are kept (x-amz-tagging-count on HEAD). */
    void tagging(S3Tagging t) {
        this.tagging = t;
    }

    void objectLock(S3ObjectLock l) {
        this.objectLock = l;
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
                    throw new CompletionException(new S3Exception(S3Error.NO_SUCH_VERSION,
                            "no version '" + versionId + "' of '" + call.key + "' in bucket '" + call.bucket + "'"));
                }
                shownId[0] = v.versionId();
                if (v.deleteMarker()) {
                    call.ex.header("x-amz-delete-marker", "true");
                    call.ex.header("x-amz-version-id", v.versionId());
                    throw new CompletionException(new S3Exception(S3Error.METHOD_NOT_ALLOWED,
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
            String[] partSum = new String[1]; // GET partNumber with checksum mode: the part's checksum, kept since Complete
            headers.read(m.meta()).thenCompose(h -> objectLock.answerHeaders(call, bucket[0], m).thenApply(x -> h))
                    .thenCompose(h -> partChecksum(call, m).thenApply(c -> {
                        partSum[0] = c;
                        return h;
                    }))
                    .whenComplete((h, t1) -> call.later(() -> {
                if (t1 != null) {
                    call.fail(NodeStore.cause(t1));
                    return;
                }
                if (call.method().equals("HEAD") && tagging != null) { // x-amz-tagging-count: one lookup, on HEAD only
                    tagging.read(S3Tagging.objectFile(call.bucket, call.key, m.version().id())).whenComplete((tags, t2) -> call.later(() -> {
                        if (tags != null && tags.size() > 0) {
                            call.ex.header("x-amz-tagging-count", Integer.toString(tags.size()));
                        }
                        serve(call, name, m, h, sse, partSum[0]);
                    }));
                    return;
                }
                serve(call, name, m, h, sse, partSum[0]);
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

    /** The checksum of the part a {@code partNumber} read with {@code x-amz-checksum-mode: ENABLED} asks for, or null. */
    private CompletableFuture<String> partChecksum(S3Call call, Manifest m) {
        if (call.param("partNumber") == null || !"ENABLED".equalsIgnoreCase(call.headers().get("x-amz-checksum-mode"))
                || Checksums.Stored.of(m.meta()) == null) {
            return CompletableFuture.completedFuture(null);
        }
        int n;
        try {
            n = Integer.parseInt(call.param("partNumber").trim());
        } catch (NumberFormatException e) {
            return CompletableFuture.completedFuture(null); // refused by serve
        }
        return partChecksums.read(m.meta()).thenApply(p -> p == null ? null : p.part(n));
    }

    /** {@code partSum}: the checksum of the part read by {@code partNumber}, sent with a 200 (null: none). */
    private void serve(S3Call call, String name, Manifest m, ObjectHeaders kept, SseRequest sse, String partSum) {
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
        if (call.method().equals("GET")) {
            try { // response-content-type and the like: what this answer's headers say, not the object's
                ObjectHeaders.responseOverrides(call::param, call.requester != null).forEach(call.ex::header);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
        }
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
                call.ex.context().writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            }
            return;
        }
        Checksums.Stored checksum = Checksums.Stored.of(m.meta());
        if (checksum != null && !range.partial() && "ENABLED".equalsIgnoreCase(call.headers().get("x-amz-checksum-mode"))) {
            // a whole object's checksum, on a 200 only (S3 sends none for a range; SDKs check it against the body)
            checksum.headers().forEach(call.ex::header);
        } else if (checksum != null && partSum != null) { // a part's own checksum, with the object's type (S3)
            new Checksums.Stored(checksum.algorithm(), checksum.type(), partSum).headers().forEach(call.ex::header);
        }
        int status = range.partial() ? 206 : 200;
        if (call.method().equals("HEAD") || range.length() == 0) {
            boolean keepAlive = call.ex.respondHead(status, range.length());
            if (!call.method().equals("HEAD")) {
                ChannelFuture f = call.ex.context().writeAndFlush(
                        LastHttpContent.EMPTY_LAST_CONTENT);
                if (!keepAlive) {
                    f.addListener(ChannelFutureListener.CLOSE);
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
            download = new SpooledDownload(call.ex.context(), settings, range.first(), range.length(), keepAlive,
                    dataKey != null); // an SSE object's plaintext is sealed on disk under a key of this download's
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
        call.ex.respondWhole(status, Unpooled.wrappedBuffer(data, (int) range.first(), (int) range.length()));
    }
}
