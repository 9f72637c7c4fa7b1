package geoblocks.node.s3.multipart;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.util.Map;

/**
 * The parts of a stored object, as far as its metadata tells them: the part count is in a multipart
 * ETag ({@code …-N}), and the part size in {@link #META} when every part but the last had the same
 * size (what SDKs upload; the last may be smaller). From these, part N's byte range
 * (GetObject / HeadObject {@code partNumber}, GetObjectAttributes' ObjectParts). Pure.
 */
public final class ObjectParts {
    /** Metadata key: the size of every part but the last, when they were equal. */
    public static final String META = "ps";

    private ObjectParts() {}

    /** The number of parts of an object with ETag {@code etag}: N for {@code …-N}, 0 for a single-part object. */
    public static int count(String etag) {
        if (etag == null) {
            return 0;
        }
        int dash = etag.lastIndexOf('-');
        if (dash < 0) {
            return 0;
        }
        try {
            return Integer.parseInt(etag.substring(dash + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The part size kept in {@code meta}, or -1. */
    public static long partSize(Map<String, String> meta) {
        String v = meta.get(META);
        try {
            return v == null ? -1 : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The size to keep for parts of {@code sizes} (in order), or -1 when they were not equal but for the last. */
    public static long uniform(long[] sizes) {
        if (sizes.length == 0) {
            return -1;
        }
        long first = sizes[0];
        for (int i = 1; i < sizes.length; i++) {
            if ((i < sizes.length - 1 && sizes[i] != first) || (i == sizes.length - 1 && sizes[i] > first)) {
                return -1;
            }
        }
        return first;
    }

    /**
     * The inclusive byte range {first, last} of part {@code n} of an object of {@code size} bytes
     * with ETag {@code etag} and metadata {@code meta}; a single-part object is one part.
     * InvalidPart for a part it does not have, InvalidRequest when its part boundaries are unknown.
     */
    public static long[] range(int n, long size, String etag, Map<String, String> meta) throws S3Exception {
        int count = count(etag);
        if (n < 1 || n > Math.max(1, count)) {
            throw new S3Exception(S3Error.INVALID_PART, "the object has " + Math.max(1, count) + " part(s), not part " + n);
        }
        if (count == 0) {
            return new long[] {0, size - 1};
        }
        long ps = partSize(meta);
        if (ps <= 0) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "the part boundaries of this object are not known (its parts"
                    + " were of different sizes): read it by Range");
        }
        long first = (n - 1) * ps;
        long last = n == count ? size - 1 : Math.min(size, n * ps) - 1;
        return new long[] {first, last};
    }
}
