package geoblocks.app.s3;

import java.util.Set;

/**
 * Which permission an S3 request needs, and on what (pure; the decision is {@link S3Access#allowed}):
 * <ul>
 *   <li>NONE: ListBuckets (it shows the caller's buckets), CreateBucket (anyone with a key);</li>
 *   <li>BUCKET READ: ListObjects (v1, v2), ListObjectVersions, HeadBucket, ListMultipartUploads;</li>
 *   <li>BUCKET WRITE: PutObject, CopyObject (the destination), DeleteObject(s), multipart uploads;</li>
 *   <li>BUCKET READ_ACP / WRITE_ACP: Get/PutBucketAcl;</li>
 *   <li>OBJECT READ: GetObject, HeadObject (the object's ACL); OBJECT READ_ACP / WRITE_ACP: Get/PutObjectAcl;</li>
 *   <li>OWNER: everything else on a bucket (DeleteBucket, versioning, location, PublicAccessBlock,
 *       policy, and any other subresource).</li>
 * </ul>
 */
public final class S3Authorization {
    private S3Authorization() {}

    public enum Kind { NONE, BUCKET, OBJECT, OWNER }

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
        return new Need(Kind.BUCKET, S3Access.Perm.WRITE);
    }
}
