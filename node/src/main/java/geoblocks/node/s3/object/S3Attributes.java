package geoblocks.node.s3.object;

import geoblocks.blockstore.core.Manifest;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.encryption.S3Encryption;
import geoblocks.node.s3.encryption.SseRequest;
import geoblocks.node.s3.multipart.ObjectParts;
import geoblocks.node.s3.multipart.PartChecksums;
import geoblocks.node.s3.versioning.ObjectVersions;
import geoblocks.node.s3.versioning.S3Versioning;
import geoblocks.node.s3.xml.S3ObjectXml;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * GetObjectAttributes ({@code GET /BUCKET/KEY?attributes}, {@code x-amz-object-attributes}): ETag,
 * Checksum, ObjectParts (count, and each part's number and size when the object kept its part size,
 * {@link ObjectParts}), StorageClass (always STANDARD) and ObjectSize, of the current version or of
 * {@code versionId}, from the version's manifest alone.
 */
public final class S3Attributes {
    private final S3Encryption encryption;
    static final Set<String> KNOWN = Set.of("etag", "checksum", "objectparts", "storageclass", "objectsize");
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3Versioning versioning;

    private final PartChecksums partChecksums;

    public S3Attributes(NodeStore store, S3Buckets buckets, S3Versioning versioning, S3Encryption encryption) {
        this.encryption = encryption;
        this.store = store;
        this.buckets = buckets;
        this.versioning = versioning;
        this.partChecksums = new PartChecksums(store);
    }

    /** The attributes asked for (lower case), or InvalidArgument. */
    static Set<String> requested(String header) throws S3Exception {
        if (header == null || header.isBlank()) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "GetObjectAttributes needs x-amz-object-attributes");
        }
        Set<String> out = new LinkedHashSet<>();
        for (String a : header.split(",")) {
            String t = a.trim().toLowerCase(Locale.ROOT);
            if (!KNOWN.contains(t)) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "unknown object attribute '" + a.trim() + "' (ETag,"
                        + " Checksum, ObjectParts, StorageClass, ObjectSize)");
            }
            out.add(t);
        }
        return out;
    }

    public void get(S3Call call) {
        Set<String> wanted;
        String versionId;
        int maxParts;
        int marker;
        SseRequest sse;
        try {
            sse = encryption.readRequest(call);
            wanted = requested(call.headers().get("x-amz-object-attributes"));
            versionId = call.param("versionId") == null ? null : ObjectVersions.parseId(call.param("versionId"));
            maxParts = headerInt(call, "x-amz-max-parts", 1000);
            marker = headerInt(call, "x-amz-part-number-marker", 0);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        String name = S3Names.fileName(call.bucket, call.key);
        String[] shown = new String[1];
        ObjectVersions.Status[] status = new ObjectVersions.Status[1];
        buckets.find(call.bucket).thenCompose(b -> {
            status[0] = b.versioning();
            if (versionId == null) {
                return store.stat(name);
            }
            return versioning.versions(name).thenCompose(vs -> {
                ObjectVersions.V v = ObjectVersions.find(call.key, vs, b.versioning(), versionId);
                if (v == null || v.deleteMarker()) {
                    if (v != null) {
                        call.ex.header("x-amz-delete-marker", "true");
                    }
                    throw new CompletionException(new S3Exception(v == null ? S3Error.NO_SUCH_VERSION : S3Error.METHOD_NOT_ALLOWED,
                            "version '" + versionId + "' of '" + call.key + "' " + (v == null ? "does not exist" : "is a delete marker")));
                }
                shown[0] = v.versionId();
                return store.stat(name, v.nodeVersion());
            });
        }).whenComplete((st, t) -> call.later(() -> {
            if (t != null) {
                call.failObject(t);
                return;
            }
            Manifest m = st.manifest();
            try {
                encryption.readKey(m.meta(), sse, false); // an SSE-C object's attributes need its key, as its data does
            } catch (S3Exception e) {
                call.fail(e);
                return;
            }
            if (status[0] != ObjectVersions.Status.OFF) {
                call.ex.header("x-amz-version-id", shown[0] != null ? shown[0] : ObjectVersions.id(false, m.meta(), m.version().id()));
            }
            call.ex.header("Last-Modified", HTTP_DATE.format(Instant.ofEpochMilli(m.createdMillis())));
            CompletableFuture<PartChecksums.Parts> sums = wanted.contains("objectparts")
                    ? partChecksums.read(m.meta()) : CompletableFuture.completedFuture(null);
            sums.whenComplete((p, t2) -> call.later(() -> {
                if (t2 != null) {
                    call.fail(NodeStore.cause(t2));
                    return;
                }
                call.xml(200, S3ObjectXml.attributes(wanted, m.meta().get(S3Objects.META_ETAG), S3Encryption.plainSize(m.meta(), m.size()),
                        Checksums.Stored.of(m.meta()), ObjectParts.count(m.meta().get(S3Objects.META_ETAG)),
                        ObjectParts.partSize(m.meta()), marker, maxParts, p));
            }));
        }));
    }

    private static int headerInt(S3Call call, String name, int dflt) throws S3Exception {
        String v = call.headers().get(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, name + " must be a non-negative integer, was '" + v + "'");
    }

}
