package geoblocks.node.s3.multipart;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.net.DurableFile;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.body.BodyReceiver;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseParams;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.encryption.SseStreams;
import geoblocks.node.s3.lock.S3ObjectLock;
import geoblocks.node.s3.object.ChecksumRequest;
import geoblocks.node.s3.object.Checksums;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.ObjectHeaders;
import geoblocks.node.s3.object.Preconditions;
import geoblocks.node.s3.object.S3Objects;
import geoblocks.node.s3.object.S3Tagging;
import geoblocks.node.s3.object.TagSet;
import geoblocks.node.s3.versioning.S3Versioning;
import geoblocks.node.s3.xml.S3ObjectXml;
import geoblocks.node.s3.xml.S3Xml;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The multipart upload operations: CreateMultipartUpload, UploadPart, UploadPartCopy,
 * CompleteMultipartUpload and AbortMultipartUpload. Parts are kept as spool files in
 * {@link MultipartUploads}; a completed upload is stored as one object through {@link S3Objects}.
 */
public final class S3Multipart {
    private static final Logger LOG = LoggerFactory.getLogger(S3Multipart.class);

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final MultipartUploads uploads;
    private final S3Objects objects;
    private final BodyReceiver receiver;
    private final LongSupplier clock;
    private S3Tagging tagging;
    private S3Versioning versioning;
    private S3Encryption encryption;
    private S3ObjectLock objectLock;
    private final PartChecksums partChecksums;
    private final PartCopier partCopier;
    /** The encryption an upload was begun with (never a key: an SSE-C upload's parts and Complete carry it). */
    private final ConcurrentHashMap<String, SseParams> uploadSse = new ConcurrentHashMap<>();
    /** The tags asked for by CreateMultipartUpload (x-amz-tagging), stored with the object on Complete. */
    private final ConcurrentHashMap<String, TagSet> uploadTags = new ConcurrentHashMap<>();
    /** The headers record CreateMultipartUpload asked for (x-amz-meta-*, Cache-Control, ...), named in the object's metadata on Complete. */
    private final ConcurrentHashMap<String, Map<String, String>> uploadHeaders = new ConcurrentHashMap<>();

    /** Where the uploads are kept so they survive a restart. */
    private final MultipartJournal journal;

    public S3Multipart(NodeStore store, S3Settings settings, S3Buckets buckets, MultipartUploads uploads, S3Objects objects,
            BodyReceiver receiver, LongSupplier clock) {
        this.journal = new MultipartJournal(settings.spoolDir());
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.uploads = uploads;
        this.objects = objects;
        this.receiver = receiver;
        this.clock = clock;
        this.partChecksums = new PartChecksums(store);
        this.partCopier = new PartCopier(store, settings, buckets, uploads, clock, this::persist);
    }

    /** Puts back the uploads a previous run left in progress (read by {@link MultipartJournal#load}). */
    public void restore(List<MultipartJournal.Recovered> recovered) {
        for (MultipartJournal.Recovered r : recovered) {
            uploads.restore(r.upload());
            if (r.tags() != null && r.tags().size() > 0) {
                uploadTags.put(r.upload().id(), r.tags());
            }
            if (!r.headers().isEmpty()) {
                uploadHeaders.put(r.upload().id(), r.headers());
            }
            if (r.sse() != null) {
                uploadSse.put(r.upload().id(), r.sse());
            }
        }
    }

    /** Rewrites upload {@code id}'s journal as it is now (nothing when it ended meanwhile). */
    private void persist(String id) {
        MultipartUploads.Upload u = uploads.copy(id);
        if (u == null) {
            return;
        }
        try {
            journal.write(u, uploadTags.get(id), uploadHeaders.get(id), uploadSse.get(id));
        } catch (IOException e) {
            LOG.warn("multipart upload {}: its journal could not be written, so it would not survive a restart: {}", id,
                    e.toString());
        }
    }

    /** Forgets aborted upload {@code id}: what Complete would have stored with it, and its journal. */
    private void forget(String id) {
        uploadTags.remove(id);
        uploadHeaders.remove(id);
        uploadSse.remove(id);
        unpersist(id);
    }

