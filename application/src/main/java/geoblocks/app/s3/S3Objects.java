package geoblocks.app.s3;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
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
 * The single-object operations: PutObject, CopyObject, GetObject (with Range), HeadObject, DeleteObject
 * and DeleteObjects. Bodies are received by {@link BodyReceiver} and stored from their spool files; downloads stream through {@link SpooledDownload}.
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
    private final LongSupplier clock;

    S3Objects(NodeStore store, S3Settings settings, S3Buckets buckets, BodyReceiver receiver, Migration migration,
            LongSupplier clock) {
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.receiver = receiver;
        this.migration = migration;
        this.clock = clock;
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
        receiver.receive(call, buckets.find(call.bucket), true, (bucket, spool) -> {
            String etag = ETags.hex(spool.md5());
            store(call, bucket, spool.file(), spool.source(), etag, type).whenComplete((w, t) -> {
                spool.discard();
                call.later(() -> {
                    if (t != null) {
                        call.fail(t);
                        return;
                    }
                    call.ex.header("ETag", ETags.quote(etag));
                    call.ex.header("x-geoblocks-version", w.version());
                    call.empty(200);
                });
            });
        });
    }

    /** Stores an object: at home with the bucket's policy, elsewhere here with ack local, then moved home. */
    java.util.concurrent.CompletableFuture<ClientPort.Written> store(S3Call call, BucketMeta bucket, Path file,
            geoblocks.blockstore.client.ByteSource source, String etag, String type) {
        String name = S3Names.fileName(call.bucket, call.key);
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put(META_ETAG, etag);
        meta.put(META_TYPE, type);
        if (bucket.home().equals(settings.region())) {
            return store.put(name, file, source, bucket.policy(), bucket.blockSize(), FileOp.ACK_ALL, false, meta);
        }
        List<String> targets = migration.targets(bucket.home());
        meta.put(META_MIGRATE, String.join(",", targets));
        return store.put(name, file, source, "local", bucket.blockSize(), FileOp.ACK_LOCAL, false, meta)
                .thenApply(w -> {
                    migration.start(name, w.version(), targets);
                    return w;
                });
    }

    void get(S3Call call) {
        String name = S3Names.fileName(call.bucket, call.key);
        buckets.find(call.bucket).thenCompose(bucket -> {
            if (call.anonymous() && !bucket.publicRead()) {
                throw new java.util.concurrent.CompletionException(new S3Exception(S3Error.ACCESS_DENIED,
                        "unsigned requests may only read objects of public-read buckets"));
            }
            return store.stat(name);
        }).whenComplete((stat, t) -> call.later(() -> {
            if (t != null) {
                Throwable c = NodeStore.cause(t);
                if (c instanceof NodeStore.StoreException s && s.notFound()) {
                    call.fail(S3Error.NO_SUCH_KEY, "no object '" + call.key + "' in bucket '" + call.bucket + "'");
                } else {
                    call.fail(c);
                }
                return;
            }
            serve(call, name, stat.manifest());
        }));
    }

    private void serve(S3Call call, String name, Manifest m) {
        ByteRange range;
        try {
            range = ByteRange.parse(call.headers().get("Range"), m.size());
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
     * answered from them (checked against their CRC32C first) without a download or a spool file.
     */
    private void serveInline(S3Call call, Manifest m, ByteRange range, int status) {
        byte[] data;
        try {
            data = m.inline().verified();
        } catch (IOException e) {
            call.fail(new IOException("object '" + call.key + "': " + e.getMessage(), e));
            return;
        }
        boolean keepAlive = call.ex.respondHead(status, range.length());
        io.netty.channel.ChannelFuture f = call.ex.context().writeAndFlush(new io.netty.handler.codec.http.DefaultLastHttpContent(
                io.netty.buffer.Unpooled.wrappedBuffer(data, (int) range.first(), (int) range.length())));
        if (!keepAlive) {
            f.addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
    }

    /**
     * CopyObject: the source's newest version (or {@code ?versionId}) is downloaded into a spool file
     * and stored as the destination, keeping its ETag and, unless the metadata directive is REPLACE,
     * its content type.
     */
    void copy(S3Call call) {
        String header = call.headers().get("x-amz-copy-source");
        int q = header.indexOf("?versionId=");
        String version = q >= 0 ? header.substring(q + "?versionId=".length()) : "";
        String srcBucket;
        String srcKey;
        try {
            String[] src = copySource(header);
            srcBucket = src[0];
            srcKey = src[1];
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        boolean replace = "REPLACE".equalsIgnoreCase(call.headers().get("x-amz-metadata-directive", "COPY"));
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
        buckets.find(call.bucket).thenCompose(b -> {
            dst[0] = b;
            return buckets.find(srcBucket);
        }).thenCompose(b -> store.getFile(srcName, pinned, file)).thenCompose(m -> {
            src[0] = m;
            String etag = m.meta().getOrDefault(META_ETAG, "");
            String type = replace ? call.headers().get("Content-Type", "binary/octet-stream")
                    : m.meta().getOrDefault(META_TYPE, "binary/octet-stream");
            return store(call, dst[0], file, null, etag, type);
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

    /** DeleteObjects ({@code POST /BUCKET?delete}): up to 1000 keys, deleted {@value #DELETE_BATCH} at a time. */
    void deleteMany(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            S3Xml.DeleteRequest req;
            try {
                req = S3Xml.deleteObjects(body);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            List<String> deleted = java.util.Collections.synchronizedList(new ArrayList<>());
            List<String[]> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            buckets.find(call.bucket).thenCompose(b -> deleteBatch(call, req.keys(), 0, deleted, errors))
                    .whenComplete((v, t) -> call.later(() -> {
                        if (t != null) {
                            call.fail(t);
                        } else {
                            call.xml(200, S3Xml.deleteResult(req.quiet() ? List.of() : sorted(deleted, req.keys()), errors));
                        }
                    }));
        }));
        call.ex.sendContinue();
    }

    static final int DELETE_BATCH = 16;

    private java.util.concurrent.CompletableFuture<Void> deleteBatch(S3Call call, List<String> keys, int from,
            List<String> deleted, List<String[]> errors) {
        if (from >= keys.size()) {
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
        List<java.util.concurrent.CompletableFuture<?>> batch = new ArrayList<>();
        for (String key : keys.subList(from, Math.min(keys.size(), from + DELETE_BATCH))) {
            S3Exception bad = S3Names.keyProblem(call.bucket, key);
            if (bad != null) {
                errors.add(new String[] {key, bad.error().code(), bad.getMessage()});
                continue;
            }
            batch.add(store.delete(S3Names.fileName(call.bucket, key)).handle((w, t) -> {
                Throwable c = t == null ? null : NodeStore.cause(t);
                if (c == null || (c instanceof NodeStore.StoreException s && s.notFound())) {
                    deleted.add(key);
                } else {
                    errors.add(new String[] {key, S3Error.INTERNAL_ERROR.code(), String.valueOf(c.getMessage())});
                }
                return null;
            }));
        }
        return java.util.concurrent.CompletableFuture.allOf(batch.toArray(new java.util.concurrent.CompletableFuture[0]))
                .thenCompose(v -> deleteBatch(call, keys, from + DELETE_BATCH, deleted, errors));
    }

    /** The deleted keys in the order the request listed them. */
    private static List<String> sorted(List<String> deleted, List<String> order) {
        java.util.Set<String> done = new java.util.HashSet<>(deleted);
        return order.stream().filter(done::contains).distinct().toList();
    }

    void delete(S3Call call) {
        String name = S3Names.fileName(call.bucket, call.key);
        buckets.find(call.bucket).thenCompose(b -> store.delete(name)).whenComplete((w, t) -> call.later(() -> {
            Throwable c = t == null ? null : NodeStore.cause(t);
            if (c != null && !(c instanceof NodeStore.StoreException s && s.notFound())) {
                call.fail(c);
            } else {
                call.empty(204); // S3 answers 204 whether or not the key existed
            }
        }));
    }
}
