package geoblocks.node.s3.access;

import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.bucket.BucketDocument;
import java.util.concurrent.CompletableFuture;

/**
 * Put/Get/DeleteBucketOwnershipControls ({@code ?ownershipControls} on a bucket, owner only): the
 * setting is a line of the bucket's record ({@link BucketAccess}); what it decides is {@link ObjectOwnership}.
 */
public final class S3Ownership {
    private final S3Buckets buckets;

    public S3Ownership(S3Buckets buckets) {
        this.buckets = buckets;
    }

    /** Get, Put or DeleteBucketOwnershipControls; BucketOwnerEnforced is refused while the bucket's ACL grants access. */
    public BucketDocument<ObjectOwnership> document() {
        return new BucketDocument<>("ownership controls", S3Error.OWNERSHIP_CONTROLS_NOT_FOUND,
                (body, bucket) -> ObjectOwnership.fromXml(body),
                (b, o) -> ObjectOwnership.allowedWith(o, b.access().acl()) ? null : new S3Exception(
                        S3Error.INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP, "the bucket's ACL grants access: set it private before BucketOwnerEnforced"),
                ObjectOwnership::toXml, BucketDocument.XML, BucketDocument.Storage.of(
                        b -> CompletableFuture.completedFuture(b.access().ownership()),
                        (b, o, body) -> buckets.update(b.withAccess(b.access().withOwnership(o)))), 200);
    }
}
