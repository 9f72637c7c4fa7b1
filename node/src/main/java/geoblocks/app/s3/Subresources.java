package geoblocks.app.s3;

import java.util.Locale;
import java.util.Set;

/**
 * Which query parameters the gateway's basic calls accept (pure). The calls with subresources it serves
 * (tagging, ACLs, lifecycle, ...) are routed before; what reaches the basic calls must not carry a
 * subresource the gateway does not know, or a newer S3 call would be served as the call without it (a
 * {@code DELETE ?metadataTable} as DeleteBucket, a {@code PUT KEY?renameObject} as PutObject).
 */
final class Subresources {
    private Subresources() {}

    /** Subresources of calls not served, answered 501 NotImplemented whatever the method. */
    static final Set<String> UNSUPPORTED = Set.of("website", "logging", "notification", "replication", "torrent",
            "restore", "select", "accelerate", "analytics", "inventory", "metrics", "requestPayment",
            "intelligent-tiering", "session", "abac", "metadataTable", "metadataConfiguration", "metadataInventoryTable",
            "metadataJournalTable", "metadataAnnotationTable", "annotation", "renameObject", "encryption");

    /**
     * What the basic writing calls (PutObject, CopyObject, UploadPart, CreateMultipartUpload,
     * CompleteMultipartUpload, AbortMultipartUpload, DeleteObject(s), CreateBucket, DeleteBucket, PutBucketVersioning) may carry:
     * their own parameters, botocore's {@code x-id}, and a presigned URL's signature parameters
     * ({@code X-Amz-*}, hoisted {@code x-amz-*} headers, Signature V2's three).
     */
    private static final Set<String> WRITE_PARAMS = Set.of("uploadId", "partNumber", "versionId", "uploads", "delete", "versioning",
            "x-id", "AWSAccessKeyId", "Signature", "Expires");

    /**
     * Null when a request with {@code method} and the query parameters {@code params} may go on to the basic calls,
     * else the parameter that makes it a call this gateway does not serve (501 NotImplemented).
     */
    static String notServed(String method, Set<String> params) {
        boolean write = method.equals("PUT") || method.equals("DELETE") || method.equals("POST");
        for (String p : params) {
            if (UNSUPPORTED.contains(p)) {
                return p;
            }
            if (write && !WRITE_PARAMS.contains(p) && !p.toLowerCase(Locale.ROOT).startsWith("x-amz-")) {
                return p;
            }
        }
        return null;
    }
}