    /** Forgets upload {@code id}'s journal (it completed or was aborted). */
    private void unpersist(String id) {
        try {
            journal.delete(id);
        } catch (IOException e) {
            LOG.warn("multipart upload {}: its journal could not be removed: {}", id, e.toString());
        }
    }

    public void tagging(S3Tagging t) {
        this.tagging = t;
    }

    public void objectLock(S3ObjectLock l) {
        this.objectLock = l;
    }

    public void encryption(S3Encryption e) {
        partCopier.encryption(e);
        this.encryption = e;
    }

    /** The versions of names, for UploadPartCopy of a source named by versionId. */
    public void versioning(S3Versioning v) {
        partCopier.versioning(v);
        this.versioning = v;
    }

    public void createMultipart(S3Call call) {
        expireUploads();
        String type = call.headers().get("Content-Type", "binary/octet-stream");
        if (type.length() > S3Objects.MAX_CONTENT_TYPE) {
            call.fail(S3Error.INVALID_ARGUMENT, "Content-Type is longer than " + S3Objects.MAX_CONTENT_TYPE + " characters");
            return;
        }
        Checksums.Algorithm checksum = Checksums.Algorithm.parse(call.headers().get("x-amz-checksum-algorithm"));
        Checksums.Type checksumType;
        try {
            if (checksum == null && call.headers().get("x-amz-checksum-algorithm") != null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-checksum-algorithm '"
                        + call.headers().get("x-amz-checksum-algorithm") + "' is not one of CRC32, CRC32C, CRC64NVME, SHA1, SHA256");
            }
            checksumType = Checksums.Type.parse(call.headers().get("x-amz-checksum-type"));
            if (checksumType != null && checksum == null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-checksum-type needs x-amz-checksum-algorithm");
            }
            if (checksum != null && checksumType == null) {
                checksumType = Checksums.defaultType(checksum);
            }
            if (checksum != null && !Checksums.allowed(checksum, checksumType)) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "the checksum type " + checksumType + " is not available"
                        + " for " + checksum.upper());
            }
        } catch (IllegalArgumentException e) {
            call.fail(S3Error.INVALID_REQUEST, "x-amz-checksum-type must be COMPOSITE or FULL_OBJECT");
            return;
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        Checksums.Type type2 = checksumType;
        TagSet tags;
        ObjectHeaders kept;
        SseRequest sse;
        try {
            tags = TagSet.fromQuery(call.headers().get("x-amz-tagging"), TagSet.MAX_OBJECT_TAGS);
            kept = S3Objects.requested(call);
            sse = encryption.writeRequest(call);
            objectLock.checkHeaders(call);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        Map<String, String> keptMeta = new HashMap<>();
        SseParams[] sseParams = new SseParams[1];
        buckets.find(call.bucket).thenCompose(b -> {
            try {
                sseParams[0] = encryption.uploadParams(sse, b);
                keptMeta.putAll(objectLock.versionMeta(call.headers()::get, b)); // kept until Complete
            } catch (S3Exception e) {
                throw new CompletionException(e);
            }
            return objects.headers().write(kept).thenApply(h -> {
                keptMeta.putAll(h);
                return b;
            });
        }).whenComplete((b, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            MultipartUploads.Upload u = uploads.create(call.bucket, call.key, type, clock.getAsLong(), checksum, type2, call.requester);
            if (tags.size() > 0) {
                uploadTags.put(u.id(), tags);
            }
            if (!keptMeta.isEmpty()) {
                uploadHeaders.put(u.id(), Map.copyOf(keptMeta));
            }
            if (sseParams[0] != null) {
                uploadSse.put(u.id(), sseParams[0]);
            }
            persist(u.id());
            S3Encryption.answer(call, sseParams[0], sse);
            if (checksum != null) {
                call.ex.header("x-amz-checksum-algorithm", checksum.upper());
                call.ex.header("x-amz-checksum-type", type2.name());
            }
            call.xml(200, S3Xml.initiateMultipart(call.bucket, call.key, u.id()));
        }));
    }

    public void uploadPart(S3Call call) {
        int number;
        MultipartUploads.Upload upload;
        SseRequest sse;
        try {
            number = MultipartUploads.partNumber(call.param("partNumber"));
            upload = uploads.find(call.param("uploadId"), call.bucket, call.key);
            sse = encryption.uploadRequest(call, uploadSse.get(upload.id())); // an SSE-C upload's key on every part
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        S3Encryption.answer(call, uploadSse.get(upload.id()), sse);
        if (call.headers().contains("x-amz-copy-source")) {
            partCopier.copy(call, upload, number);
            return;
        }
        receiver.receive(call, buckets.find(call.bucket), false, upload.checksum(), (bucket, spool) -> {
            String etag = ETags.hex(spool.md5());
            try {
                DurableFile.sync(spool.file()); // an acknowledged part survives a power cut (with its journal)
            } catch (IOException e) {
                spool.discard();
                call.fail(new S3Exception(S3Error.INTERNAL_ERROR, "part " + number + " could not be synced to disk: " + e));
                return;
            }
            try {
                MultipartUploads.Part old = uploads.addPart(upload.id(), new MultipartUploads.Part(number, spool.size(), etag,
                        spool.file(), spool.checksumAlgorithm(), spool.checksumValue(), clock.getAsLong()));
                persist(upload.id());
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
            if (spool.checksumAlgorithm() != null) {
                call.ex.header(spool.checksumAlgorithm().header(), Checksums.base64(spool.checksumValue()));
            }
            call.empty(200);
        });
    }

    public void completeMultipart(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> {
            MultipartUploads.Completed done;
            BucketMeta[] bucket = new BucketMeta[1];
            SseParams sseParams = uploadSse.get(String.valueOf(call.param("uploadId")));
            S3Encryption.Plan plan;
            try {
                SseRequest sse = encryption.uploadRequest(call, sseParams);
                plan = sseParams == null ? null : encryption.plan(sseParams, sse);
                S3Encryption.answer(call, sseParams, sse);
                List<Object[]> parts = S3Xml.completeParts(body);
                List<Integer> numbers = new ArrayList<>();
                List<String> etags = new ArrayList<>();
                List<String> checksums = new ArrayList<>();
                for (Object[] p : parts) {
                    numbers.add((Integer) p[0]);
                    etags.add((String) p[1]);
                    checksums.add((String) p[3]);
                }
                ChecksumRequest sent = ChecksumRequest.of(BodyReceiver.headerMap(call), false, null);
                done = uploads.complete(call.param("uploadId"), call.bucket, call.key, numbers, etags, checksums,
                        sent.value());
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            String etag = plan == null ? done.etag() : plan.etag(done.etag());
            if (done.repeat()) { // completed before with these parts: the same answer, nothing stored again
                completed(call, done, etag);
                return;
            }
            Map<String, String> extra = new HashMap<>();
            if (plan != null) {
                extra.put(SseParams.META, plan.params().encode());
            }
            if (done.checksum() != null && (plan == null || !plan.customer())) {
                extra.put(Checksums.META, new Checksums.Stored(done.upload().checksum(), done.upload().checksumType(),
                        done.checksum()).encode());
            }
            long partSize = ObjectParts.uniform(done.parts().stream().mapToLong(MultipartUploads.Part::size).toArray());
            if (partSize > 0) {
                extra.put(ObjectParts.META, Long.toString(partSize)); // GET partNumber, GetObjectAttributes
            }
            // a Complete that fails keeps the upload and its parts: the client may complete it again or abort it
            if (done.size() > settings.maxObjectSize()) {
                uploads.reopen(done);
                call.fail(S3Error.ENTITY_TOO_LARGE, done.size() + " bytes exceed the gateway's limit of " + settings.maxObjectSize());
                return;
            }
            WriteCondition condition;
            try {
                condition = Preconditions.write(call.headers().get("If-Match"), call.headers().get("If-None-Match"));
            } catch (S3Exception e) {
                uploads.reopen(done);
                call.fail(e);
                return;
            }
            extra.putAll(uploadHeaders.getOrDefault(done.upload().id(), Map.of()));
            PartsSource source = new PartsSource(done.parts());
            ByteSource stored = plan == null ? source : new SseStreams.Encrypting(plan.cipher(), source);
            PartChecksums.Parts partSums = plan != null && plan.customer() ? null : PartChecksums.of(done); // SSE-C: none kept
            partChecksums.write(partSums).thenCompose(pm -> {
                extra.putAll(pm);
                return buckets.find(call.bucket);
            }).thenCompose(b -> {
                bucket[0] = b;
                return objects.store(call, b, null, stored, etag, done.upload().contentType(), condition, extra);
            }).thenCompose(w -> tagging.tagWritten(call.bucket, call.key, w.version(), uploadTags.remove(done.upload().id()))
                    .thenApply(x -> w)).whenComplete((w, t) -> {
                try {
                    source.close();
                } catch (IOException e) {
                    LOG.debug("closing part files: {}", e.toString());
                }
                if (t != null) {
                    uploads.reopen(done);
                } else {
                    removeParts(done.upload().parts().values());
                    unpersist(done.upload().id());
                }
                call.later(() -> {
                    if (t != null) {
                        call.fail(S3Objects.writeFailure(call, t));
                        return;
                    }
                    S3Objects.written(call, bucket[0], w);
                    completed(call, done, etag);
                });
            });
        }));
    }

    /** The CompleteMultipartUpload answer, with the object's checksum when it has one. */
    private static void completed(S3Call call, MultipartUploads.Completed done, String etag) {
        String host = call.headers().get("Host", "localhost");
        Checksums.Stored checksum = done.checksum() == null ? null
                : new Checksums.Stored(done.upload().checksum(), done.upload().checksumType(), done.checksum());
        call.xml(200, S3ObjectXml.completeMultipart("http://" + host + call.resource(), call.bucket, call.key, etag,
                checksum));
    }

    public void abortMultipart(S3Call call) {
        try {
            removeParts(uploads.abort(call.param("uploadId"), call.bucket, call.key));
            forget(call.param("uploadId"));
            call.empty(204);
        } catch (S3Exception e) {
            call.fail(e);
        }
    }

    /**
     * Aborts the uploads in progress here that {@code abort} picks (a lifecycle's
     * AbortIncompleteMultipartUpload), removing their parts; returns how many.
     */
    public int abortWhere(Predicate<MultipartUploads.Upload> abort) {
        int n = 0;
        for (MultipartUploads.Upload u : uploads.snapshot().values()) {
            if (!abort.test(u)) {
                continue;
            }
            try {
                removeParts(uploads.abort(u.id(), u.bucket(), u.key()));
                forget(u.id());
                n++;
            } catch (S3Exception e) {
                // completed or aborted meanwhile
            }
        }
        return n;
    }

    /** The uploads in progress here. */
    public Collection<MultipartUploads.Upload> uploadsInProgress() {
        return uploads.snapshot().values();
    }

    private void expireUploads() {
        removeParts(uploads.expire(clock.getAsLong() - settings.multipartExpiry().toMillis()));
        uploadTags.keySet().retainAll(uploads.snapshot().keySet());
        uploadHeaders.keySet().retainAll(uploads.snapshot().keySet());
        uploadSse.keySet().retainAll(uploads.snapshot().keySet());
        try {
            journal.retain(uploads.snapshot().keySet());
        } catch (IOException e) {
            LOG.warn("removing the journals of expired multipart uploads failed: {}", e.toString());
        }
    }

    /** A query parameter that must be a number 0..max (a larger one is max), else InvalidArgument. */
    private static void removeParts(Collection<MultipartUploads.Part> parts) {
        for (MultipartUploads.Part p : parts) {
            try {
                Files.deleteIfExists(p.file());
            } catch (IOException e) {
                LOG.debug("could not remove part file {}: {}", p.file(), e.toString());
            }
        }
    }
}
