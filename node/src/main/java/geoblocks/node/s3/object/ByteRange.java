package geoblocks.node.s3.object;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A single byte range of an object (RFC 9110 section 14.1.2), from a {@code Range} header:
 * {@code bytes=A-B}, {@code bytes=A-} or {@code bytes=-N} (the last N bytes), clipped to the size.
 * An absent, malformed or multi-range header means the whole object (as S3 does); a range that
 * starts at or past the end is unsatisfiable (416).
 */
public record ByteRange(long first, long last, boolean partial) {
    private static final Pattern COPY_RANGE = Pattern.compile("bytes=(\\d{1,18})-(\\d{1,18})");

    /** The range {@code header} asks of an object of {@code size} bytes. */
    public static ByteRange parse(String header, long size) throws S3Exception {
        ByteRange whole = new ByteRange(0, size - 1, false);
        if (header == null) {
            return whole;
        }
        String h = header.trim();
        if (!h.startsWith("bytes=") || h.indexOf(',') >= 0) {
            return whole;
        }
        String spec = h.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return whole;
        }
        try {
            String a = spec.substring(0, dash).trim();
            String b = spec.substring(dash + 1).trim();
            if (a.isEmpty()) {
                long n = Long.parseLong(b);
                if (n <= 0 || size == 0) {
                    throw unsatisfiable(header, size);
                }
                return new ByteRange(Math.max(0, size - n), size - 1, true);
            }
            long first = Long.parseLong(a);
            long last = b.isEmpty() ? Long.MAX_VALUE : Long.parseLong(b);
            if (first < 0 || last < first) {
                return whole;
            }
            if (first >= size) {
                throw unsatisfiable(header, size);
            }
            return new ByteRange(first, Math.min(last, size - 1), true);
        } catch (NumberFormatException e) {
            return whole;
        }
    }

    /**
     * The range of an {@code x-amz-copy-source-range} (UploadPartCopy), which S3 reads strictly: null header is the
     * whole object; anything but {@code bytes=A-B} with {@code 0 <= A <= B} is InvalidArgument, and a range past
     * the end of an object of {@code size} bytes is InvalidRange.
     */
    public static ByteRange copySource(String header, long size) throws S3Exception {
        if (header == null) {
            return new ByteRange(0, size - 1, false);
        }
        Matcher m = COPY_RANGE.matcher(header.trim());
        if (!m.matches() || Long.parseLong(m.group(1)) > Long.parseLong(m.group(2))) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-copy-source-range must be bytes=FIRST-LAST with FIRST <= LAST,"
                    + " was '" + header + "'");
        }
        long first = Long.parseLong(m.group(1));
        long last = Long.parseLong(m.group(2));
        if (last >= size) {
            throw new S3Exception(S3Error.INVALID_RANGE, "x-amz-copy-source-range '" + header + "' reaches past the end of"
                    + " the source object of " + size + " bytes");
        }
        return new ByteRange(first, last, true);
    }

    private static S3Exception unsatisfiable(String header, long size) {
        return new S3Exception(S3Error.INVALID_RANGE, "range '" + header + "' is not satisfiable for an object of " + size + " bytes");
    }

    /** The range as the node's download takes it: only the blocks that cover it are read. */
    public ClientPort.Range blocks() {
        return new ClientPort.Range(first, last);
    }

    public long length() {
        return last - first + 1;
    }

    /** The {@code Content-Range} value of a partial answer. */
    public String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }
}
