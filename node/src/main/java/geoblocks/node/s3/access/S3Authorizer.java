package geoblocks.node.s3.access;

import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.object.S3Copy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Permissions glue: who the request is ({@link S3Call#requester}), what it needs ({@link S3Authorization}),
 * and the decision, in this order:
 * <ol>
 *   <li>the bucket's policy ({@link S3Policies}): a Deny refuses, whoever asks (the owner keeps
 *       Get/Put/DeleteBucketPolicy, so a policy cannot lock its bucket for good); an Allow grants the calls
 *       ACLs can grant (reads, writes, lists, tagging, object ACLs), never the owner-only ones;</li>
 *   <li>the bucket's owner may do anything else;</li>
 *   <li>others need the ACL's grant ({@link S3Access#allowed}): the bucket's, or for object reads the object's.</li>
 * </ol>
 * A copy (CopyObject, UploadPartCopy) also needs the right to read its source, decided the same way on the
 * source's bucket. A read of a missing object answers 404 to whoever may list the bucket at that key (the ACL's
 * READ, or the policy's {@code s3:ListBucket} with {@code s3:prefix} set to the key), else 403, as S3.
 */
public final class S3Authorizer {
    private final S3Buckets buckets;
    private final S3Acls acls;
    private final S3Policies policies;

    public S3Authorizer(S3Buckets buckets, S3Acls acls, S3Policies policies) {
        this.buckets = buckets;
        this.acls = acls;
        this.policies = policies;
    }

    /** The ARN bucket policies name a bucket ({@code key} null) or an object by. */
    public static String arn(String bucket, String key) {
        return "arn:aws:s3:::" + bucket + (key == null ? "" : "/" + key);
    }

    /**
     * Checks {@code call} against what it needs; completes normally when allowed, else with the S3
     * error (AccessDenied, NoSuchBucket, ...). Runs the node lookups it needs (the bucket's record and policy,
     * cached; for an object read by someone other than the bucket owner, the object's version and ACL).
     */
    public CompletableFuture<Void> authorize(S3Call call) {
        S3Authorization.Need need = S3Authorization.need(call.method(), call.bucket, call.key, call.query.keySet(),
                call.headers().contains("x-amz-copy-source"));
        if (need.kind() == S3Authorization.Kind.NONE) {
            return CompletableFuture.completedFuture(null);
        }
        String action = S3Authorization.action(call.method(), call.key, call.query.keySet());
        return buckets.find(call.bucket).thenCompose(b -> {
            String owner = acls.owner(b);
            boolean objectWrite = call.key != null && ((call.method().equals("PUT") && !call.has("acl") && !call.has("uploadId"))
                    || (call.method().equals("POST") && call.has("uploads")));
            S3Exception disabled = objectWrite ? ObjectOwnership.aclRefusal(b.access().ownership(), call.headers()::get, true, false) : null;
            if (disabled != null) { // BucketOwnerEnforced: ACLs are disabled (refused before the body)
                throw new CompletionException(disabled);
            }
            if (call.key != null && call.method().equals("PUT") && !call.has("acl") && !call.has("uploadId")) {
                try { // a PutObject whose ACL the bucket's BlockPublicAcls refuses: before the body is stored
                    S3Access.Acl wanted = S3Acls.requested(call);
                    S3Exception refused = wanted == null ? null : S3Access.refusal(wanted, b.access().block());
                    if (refused != null) {
                        throw new CompletionException(refused);
                    }
                } catch (S3Exception e) {
                    throw new CompletionException(e);
                }
            }
            boolean isOwner = call.requester != null && call.requester.equals(owner);
            boolean everyKey = call.key == null && call.method().equals("POST"); // DeleteObjects
            String resource = everyKey ? arn(call.bucket, "*") : arn(call.bucket, call.key);
            return policies.decide(call, b, owner, action, resource, call.key, everyKey, Map.of()).thenCompose(d -> {
                boolean policyCall = call.key == null && call.has("policy");
                if (d == BucketPolicy.Decision.DENY && !(isOwner && policyCall)) {
                    throw denied("the bucket's policy denies " + action + " to "
                            + (call.requester == null ? "anonymous requests" : "key " + call.requester));
                }
                boolean granted = isOwner || (d == BucketPolicy.Decision.ALLOW && need.kind() != S3Authorization.Kind.OWNER);
                CompletableFuture<Void> target = granted ? CompletableFuture.completedFuture(null) : byAcl(call, b, owner, need);
                CompletableFuture<Void> lock = objectWrite && !isOwner ? lockHeaders(call, b, owner)
                        : CompletableFuture.completedFuture(null);
                return target.thenCompose(x -> lock).thenCompose(x -> copySource(call));
            });
        });
    }

    /**
     * An object write by someone other than the bucket's owner that sets a retention or a legal hold: each needs
     * a bucket-policy Allow of its action ({@code s3:PutObjectRetention}, {@code s3:PutObjectLegalHold}), as the
     * subresource calls do; a WRITE grant alone would let its grantee lock the owner's bucket.
     */
    private CompletableFuture<Void> lockHeaders(S3Call call, BucketMeta b, String owner) {
        List<String> actions = new ArrayList<>(2);
        if (call.headers().contains("x-amz-object-lock-mode") || call.headers().contains("x-amz-object-lock-retain-until-date")) {
            actions.add("s3:PutObjectRetention");
        }
        if (call.headers().contains("x-amz-object-lock-legal-hold")) {
            actions.add("s3:PutObjectLegalHold");
        }
        CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
        for (String action : actions) {
            all = all.thenCompose(x -> policies.decide(call, b, owner, action, arn(call.bucket, call.key), call.key, false,
                    Map.of()).thenApply(d -> {
                        if (d != BucketPolicy.Decision.ALLOW) {
                            throw denied("only the bucket's owner, or a bucket policy that allows " + action + ", may set"
                                    + " an object's " + (action.endsWith("Retention") ? "retention" : "legal hold"));
                        }
                        return null;
                    }));
        }
        return all;
    }

    /** The ACLs' decision for a request that is not the owner's and that the policy did not allow. */
    private CompletableFuture<Void> byAcl(S3Call call, BucketMeta b, String owner, S3Authorization.Need need) {
        BucketAccess a = b.access();
        switch (need.kind()) {
            case OWNER -> throw denied("only the bucket's owner may do this");
            case POLICY -> throw denied("only the bucket's owner, or a bucket policy that allows "
                    + S3Authorization.action(call.method(), call.key, call.query.keySet()) + ", may do this");
            case BUCKET -> {
                if (!S3Access.allowed(call.requester, owner, a.acl(), need.perm(), a.block())) {
                    throw denied("the bucket's ACL does not grant " + need.perm() + " to " + who(call));
                }
                return CompletableFuture.completedFuture(null);
            }
            default -> {
                return byObjectAcl(call, b, owner, call.key, need.perm(), "the object");
            }
        }
    }

    /**
     * The object ACL's decision on {@code perm} over {@code key} of bucket {@code b}; a missing object is 404 to
     * whoever may list the bucket at that key (the request goes on and finds it missing), else 403.
     */
    private CompletableFuture<Void> byObjectAcl(S3Call call, BucketMeta b, String owner, String key, S3Access.Perm perm,
            String what) {
        return acls.objectAcl(b.name(), key).thenCompose(acl -> {
            if (acl == null) {
                return mayList(call, b, owner, key).thenApply(list -> {
                    if (!list) {
                        throw denied("no access to " + what);
                    }
                    return null;
                });
            }
            if (!S3Access.allowed(call.requester, owner, acl, perm, b.access().block())) {
                throw denied(what + "'s ACL does not grant " + perm + " to " + who(call));
            }
            return CompletableFuture.completedFuture(null);
        });
    }

    /** Whether the requester may list bucket {@code b} at {@code key}: the ACL's READ, or the policy's ListBucket with that prefix. */
    private CompletableFuture<Boolean> mayList(S3Call call, BucketMeta b, String owner, String key) {
        if (S3Access.allowed(call.requester, owner, b.access().acl(), S3Access.Perm.READ, b.access().block())) {
            return CompletableFuture.completedFuture(true);
        }
        return policies.decide(call, b, owner, "s3:ListBucket", arn(b.name(), null), null, false, Map.of("s3:prefix", key))
                .thenApply(d -> d == BucketPolicy.Decision.ALLOW);
    }

    /** For a copy: whether the requester may read its source (the source bucket's policy, owner, object ACL). */
    private CompletableFuture<Void> copySource(S3Call call) {
        String header = call.headers().get("x-amz-copy-source");
        if (header == null || call.key == null || !call.method().equals("PUT")) {
            return CompletableFuture.completedFuture(null);
        }
        String[] src;
        try {
            src = S3Copy.copySource(header);
        } catch (S3Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        String action = header.contains("versionId=") ? "s3:GetObjectVersion" : "s3:GetObject";
        return buckets.find(src[0]).thenCompose(b -> {
            String owner = acls.owner(b);
            return policies.decide(call, b, owner, action, arn(src[0], src[1]), src[1], false, Map.of()).thenCompose(d -> {
                if (d == BucketPolicy.Decision.DENY) {
                    throw denied("the source bucket's policy denies " + action + " to " + who(call));
                }
                if (d == BucketPolicy.Decision.ALLOW || (call.requester != null && call.requester.equals(owner))) {
                    return CompletableFuture.completedFuture(null);
                }
                return byObjectAcl(call, b, owner, src[1], S3Access.Perm.READ, "the copy source");
            });
        });
    }

    private static String who(S3Call call) {
        return call.requester == null ? "anonymous requests" : "key " + call.requester;
    }

    private static CompletionException denied(String why) {
        return new CompletionException(new S3Exception(S3Error.ACCESS_DENIED, "Access Denied: " + why));
    }
}
