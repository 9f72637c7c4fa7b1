package geoblocks.node.s3.access;

import java.util.Set;

/**
 * Which permission an S3 request needs, and on what (pure; the decision is {@link S3Access#allowed}):
 * <ul>
 *   <li>NONE: ListBuckets (it shows the caller's buckets), CreateBucket (anyone with a key);</li>
 *   <li>BUCKET READ: ListObjects (v1, v2), ListObjectVersions, HeadBucket, ListMultipartUploads;</li>
 *   <li>BUCKET WRITE: PutObject, CopyObject (the destination), DeleteObject(s), multipart uploads;</li>
 *   <li>BUCKET READ_ACP / WRITE_ACP: Get/PutBucketAcl;</li>
 *   <li>OBJECT READ: GetObject, HeadObject (the object's ACL); OBJECT READ_ACP / WRITE_ACP: Get/PutObjectAcl;</li>
 *   <li>POLICY: changes of an object's retention, legal hold or tags (PUT or DELETE of {@code ?retention},
 *       {@code ?legal-hold}, {@code ?tagging}): the bucket's owner, or a bucket-policy Allow of the action
 *       ({@code s3:PutObjectRetention}, ...); no ACL grants them, as none does in S3 (a WRITE grantee could
 *       otherwise lock the owner's objects or rewrite the tags its lifecycle and policies match);</li>
 *   <li>OWNER: everything else on a bucket (DeleteBucket, versioning, location, PublicAccessBlock,
 *       policy, and any other subresource).</li>
 * </ul>
 */
public final class S3Authorization {
    private S3Authorization() {}

    public enum Kind { NONE, BUCKET, OBJECT, OWNER, POLICY }

    /** Object subresources whose changes need the owner or a policy's Allow ({@link Kind#POLICY}). */
    private static final Set<String> GUARDED = Set.of("retention", "legal-hold", "tagging");

    public record Need(Kind kind, S3Access.Perm perm) {}

    private static final Need NONE = new Need(Kind.NONE, null);
    private static final Set<String> LIST_PARAMS = Set.of("list-type", "prefix", "delimiter", "max-keys", "marker",
            "start-after", "continuation-token", "encoding-type", "fetch-owner", "versions", "key-marker",
            "version-id-marker", "uploads", "upload-id-marker", "x-id", "allow-unordered", "optional-object-attributes");

    public static Need need(String method, String bucket, String key, Set<String> query, boolean copy) {
        if (bucket == null) {
            return NONE;
        }
        boolean acl = query.contains("acl");
        if (key == null) {
            if (acl) {
                return new Need(Kind.BUCKET, method.equals("GET") ? S3Access.Perm.READ_ACP : S3Access.Perm.WRITE_ACP);
            }
            boolean plain = LIST_PARAMS.containsAll(query);
            return switch (method) {
                case "PUT" -> query.isEmpty() ? NONE : new Need(Kind.OWNER, S3Access.Perm.FULL_CONTROL);
                case "GET", "HEAD" -> plain ? new Need(Kind.BUCKET, S3Access.Perm.READ)
                        : new Need(Kind.OWNER, S3Access.Perm.FULL_CONTROL);
                case "POST" -> query.contains("delete") ? new Need(Kind.BUCKET, S3Access.Perm.WRITE)
                        : new Need(Kind.OWNER, S3Access.Perm.FULL_CONTROL);
                default -> new Need(Kind.OWNER, S3Access.Perm.FULL_CONTROL);
            };
        }
        if (acl) {
            return new Need(Kind.OBJECT, method.equals("GET") ? S3Access.Perm.READ_ACP : S3Access.Perm.WRITE_ACP);
        }
        if ((method.equals("GET") || method.equals("HEAD")) && !query.contains("uploadId")) {
            return new Need(Kind.OBJECT, S3Access.Perm.READ);
        }
        if ((method.equals("PUT") || method.equals("DELETE")) && query.stream().anyMatch(GUARDED::contains)) {
            return new Need(Kind.POLICY, S3Access.Perm.FULL_CONTROL);
        }
        return new Need(Kind.BUCKET, S3Access.Perm.WRITE);
    }

    /** Bucket subresources and their policy actions' stems (Get..., Put...; DELETE is Put... unless listed in DELETES). */
    private static final String[][] BUCKET_SUBS = {
        {"policy", "BucketPolicy"}, {"policyStatus", "BucketPolicyStatus"}, {"acl", "BucketAcl"},
        {"versioning", "BucketVersioning"}, {"publicAccessBlock", "BucketPublicAccessBlock"}, {"cors", "BucketCORS"},
        {"lifecycle", "LifecycleConfiguration"}, {"tagging", "BucketTagging"}, {"encryption", "EncryptionConfiguration"},
        {"object-lock", "BucketObjectLockConfiguration"}, {"location", "BucketLocation"},
        {"ownershipControls", "BucketOwnershipControls"}, {"logging", "BucketLogging"}, {"website", "BucketWebsite"},
        {"notification", "BucketNotification"}, {"replication", "ReplicationConfiguration"},
    };
    private static final String[][] OBJECT_SUBS = {
        {"acl", "ObjectAcl"}, {"tagging", "ObjectTagging"}, {"retention", "ObjectRetention"},
        {"legal-hold", "ObjectLegalHold"}, {"attributes", "ObjectAttributes"},
    };

    /**
     * The policy action of a request ({@code s3:GetObject}, {@code s3:ListBucket}, ...), as AWS names it for
     * bucket policies; null for calls on no bucket (ListBuckets). A DELETE of a bucket subresource is its
     * {@code Put} action except DeleteBucketPolicy; of an object with {@code versionId}, {@code s3:DeleteObjectVersion}.
     */
    public static String action(String method, String key, Set<String> query) {
        boolean version = query.contains("versionId");
        String[][] subs = key == null ? BUCKET_SUBS : OBJECT_SUBS;
        for (String[] sub : subs) {
            if (query.contains(sub[0])) {
                String stem = sub[1] + (version && key != null ? "Version" : "");
                return switch (method) {
                    case "GET", "HEAD" -> "s3:Get" + stem;
                    case "DELETE" -> sub[0].equals("policy") || sub[0].equals("tagging") ? "s3:Delete" + stem
                            : "s3:Put" + stem;
                    default -> "s3:Put" + stem;
                };
            }
        }
        if (key == null) {
            return switch (method) {
                case "GET", "HEAD" -> query.contains("versions") ? "s3:ListBucketVersions"
                        : query.contains("uploads") ? "s3:ListBucketMultipartUploads" : "s3:ListBucket";
                case "DELETE" -> "s3:DeleteBucket";
                case "POST" -> "s3:DeleteObject"; // DeleteObjects: every key named
                default -> "s3:CreateBucket";
            };
        }
        boolean upload = query.contains("uploadId");
        return switch (method) {
            case "GET", "HEAD" -> upload ? "s3:ListMultipartUploadParts" : version ? "s3:GetObjectVersion" : "s3:GetObject";
            case "DELETE" -> upload ? "s3:AbortMultipartUpload" : version ? "s3:DeleteObjectVersion" : "s3:DeleteObject";
            default -> "s3:PutObject"; // PUT (also copies and parts), POST ?uploads and ?uploadId
        };
    }
}
