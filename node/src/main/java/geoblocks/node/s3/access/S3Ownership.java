package geoblocks.node.s3.access;

import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.body.SmallBody;

/**
 * Put/Get/DeleteBucketOwnershipControls ({@code ?ownershipControls} on a bucket, owner only): the
 * setting is a line of the bucket's record ({@link BucketAccess}); what it decides is {@link ObjectOwnership}.
 */
public final class S3Ownership {
    private final S3Buckets buckets;

    public S3Ownership(S3Buckets buckets) {
        this.buckets = buckets;
    }

    /** Get, Put or DeleteBucketOwnershipControls. */
    public void call(S3Call call) {
        switch (call.method()) {
            case "GET" -> buckets.find(call.bucket).whenComplete((b, t) -> call.later(() -> {
                if (t != null) {
                    call.fail(t);
                } else if (b.access().ownership() == null) {
                    call.fail(S3Error.OWNERSHIP_CONTROLS_NOT_FOUND, "bucket '" + call.bucket + "' has no ownership controls");
                } else {
                    call.xml(200, b.access().ownership().toXml());
                }
            }));
            case "DELETE" -> set(call, null, 204);
            case "PUT" -> {
                call.ex.onBody(new SmallBody(call, body -> {
                    try {
                        set(call, ObjectOwnership.fromXml(body), 200);
                    } catch (S3Exception e) {
                        call.fail(e);
                    }
                }));
                call.ex.sendContinue();
            }
            default -> throw new IllegalStateException("not an ownership controls call: " + call.method());
        }
    }

    private void set(S3Call call, ObjectOwnership o, int status) {
        buckets.find(call.bucket).thenCompose(b -> {
            if (!ObjectOwnership.allowedWith(o, b.access().acl())) {
                throw new java.util.concurrent.CompletionException(new S3Exception(S3Error.INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP,
                        "the bucket's ACL grants access: set it private before BucketOwnerEnforced"));
            }
            return buckets.update(b.withAccess(b.access().withOwnership(o)));
        }).whenComplete((m, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else {
                call.empty(status);
            }
        }));
    }
}
