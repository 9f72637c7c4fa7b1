package geoblocks.node.s3;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Parses a request into its {@link S3Operation} (pure), once, from its method, whether its path names a bucket
 * and a key, the names of its query parameters (the subresources) and two headers' presence. A request that is
 * no operation served here parses into the error it is answered with (after its signature and permission are
 * checked, as every request): MethodNotAllowed for a method its resource does not take, NotImplemented for a
 * subresource not served (or a POST without the parameter that names its operation).
 *
 * <p>The order of the checks is the order of precedence: the subresources first, each on the level it lives at
 * (a bucket's {@code ?lifecycle}, an object's {@code ?retention}; {@code ?tagging} and {@code ?acl} on both),
 * then the refusal of unknown subresources (else a newer S3 call would be served as the call without its
 * subresource: a {@code DELETE ?metadataTable} as DeleteBucket, a {@code PUT KEY?renameObject} as PutObject),
 * then the basic calls of the service, a bucket and an object.
 */
final class S3Router {
    private S3Router() {}

    /** What a request is: its operation, or (operation null) the error it is answered with. */
    record Route(S3Operation operation, S3Error error, String message) {
        static Route of(S3Operation operation) {
            return new Route(operation, null, null);
        }

        static Route refused(S3Error error, String message) {
            return new Route(null, error, message);
        }

        boolean served() {
            return operation != null;
        }
    }

    /**
     * What the router reads of a request: its method, whether its path names a bucket and a key, its query
     * (parameter names and values), whether it has {@code x-amz-copy-source}, and whether it is a browser's form
     * upload (unsigned, with a multipart/form-data Content-Type).
     */
    record Request(String method, boolean bucket, boolean key, Map<String, List<String>> query, boolean copySource,
            boolean browserForm) {
        boolean has(String param) {
            return query.containsKey(param);
        }
    }

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

