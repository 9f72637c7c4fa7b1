package geoblocks.node.s3.object;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.util.Locale;
import java.util.Map;

/**
 * Which additional checksum an upload (PutObject, UploadPart) asks for, decided from its headers: a
 * value in {@code x-amz-checksum-ALG}, or the name of a trailer that will carry it
 * ({@code x-amz-trailer: x-amz-checksum-ALG}, aws-chunked bodies), or only the algorithm
 * ({@code x-amz-sdk-checksum-algorithm}, or the multipart upload's), in which case the gateway
 * computes and keeps it without a value to compare. Then {@link #verify} compares the value sent
 * with the one computed: {@code BadDigest} when they differ. Pure.
 */
public record ChecksumRequest(Checksums.Algorithm algorithm, String value, String trailer) {
    /** No checksum asked for. */
    public static final ChecksumRequest NONE = new ChecksumRequest(null, null, null);

    public boolean none() {
        return algorithm == null;
    }

    /**
     * From the request's headers ({@code headers}: lower-case names), whether its body is aws-chunked
     * with trailers, and the algorithm of the multipart upload a part belongs to (null otherwise).
     */
    public static ChecksumRequest of(Map<String, String> headers, boolean trailers, Checksums.Algorithm upload)
            throws S3Exception {
        Checksums.Algorithm algorithm = null;
        String value = null;
        for (Map.Entry<String, String> h : headers.entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (!name.startsWith("x-amz-checksum-") || name.equals("x-amz-checksum-mode")
                    || name.equals("x-amz-checksum-type") || name.equals("x-amz-checksum-algorithm")) {
                continue;
            }
            Checksums.Algorithm a = Checksums.Algorithm.ofHeader(name);
            if (a == null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "unknown checksum header " + name + " (crc32, crc32c,"
                        + " crc64nvme, sha1 and sha256 are known)");
            }
            if (algorithm != null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "Expecting a single x-amz-checksum- header;"
                        + " multiple checksum types are not allowed");
            }
            algorithm = a;
            value = h.getValue();
        }
        String trailer = null;
        String t = headers.get("x-amz-trailer");
        if (t != null && !t.isBlank()) {
            Checksums.Algorithm a = Checksums.Algorithm.ofHeader(t.trim());
            if (a == null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-trailer '" + t + "' names no checksum this gateway knows");
            }
            if (!trailers) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-trailer needs an aws-chunked body with trailers"
                        + " (x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER or STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER)");
            }
            if (algorithm != null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "Expecting a single x-amz-checksum- header;"
                        + " a checksum header and a checksum trailer were sent");
            }
            algorithm = a;
            trailer = a.header();
        }
        String sdk = headers.get("x-amz-sdk-checksum-algorithm");
        if (sdk != null) {
            Checksums.Algorithm a = Checksums.Algorithm.parse(sdk);
            if (a == null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-sdk-checksum-algorithm '" + sdk + "' is not one of"
                        + " CRC32, CRC32C, CRC64NVME, SHA1, SHA256");
            }
            if (algorithm != null && a != algorithm) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-sdk-checksum-algorithm " + sdk
                        + " is not the algorithm of the checksum sent (" + algorithm.upper() + ")");
            }
            algorithm = a;
        }
        if (upload != null) {
            if (algorithm != null && algorithm != upload) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "Checksum Type mismatch: the upload was created with "
                        + upload.upper() + ", the part sends " + algorithm.upper());
            }
            algorithm = upload;
        }
        return algorithm == null ? NONE : new ChecksumRequest(algorithm, value, trailer);
    }

    /**
     * Checks the value sent (header, or trailer from {@code received}) against {@code actual}, the
     * checksum computed over the body; returns it in base64 (null when none was asked for).
     */
    public String verify(byte[] actual, Map<String, String> received) throws S3Exception {
        if (algorithm == null) {
            return null;
        }
        String sent = value;
        if (trailer != null) {
            sent = received == null ? null : received.get(trailer);
            if (sent == null) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "the trailer " + trailer + " announced by x-amz-trailer"
                        + " did not come");
            }
        }
        if (sent != null && !Checksums.matches(algorithm, sent, actual)) {
            throw new S3Exception(S3Error.BAD_DIGEST, "The " + algorithm.header() + " you specified (" + sent
                    + ") did not match the calculated checksum (" + Checksums.base64(actual) + ")");
        }
        return Checksums.base64(actual);
    }
}
