package geoblocks.node.s3.multipart;

import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.xml.S3ListXml;
import geoblocks.node.s3.xml.S3ObjectXml;

/**
 * ListMultipartUploads and ListParts: the uploads in progress at this node (uploads live in the gateway where
 * they were created). Each upload's {@code Owner} is the bucket's owner (objects are the bucket owner's) and
 * its {@code Initiator} the key that created it.
 */
public final class S3UploadListings {
    private final MultipartUploads uploads;
    private final S3Buckets buckets;

    public S3UploadListings(MultipartUploads uploads, S3Buckets buckets) {
        this.uploads = uploads;
        this.buckets = buckets;
    }

    /** The key that created {@code u} as listings show it (the bucket owner for an upload of before keys). */
    private S3ListXml.Owner initiator(MultipartUploads.Upload u, S3ListXml.Owner owner) {
        return u.initiator() == null ? owner : buckets.shown(u.initiator());
    }

    static int intParam(S3Call call, String name, int dflt, int max) throws S3Exception {
        String v = call.param(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return Math.min(n, max);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, name + " must be a non-negative integer, was '" + v + "'");
    }

    /**
     * ListMultipartUploads ({@code GET /BUCKET?uploads}): the uploads in progress at this node (uploads
     * live in the gateway where they were created), with prefix, delimiter, markers and max-uploads.
     */
    public void listUploads(S3Call call) {
        int max;
        try {
            max = intParam(call, "max-uploads", 1000, 1000);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        boolean url = "url".equals(call.param("encoding-type"));
        buckets.find(call.bucket).whenComplete((b, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            UploadListing.Page page = UploadListing.uploads(uploads.snapshot().values(), call.bucket, call.param("prefix"),
                    call.param("delimiter"), call.param("key-marker"), call.param("upload-id-marker"), max);
            S3ListXml.Owner owner = buckets.ownerOf(b);
            call.xml(200, S3ObjectXml.listUploads(call.bucket, owner, u -> initiator(u, owner), call.param("prefix"),
                    call.param("delimiter"), call.param("key-marker"), call.param("upload-id-marker"), max, url, page));
        }));
    }

    /** ListParts ({@code GET /BUCKET/KEY?uploadId=ID}), with part-number-marker and max-parts. */
    public void listParts(S3Call call) {
        MultipartUploads.Upload u;
        int marker;
        int max;
        try {
            u = uploads.find(call.param("uploadId"), call.bucket, call.key);
            marker = intParam(call, "part-number-marker", 0, MultipartUploads.MAX_PARTS);
            max = intParam(call, "max-parts", 1000, 1000);
        } catch (S3Exception e) {
            call.fail(e);
            return;
        }
        buckets.find(call.bucket).whenComplete((b, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
                return;
            }
            S3ListXml.Owner owner = buckets.ownerOf(b);
            call.xml(200, S3ObjectXml.listParts(u, owner, initiator(u, owner), marker, max,
                    UploadListing.parts(uploads.partsOf(u), marker, max)));
        }));
    }
}