    /** The operation of {@code r}, or the error it is answered with. */
    static Route parse(Request r) {
        String m = r.method();
        if (m.equals("OPTIONS")) {
            return Route.of(S3Operation.PreflightCors);
        }
        if (r.browserForm() && m.equals("POST") && r.bucket() && !r.key() && r.query().isEmpty()) {
            return Route.of(S3Operation.PostObject);
        }
        if (r.bucket()) {
            Route sub = subresource(r);
            if (sub != null) {
                return sub;
            }
        }
        String unserved = notServed(m, new TreeSet<>(r.query().keySet()));
        if (unserved != null) { // a call this gateway does not serve, not the basic call without its subresource
            return Route.refused(S3Error.NOT_IMPLEMENTED, "the ?" + unserved + " subresource is not supported by this gateway on " + m);
        }
        if (!r.bucket()) {
            return m.equals("GET") || m.equals("HEAD") ? Route.of(S3Operation.ListBuckets)
                    : Route.refused(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on the service");
        }
        return r.key() ? object(r) : bucket(r);
    }

    /** The subresource calls of a bucket or an object; null when {@code r} is none. */
    private static Route subresource(Request r) {
        String m = r.method();
        boolean k = r.key();
        if (r.has("tagging")) {
            return k ? byMethod(m, "tagging", S3Operation.GetObjectTagging, S3Operation.PutObjectTagging, S3Operation.DeleteObjectTagging)
                    : byMethod(m, "tagging", S3Operation.GetBucketTagging, S3Operation.PutBucketTagging, S3Operation.DeleteBucketTagging);
        }
        if (m.equals("GET") && k && r.has("attributes")) {
            return Route.of(S3Operation.GetObjectAttributes);
        }
        if (m.equals("GET") && !k && r.has("uploads")) {
            return Route.of(S3Operation.ListMultipartUploads);
        }
        if ((m.equals("GET") || m.equals("HEAD")) && k && r.has("uploadId")) {
            return Route.of(S3Operation.ListParts);
        }
        if (!k && r.has("object-lock")) {
            return byMethod(m, "object-lock", S3Operation.GetObjectLockConfiguration, S3Operation.PutObjectLockConfiguration, null);
        }
        if (k && r.has("retention")) {
            return byMethod(m, "retention", S3Operation.GetObjectRetention, S3Operation.PutObjectRetention, null);
        }
        if (k && r.has("legal-hold")) {
            return byMethod(m, "legal-hold", S3Operation.GetObjectLegalHold, S3Operation.PutObjectLegalHold, null);
        }
        if (!k && r.has("ownershipControls")) {
            return byMethod(m, "ownershipControls", S3Operation.GetBucketOwnershipControls,
                    S3Operation.PutBucketOwnershipControls, S3Operation.DeleteBucketOwnershipControls);
        }
        if (r.has("acl")) {
            return k ? byMethod(m, "acl", S3Operation.GetObjectAcl, S3Operation.PutObjectAcl, null)
                    : byMethod(m, "acl", S3Operation.GetBucketAcl, S3Operation.PutBucketAcl, null);
        }
        if (k) {
            return null;
        }
        if (r.has("lifecycle")) {
            return byMethod(m, "lifecycle", S3Operation.GetBucketLifecycleConfiguration,
                    S3Operation.PutBucketLifecycleConfiguration, S3Operation.DeleteBucketLifecycle);
        }
        if (r.has("encryption")) {
            return byMethod(m, "encryption", S3Operation.GetBucketEncryption, S3Operation.PutBucketEncryption,
                    S3Operation.DeleteBucketEncryption);
        }
        if (r.has("cors")) {
            return byMethod(m, "cors", S3Operation.GetBucketCors, S3Operation.PutBucketCors, S3Operation.DeleteBucketCors);
        }
        if (r.has("publicAccessBlock")) {
            return byMethod(m, "publicAccessBlock", S3Operation.GetPublicAccessBlock, S3Operation.PutPublicAccessBlock,
                    S3Operation.DeletePublicAccessBlock);
        }
        if (r.has("policyStatus")) {
            return byMethod(m, "policyStatus", S3Operation.GetBucketPolicyStatus, null, null);
        }
        if (r.has("policy")) {
            return byMethod(m, "policy", S3Operation.GetBucketPolicy, S3Operation.PutBucketPolicy, S3Operation.DeleteBucketPolicy);
        }
        return null;
    }

    /** A subresource's GET, PUT or DELETE (null: that method is not taken); any other method is MethodNotAllowed. */
    private static Route byMethod(String m, String sub, S3Operation get, S3Operation put, S3Operation delete) {
        S3Operation op = switch (m) {
            case "GET" -> get;
            case "PUT" -> put;
            case "DELETE" -> delete;
            default -> null;
        };
        return op != null ? Route.of(op) : Route.refused(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on ?" + sub);
    }

    /** The basic calls of a bucket: versioning, its listings, location, create, delete and DeleteObjects. */
    private static Route bucket(Request r) {
        String m = r.method();
        if (r.has("versioning") || r.has("versions")) {
            if (r.has("versioning") && m.equals("PUT")) {
                return Route.of(S3Operation.PutBucketVersioning);
            } else if (r.has("versioning") && m.equals("GET")) {
                return Route.of(S3Operation.GetBucketVersioning);
            } else if (r.has("versions") && m.equals("GET")) {
                return Route.of(S3Operation.ListObjectVersions);
            }
            return Route.refused(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on ?" + (r.has("versioning") ? "versioning" : "versions"));
        }
        return switch (m) {
            case "PUT" -> Route.of(S3Operation.CreateBucket);
            case "HEAD" -> Route.of(S3Operation.HeadBucket);
            case "DELETE" -> Route.of(S3Operation.DeleteBucket);
            case "GET" -> r.has("location") ? Route.of(S3Operation.GetBucketLocation)
                    : "2".equals(first(r.query().get("list-type"))) ? Route.of(S3Operation.ListObjectsV2)
                    : Route.of(S3Operation.ListObjects);
            case "POST" -> r.has("delete") ? Route.of(S3Operation.DeleteObjects)
                    : Route.refused(S3Error.NOT_IMPLEMENTED, "POST on a bucket needs ?delete");
            default -> Route.refused(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on a bucket");
        };
    }

    /** The basic calls of an object: read, write, copy, delete, and the steps of a multipart upload. */
    private static Route object(Request r) {
        String m = r.method();
        boolean upload = r.has("uploadId");
        return switch (m) {
            case "PUT" -> Route.of(upload ? (r.copySource() ? S3Operation.UploadPartCopy : S3Operation.UploadPart)
                    : r.copySource() ? S3Operation.CopyObject : S3Operation.PutObject);
            case "GET" -> Route.of(S3Operation.GetObject);
            case "HEAD" -> Route.of(S3Operation.HeadObject);
            case "DELETE" -> Route.of(upload ? S3Operation.AbortMultipartUpload : S3Operation.DeleteObject);
            case "POST" -> r.has("uploads") ? Route.of(S3Operation.CreateMultipartUpload)
                    : upload ? Route.of(S3Operation.CompleteMultipartUpload)
                    : Route.refused(S3Error.NOT_IMPLEMENTED, "POST on an object needs ?uploads or ?uploadId");
            default -> Route.refused(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on an object");
        };
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * Null when a request with {@code method} and the query parameters {@code params} may go on to the basic calls,
     * else the parameter that makes it a call this gateway does not serve (501 NotImplemented); the first in
     * {@code params}' order.
     */
    static String notServed(String method, SortedSet<String> params) {
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
