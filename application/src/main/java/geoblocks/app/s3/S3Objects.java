package geoblocks.app.s3;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.FileOp;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The object operations: PutObject, GetObject (with Range), HeadObject, DeleteObject and multipart
 * uploads (Create, UploadPart, Complete, Abort). Bodies are spooled to files under the node's data
 * directory ({@link BodySpool}) and stored from there; downloads stream through {@link SpooledDownload}.
 * An object whose bucket's home is this node's region is stored with the bucket's policy (ack all);
 * anywhere else it is stored here with policy {@code local} and ack local, then moved home in the
 * background ({@link Migration}): DataBridge's near node.
 */
final class S3Objects {
    private static final Logger LOG = LoggerFactory.getLogger(S3Objects.class);
    static final String META_ETAG = "etag";
    static final String META_TYPE = "content-type";
    /** Set on objects stored away from their bucket's home: the regions they are being moved to. */
    static final String META_MIGRATE = "migrate-to";
    static final int MAX_CONTENT_TYPE = 100;
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final MultipartUploads uploads;
    private final Migration migration;
    private final LongSupplier clock;

    S3Objects(NodeStore store, S3Settings settings, S3Buckets buckets, MultipartUploads uploads, Migration migration,
            LongSupplier clock) {
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.uploads = uploads;
        this.migration = migration;
        this.clock = clock;
    }

    /** A spooled body checked against Content-Length, Content-MD5 and the signed payload hash. */
    private static void verify(S3Call call, BodySpool spool, long declared) throws S3Exception {
        if (spool.size() != declared) {
            throw new S3Exception(S3Error.INCOMPLETE_BODY, "received " + spool.size() + " bytes, Content-Length was " + declared);
        }
        String md5 = call.headers().get("Content-MD5");
        if (md5 != null) {
            byte[] want;
            try {
                want = Base64.getDecoder().decode(md5.trim());
            } catch (IllegalArgumentException e) {
                want = new byte[0];
            }
            if (want.length != 16) {
                throw new S3Exception(S3Error.INVALID_DIGEST, "Content-MD5 must be the base64 of 16 bytes, was '" + md5 + "'");
            }
            if (!java.security.MessageDigest.isEqual(want, spool.md5())) {
                throw new S3Exception(S3Error.BAD_DIGEST, "Content-MD5 " + md5 + " does not match the body's MD5 "
                        + Base64.getEncoder().encodeToString(spool.md5()));
            }
        }
        String hash = call.payloadHash;
        if (hash != null && hash.length() == 64 && !hash.equalsIgnoreCase(spool.sha256Hex())) {
            throw new S3Exception(S3Error.SHA256_MISMATCH, "x-amz-content-sha256 " + hash + " does not match the body's "
                    + spool.sha256Hex());
        }
    }

