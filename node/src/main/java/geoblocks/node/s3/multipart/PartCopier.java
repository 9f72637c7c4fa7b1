package geoblocks.node.s3.multipart;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.net.DurableFile;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.PercentCoding;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.S3Settings;
import geoblocks.node.s3.body.RangeFileSink;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseCipher;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.encryption.SseStreams;
import geoblocks.node.s3.object.ByteRange;
import geoblocks.node.s3.object.ETags;
import geoblocks.node.s3.object.Preconditions;
import geoblocks.node.s3.object.S3Copy;
import geoblocks.node.s3.object.S3Objects;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import geoblocks.node.s3.xml.S3Xml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * UploadPartCopy for {@link S3Multipart}: the source (or the range of it {@code x-amz-copy-source-range} names)
 * is downloaded into a part file, opened when it is encrypted, and becomes part N of the upload like an uploaded part.
 */
final class PartCopier {
    private static final Logger LOG = LoggerFactory.getLogger(PartCopier.class);

    private final NodeStore store;
    private final S3Settings settings;
    private final S3Buckets buckets;
    private final MultipartUploads uploads;
    private final LongSupplier clock;
    /** Writes an upload's journal after a part was added. */
    private final Consumer<String> persist;
    private S3Encryption encryption;
    private S3Versioning versioning;

    PartCopier(NodeStore store, S3Settings settings, S3Buckets buckets, MultipartUploads uploads, LongSupplier clock,
            Consumer<String> persist) {
        this.store = store;
        this.settings = settings;
        this.buckets = buckets;
        this.uploads = uploads;
        this.clock = clock;
        this.persist = persist;
    }

    void encryption(S3Encryption e) {
        this.encryption = e;
    }

    void versioning(S3Versioning v) {
        this.versioning = v;
    }

    /**
     * UploadPartCopy: bytes of an existing object ({@code x-amz-copy-source}, optionally
     * {@code x-amz-copy-source-range: bytes=A-B}) become a part of the upload, spooled like an uploaded part.
     */
    void copy(S3Call call, MultipartUploads.Upload upload, int number) {
        String[] src;
        String version;
        SseRequest srcSse;
        String header = call.headers().get("x-amz-copy-source");
        try {
            srcSse = encryption.copySourceRequest(call);
            src = S3Copy.copySource(header);
            int q = header.indexOf("?versionId=");
            version = q < 0 ? null : ObjectVersions.parseId(PercentCoding.decode(header.substring(q + "?versionId=".length())));
        } catch (IllegalArgumentException e) {
            call.fail(S3Error.INVALID_ARGUMENT, "the versionId of x-amz-copy-source is not valid: " + e.getMessage());
            return;
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        String srcName = S3Names.fileName(src[0], src[1]);
        String rangeHeader = call.headers().get("x-amz-copy-source-range");
        Path file;
        try {
            file = settings.spoolFile("part-");
        } catch (IOException e) {
            call.fail(e);
            return;
        }
        RangeFileSink[] sink = new RangeFileSink[1];
        buckets.find(src[0]).thenCompose(b -> version == null || versioning == null ? store.stat(srcName)
                : versioning.versions(srcName).thenCompose(vs -> { // a source version named by id (S3 versions)
                    ObjectVersions.V v = ObjectVersions.find(src[1], vs, b.versioning(), version);
                    if (v == null || v.deleteMarker()) {
                        throw new CompletionException(new S3Exception(v == null
                                ? S3Error.NO_SUCH_VERSION : S3Error.INVALID_REQUEST, "version '" + version + "' of '" + src[1]
                                + "' in bucket '" + src[0] + "' " + (v == null ? "does not exist" : "is a delete marker")));
                    }
                    call.ex.header("x-amz-copy-source-version-id", v.versionId());
                    return store.stat(srcName, v.nodeVersion());
                })).thenCompose(st -> {
            Manifest m = st.manifest();
            ByteRange range;
            try {
                if (!Preconditions.copySource(call.headers().get("x-amz-copy-source-if-match"),
                        call.headers().get("x-amz-copy-source-if-none-match"),
                        call.headers().get("x-amz-copy-source-if-modified-since"),
                        call.headers().get("x-amz-copy-source-if-unmodified-since"), m.meta().get(S3Objects.META_ETAG),
                        m.createdMillis())) {
                    throw new S3Exception(S3Error.PRECONDITION_FAILED,
                            "the copy source's ETag or date does not meet the x-amz-copy-source-if-* conditions");
                }
                byte[] key = encryption.readKey(m.meta(), srcSse, true);
                range = ByteRange.copySource(rangeHeader, S3Encryption.plainSize(m.meta(), m.size()));
                sink[0] = new RangeFileSink(file, range.first(), range.length());
                if (key != null) { // the chunks holding the range, opened into the part file
                    long[] span = SseCipher.cipherSpan(range.first(), range.last(), m.size());
                    return store.get(srcName, m.version().id(), new SseStreams.Decrypting(new SseCipher(key), m.size(), span[0],
                            span[1], sink[0]), new ClientPort.Range(span[0], span[1] - 1));
                }
            } catch (S3Exception | IOException e) {
                throw new CompletionException(e);
            }
            return store.get(srcName, m.version().id(), sink[0], range.partial() ? range.blocks() : null);
        }).whenComplete((m, t) -> call.later(() -> {
            try {
                if (sink[0] != null) {
                    sink[0].close();
                }
            } catch (IOException e) {
                LOG.debug("closing part copy {}: {}", file, e.toString());
            }
            Throwable c = t == null ? null : NodeStore.cause(t);
            try {
                if (c != null) {
                    throw c instanceof NodeStore.StoreException s && s.notFound()
                            ? new S3Exception(S3Error.NO_SUCH_KEY, "no object '" + src[1] + "' in bucket '" + src[0] + "' to copy")
                            : c;
                }
                String etag = ETags.hex(sink[0].md5());
                DurableFile.sync(file); // an acknowledged part survives a power cut (with its journal)
                MultipartUploads.Part old = uploads.addPart(upload.id(),
                        new MultipartUploads.Part(number, sink[0].written(), etag, file));
                persist.accept(upload.id());
                if (old != null) {
                    Files.deleteIfExists(old.file());
                }
                call.xml(200, S3Xml.copyPartResult(etag, clock.getAsLong()));
            } catch (Throwable e) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException io) {
                    LOG.debug("could not remove {}: {}", file, io.toString());
                }
                call.fail(e);
            }
        }));
    }
}
