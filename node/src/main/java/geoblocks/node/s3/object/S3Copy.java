package geoblocks.node.s3.object;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.WriteCondition;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.PercentCoding;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseCipher;
import geoblocks.node.s3.encryption.SseParams;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.encryption.SseStreams;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import geoblocks.node.s3.xml.S3Xml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CopyObject: the source's newest version (or {@code ?versionId}) is downloaded into a spool file
 * and stored as the destination, keeping its ETag and, unless the metadata directive is REPLACE,
 * its content type, user metadata and standard headers (the same {@link HeaderRecords} record).
 * A copy of an object onto itself without REPLACE (and without a source versionId or new encryption)
 * is refused InvalidRequest, as S3 does. An encrypted source is opened with its key (SSE-C: the
 * {@code x-amz-copy-source-server-side-encryption-customer-*} headers) and the copy encrypted as the
 * request asks (or the destination bucket's default), with a key and IV of its own.
 */
public final class S3Copy {
    private static final Logger LOG = LoggerFactory.getLogger(S3Copy.class);
    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final S3Versioning versioning;
    private final S3Objects objects;
    private final S3Encryption encryption;
    private final LongSupplier clock;
    private S3Tagging tagging;

    public S3Copy(NodeStore store, S3Settings settings, S3Buckets buckets, S3Versioning versioning, S3Objects objects,
            S3Encryption encryption, LongSupplier clock) {
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.versioning = versioning;
        this.objects = objects;
        this.encryption = encryption;
        this.clock = clock;
    }

    public void tagging(S3Tagging t) {
        this.tagging = t;
    }

    void copy(S3Call call) {
        String header = call.headers().get("x-amz-copy-source");
        int q = header.indexOf("?versionId=");
        String srcBucket;
        String srcKey;
        String version;
        SseRequest srcSse;
        SseRequest dstSse;
        try {
            String[] src = copySource(header);
            srcBucket = src[0];
            srcKey = src[1];
            version = q >= 0 ? ObjectVersions.parseId(PercentCoding.decode(header.substring(q + "?versionId=".length()))) : "";
            srcSse = encryption.copySourceRequest(call);
            dstSse = encryption.writeRequest(call);
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
            newHeaders = replace ? S3Objects.requested(call) : null;
            if (!replace && version.isEmpty() && dstSse.kind() == SseRequest.Kind.NONE && srcBucket.equals(call.bucket)
                    && srcKey.equals(call.key)) {
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
        Path plainFile;
        try {
            file = settings.spoolFile("copy-");
            plainFile = settings.spoolFile("copy-plain-");
        } catch (IOException e) {
            call.fail(e);
            return;
        }
        BucketMeta[] dst = new BucketMeta[1];
        Manifest[] src = new Manifest[1];
        String[] srcShownId = new String[1];
        S3Encryption.Plan[] plan = new S3Encryption.Plan[1];
        String[] copyEtag = new String[1];
        ClientPort.Written[] stored = new ClientPort.Written[1];
        buckets.find(call.bucket).thenCompose(b -> {
            dst[0] = b;
            return buckets.find(srcBucket);
        }).thenCompose(b -> pinned.isEmpty() ? CompletableFuture.completedFuture("")
                : versioning.versions(srcName).thenApply(vs -> {
                    ObjectVersions.V v = ObjectVersions.find(srcKey, vs, b.versioning(), pinned);
                    if (v == null || v.deleteMarker()) {
                        throw new CompletionException(new S3Exception(v == null
                                ? S3Error.NO_SUCH_VERSION : S3Error.INVALID_REQUEST, "version '" + pinned + "' of '" + srcKey
                                + "' in bucket '" + srcBucket + "' " + (v == null ? "does not exist" : "is a delete marker")));
                    }
                    srcShownId[0] = v.versionId();
                    return v.nodeVersion();
                })).thenCompose(nodeVersion -> store.getFile(srcName, nodeVersion, file)).thenCompose(m -> {
            src[0] = m;
            String etag = m.meta().getOrDefault(S3Objects.META_ETAG, "");
            Path plain = file;
            try {
                byte[] srcKeyBytes = encryption.readKey(m.meta(), srcSse, true);
                plan[0] = encryption.plan(dstSse, dst[0]);
                if (!Preconditions.copySource(call.headers().get("x-amz-copy-source-if-match"),
                        call.headers().get("x-amz-copy-source-if-none-match"),
                        call.headers().get("x-amz-copy-source-if-modified-since"),
                        call.headers().get("x-amz-copy-source-if-unmodified-since"), etag, m.createdMillis())) {
                    throw new S3Exception(S3Error.PRECONDITION_FAILED,
                            "the copy source's ETag or date does not meet the x-amz-copy-source-if-* conditions");
                } // checked before the source is decrypted: a refused copy decrypts nothing
                if (srcKeyBytes != null) { // the source opened into a plaintext spool file
                    byte[] md5 = SseStreams.decryptFile(new SseCipher(srcKeyBytes), file, plainFile);
                    plain = plainFile;
                    if (S3Encryption.params(m.meta()).mode() == SseParams.Mode.C) {
                        etag = ETags.hex(md5); // the source showed a keyed ETag: the copy's is the plaintext's MD5
                    }
                }
            } catch (S3Exception | IOException e) {
                throw new CompletionException(e);
            }
            String type = replace ? call.headers().get("Content-Type", "binary/octet-stream")
                    : m.meta().getOrDefault(S3Objects.META_TYPE, "binary/octet-stream");
            String checksum = m.meta().get(Checksums.META); // the same bytes: the same checksum
            Map<String, String> extra = new HashMap<>();
            if (checksum != null && (plan[0] == null || !plan[0].customer())) { // an SSE-C object keeps none
                extra.put(Checksums.META, checksum);
            }
            CompletableFuture<Map<String, String>> kept = replace ? objects.headers().write(newHeaders)
                    : CompletableFuture.completedFuture(m.meta().containsKey(HeaderRecords.META)
                            ? Map.of(HeaderRecords.META, m.meta().get(HeaderRecords.META)) : Map.of()); // the same record
            Path from = plain;
            String shownEtag = plan[0] == null ? etag : plan[0].etag(etag);
            copyEtag[0] = shownEtag;
            return kept.thenCompose(h -> {
                extra.putAll(h);
                if (plan[0] == null) {
                    return objects.store(call, dst[0], from, null, shownEtag, type, WriteCondition.NONE, extra);
                }
                return objects.storeEncrypted(call, dst[0], plan[0], from, null, shownEtag, type, WriteCondition.NONE, extra);
            });
        }).thenCompose(w -> {
            stored[0] = w;
            CompletableFuture<TagSet> tags = replaceTags ? CompletableFuture.completedFuture(newTags)
                    : tagging.read(S3Tagging.objectFile(srcBucket, srcKey, src[0].version().id()));
            return tags.thenCompose(ts -> tagging.tagWritten(call.bucket, call.key, w.version(), ts)).thenApply(x -> w);
        }).whenComplete((w, t) -> {
            delete(file);
            delete(plainFile);
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
                    S3Encryption.answer(call, plan[0] == null ? null : plan[0].params(), dstSse);
                    S3Objects.written(call, dst[0], stored[0]);
                    call.xml(200, S3Xml.copyResult(copyEtag[0], clock.getAsLong()));
                }
            });
        });
    }

    private static void delete(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            LOG.debug("could not remove copy spool {}: {}", f, e.toString());
        }
    }

    /** The bucket and key an {@code x-amz-copy-source} names ({@code [/]BUCKET/KEY[?versionId=V]}, URL-encoded). */
    public static String[] copySource(String header) throws S3Exception {
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
