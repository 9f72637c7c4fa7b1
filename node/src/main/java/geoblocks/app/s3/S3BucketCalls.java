package geoblocks.app.s3;

/**
 * Routes the bucket-settings calls, before the gateway's own dispatch: lifecycle, default encryption,
 * CORS, PublicAccessBlock, policy and policy status.
 */
final class S3BucketCalls {
    private final S3Lifecycle lifecycle;
    private final S3Encryption encryption;
    private final S3Cors cors;
    private final S3Acls acls;
    private final S3Policies policies;

    S3BucketCalls(S3Lifecycle lifecycle, S3Encryption encryption, S3Cors cors, S3Acls acls, S3Policies policies) {
        this.lifecycle = lifecycle;
        this.encryption = encryption;
        this.cors = cors;
        this.acls = acls;
        this.policies = policies;
    }

    /** Whether {@code call} is one of these calls (then it is being answered). */
    boolean dispatch(S3Call call) {
        if (call.bucket == null || call.key != null) {
            return false;
        }
        String m = call.method();
        if (call.has("lifecycle")) {
            switch (m) {
                case "GET" -> lifecycle.get(call);
                case "PUT" -> lifecycle.put(call);
                case "DELETE" -> lifecycle.delete(call);
                default -> call.fail(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on ?lifecycle");
            }
        } else if (call.has("encryption")) {
            switch (m) {
                case "GET" -> encryption.getBucket(call);
                case "PUT" -> encryption.putBucket(call);
                case "DELETE" -> encryption.deleteBucket(call);
                default -> call.fail(S3Error.METHOD_NOT_ALLOWED, m + " is not allowed on ?encryption");
            }
        } else if (call.has("cors")) {
            cors.call(call);
        } else if (call.has("publicAccessBlock")) {
            acls.publicAccessBlock(call);
        } else if (call.has("policyStatus")) {
            policies.status(call);
        } else if (call.has("policy")) {
            policies.call(call);
        } else {
            return false;
        }
        return true;
    }
}