    /** Checks the announced body of a PutObject or UploadPart; returns its length. */
    private long announced(S3Call call) throws S3Exception {
        if (call.payloadHash != null && call.payloadHash.startsWith("STREAMING-")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "aws-chunked payloads (" + call.payloadHash
                    + ") are not supported: sign the payload or send UNSIGNED-PAYLOAD");
        }
        long declared = HttpUtil.getContentLength(call.ex.request(), -1L);
        if (declared < 0) {
            throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH, "PUT needs a Content-Length header");
        }
        if (declared > settings.maxObjectSize()) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE, declared + " bytes exceed the gateway's limit of "
                    + settings.maxObjectSize());
        }
        return declared;
    }

    /**
     * Receives a body into a spool while the bucket (and for a part, the upload) is checked; the client
     * that expects 100-continue is told to send only when the checks pass. {@code then} runs on the
     * event loop with both.
     */
    private void receive(S3Call call, java.util.concurrent.CompletableFuture<BucketMeta> check,
            java.util.function.BiConsumer<BucketMeta, BodySpool> then) {
        long declared;
        BodySpool spool;
        Object[] state = new Object[2]; // [0] bucket when checked, [1] spool when ended
        try {
            declared = announced(call);
            spool = new BodySpool(settings.spoolDir(), declared, s -> {
                state[1] = s;
                if (state[0] != null) {
                    ready(call, (BucketMeta) state[0], s, declared, then);
                }
            });
        } catch (S3Exception e) {
            call.fail(e);
            return;
        } catch (IOException e) {
            call.fail(e);
            return;
        }
        call.ex.onBody(spool);
        check.whenComplete((m, t) -> call.later(() -> {
            if (t != null) {
                spool.discard();
                call.ex.onBody(null); // the rest of the body, if it comes, is read and dropped
                call.fail(t);
                return;
            }
            state[0] = m;
            call.ex.sendContinue();
            if (state[1] != null) {
                ready(call, m, spool, declared, then);
            }
        }));
    }

    private static void ready(S3Call call, BucketMeta m, BodySpool spool, long declared,
            java.util.function.BiConsumer<BucketMeta, BodySpool> then) {
        try {
            verify(call, spool, declared);
        } catch (S3Exception e) {
            spool.discard();
            call.fail(e);
            return;
        }
        then.accept(m, spool);
    }

    void put(S3Call call) {
        String type = call.headers().get("Content-Type", "binary/octet-stream");
        if (type.length() > MAX_CONTENT_TYPE) {
            call.fail(S3Error.INVALID_ARGUMENT, "Content-Type is longer than " + MAX_CONTENT_TYPE + " characters");
            return;
        }
        if (call.headers().contains("x-amz-copy-source")) {
            call.fail(S3Error.NOT_IMPLEMENTED, "CopyObject is not supported");
            return;
        }
        receive(call, buckets.find(call.bucket), (bucket, spool) -> {
            String etag = ETags.hex(spool.md5());
            store(call, bucket, spool.file(), null, etag, type).whenComplete((w, t) -> {
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
    private java.util.concurrent.CompletableFuture<ClientPort.Written> store(S3Call call, BucketMeta bucket, Path file,
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
        boolean keepAlive = call.ex.respondHead(status, range.length());
        SpooledDownload download;
        try {
            download = new SpooledDownload(call.ex.context(), settings.spoolDir(), range.first(), range.length(), keepAlive);
        } catch (IOException e) {
            call.ex.context().close();
            return;
        }
        store.get(name, m.version().id(), download).whenComplete((done, t) ->
                download.finish(t == null ? null : String.valueOf(NodeStore.cause(t).getMessage())));
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

    void createMultipart(S3Call call) {
        expireUploads();
        String type = call.headers().get("Content-Type", "binary/octet-stream");
        if (type.length() > MAX_CONTENT_TYPE) {
            call.fail(S3Error.INVALID_ARGUMENT, "Content-Type is longer than " + MAX_CONTENT_TYPE + " characters");
            return;
        }
        buckets.find(call.bucket).whenComplete((b, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            MultipartUploads.Upload u = uploads.create(call.bucket, call.key, type, clock.getAsLong());
            call.xml(200, S3Xml.initiateMultipart(call.bucket, call.key, u.id()));
        }));
    }

    void uploadPart(S3Call call) {
        int number;
        MultipartUploads.Upload upload;
        try {
            number = MultipartUploads.partNumber(call.param("partNumber"));
            upload = uploads.find(call.param("uploadId"), call.bucket, call.key);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        receive(call, buckets.find(call.bucket), (bucket, spool) -> {
            String etag = ETags.hex(spool.md5());
            try {
                MultipartUploads.Part old = uploads.addPart(upload.id(),
                        new MultipartUploads.Part(number, spool.size(), etag, spool.file()));
                if (old != null) {
                    Files.deleteIfExists(old.file());
                }
            } catch (S3Exception e) {
                spool.discard();
                call.fail(e);
                return;
            } catch (IOException e) {
                LOG.debug("could not remove a replaced part file: {}", e.toString());
            }
            call.ex.header("ETag", ETags.quote(etag));
            call.empty(200);
        });
    }

    void completeMultipart(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            MultipartUploads.Completed done;
            BucketMeta[] bucket = new BucketMeta[1];
            try {
                List<Object[]> parts = S3Xml.completeParts(body);
                List<Integer> numbers = new ArrayList<>();
                List<String> etags = new ArrayList<>();
                for (Object[] p : parts) {
                    numbers.add((Integer) p[0]);
                    etags.add((String) p[1]);
                }
                done = uploads.complete(call.param("uploadId"), call.bucket, call.key, numbers, etags);
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            if (done.size() > settings.maxObjectSize()) {
                removeParts(done.upload().parts().values());
                call.fail(S3Error.ENTITY_TOO_LARGE, done.size() + " bytes exceed the gateway's limit of " + settings.maxObjectSize());
                return;
            }
            PartsSource source = new PartsSource(done.parts());
            buckets.find(call.bucket).thenCompose(b -> {
                bucket[0] = b;
                return store(call, b, null, source, done.etag(), done.upload().contentType());
            }).whenComplete((w, t) -> {
                try {
                    source.close();
                } catch (IOException e) {
                    LOG.debug("closing part files: {}", e.toString());
                }
                removeParts(done.upload().parts().values());
                call.later(() -> {
                    if (t != null) {
                        call.fail(t);
                        return;
                    }
                    String host = call.headers().get("Host", "localhost");
                    call.xml(200, S3Xml.completeMultipart("http://" + host + call.resource(), call.bucket, call.key, done.etag()));
                });
            });
        }));
    }

    void abortMultipart(S3Call call) {
        try {
            removeParts(uploads.abort(call.param("uploadId"), call.bucket, call.key));
            call.empty(204);
        } catch (S3Exception e) {
            call.fail(e);
        }
    }

    private void expireUploads() {
        removeParts(uploads.expire(clock.getAsLong() - settings.multipartExpiry().toMillis()));
    }

    private static void removeParts(java.util.Collection<MultipartUploads.Part> parts) {
        for (MultipartUploads.Part p : parts) {
            try {
                Files.deleteIfExists(p.file());
            } catch (IOException e) {
                LOG.debug("could not remove part file {}: {}", p.file(), e.toString());
            }
        }
    }
}
