package geoblocks.node.s3.access;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.node.s3.BucketMeta;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Buckets;
import geoblocks.node.s3.S3Call;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.S3Names;
import geoblocks.node.s3.auth.AccessKeys;
import geoblocks.node.s3.auth.S3KeyStore;
import geoblocks.node.s3.body.SmallBody;
import geoblocks.node.s3.body.SmallRecord;
import geoblocks.node.s3.bucket.BucketDocument;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * ACL glue: objects' ACLs (read for {@link S3Authorizer}, stored after a PutObject), Get/PutBucketAcl,
 * Get/PutObjectAcl and Put/Get/DeletePublicAccessBlock.
 *
 * <p>An object's ACL is the small file {@code .s3-acls/BUCKET/SHA256(KEY)} naming the version it
 * applies to: a newer version of the object (a PUT without an ACL) is private again, as in S3.
 */
public final class S3Acls {
    static final String PREFIX = ".s3-acls/";
    static final int MAX_RECORD = 4096;
    private final NodeStore store;
    private final S3Buckets buckets;
    private final S3KeyStore keys;
    private final String rootKey;

    public S3Acls(NodeStore store, S3Buckets buckets, S3KeyStore keys, String rootKey) {
        this.store = store;
        this.buckets = buckets;
        this.keys = keys;
        this.rootKey = rootKey;
    }

    static String aclFile(String bucket, String key) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return PREFIX + bucket + "/" + HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public String owner(BucketMeta b) {
        return b.access().ownerOr(rootKey);
    }

    /** The ACL of the current version of {@code key}; null when the key has no live version. */
    CompletableFuture<S3Access.Acl> objectAcl(String bucket, String key) {
        CompletableFuture<String[]> record = readSmall(aclFile(bucket, key));
        return store.stat(S3Names.fileName(bucket, key)).handle((st, t) -> {
            if (t != null) {
                if (NodeStore.cause(t) instanceof NodeStore.StoreException s && s.notFound()) {
                    return null;
                }
                throw new CompletionException(NodeStore.cause(t));
            }
            return st.manifest().version().id();
        }).thenCombine(record, (version, rec) -> {
            if (version == null) {
                return null;
            }
            if (rec != null && version.equals(rec[0])) {
                return S3Access.Acl.decode(rec[1]);
            }
            return S3Access.Acl.PRIVATE;
        });
    }

    /** A side record's version and ACL, null when there is none. */
    private CompletableFuture<String[]> readSmall(String file) {
        SmallRecord sink = new SmallRecord(MAX_RECORD, "ACL record " + file);
        return store.get(file, "", sink).handle((m, t) -> {
            if (t != null) {
                return null;
            }
            String version = null;
            String acl = null;
            for (String line : new String(sink.bytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("version=")) {
                    version = line.substring(8);
                } else if (line.startsWith("acl=")) {
                    acl = line.substring(4);
                }
            }
            return version == null ? null : new String[] {version, acl};
        });
    }

    /** Stores {@code acl} as the ACL of version {@code version} of {@code key} (nothing when private and none was set). */
    CompletableFuture<Void> storeObjectAcl(String bucket, String key, String version, S3Access.Acl acl) {
        byte[] rec = ("version=" + version + "\nacl=" + acl.encode() + "\n").getBytes(StandardCharsets.UTF_8);
        return store.put(aclFile(bucket, key), null, ByteSource.of(rec), "tworandom", MAX_RECORD, "all", false,
                Map.of()).thenApply(w -> null);
    }

    /**
     * The ACL a PutObject (or CreateBucket) asks for with {@code x-amz-acl} or {@code x-amz-grant-*}
     * headers; null when it names none. Both at once is InvalidRequest, as in S3.
     */
    public static S3Access.Acl requested(S3Call call) throws S3Exception {
        String canned = call.headers().get("x-amz-acl");
        S3Access.Acl grants = S3Access.grantHeaders(n -> call.headers().get(n));
        if (canned != null && grants != null) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-acl and x-amz-grant-* headers cannot be used together");
        }
        return canned != null ? S3Access.canned(canned, null) : grants;
    }

    /**
     * After a PutObject stored {@code w}: stores the ACL its headers asked for (if any, and not private),
     * before the client is answered. Fails with AccessDenied when the bucket's BlockPublicAcls refuses it.
     */
    public CompletableFuture<Void> afterPut(S3Call call, BucketMeta bucket, ClientPort.Written w) {
        S3Access.Acl acl;
        try {
            acl = requested(call);
        } catch (S3Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        if (acl == null || acl.grants().isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        S3Exception refused = S3Access.refusal(acl, bucket.access().block());
        if (refused != null) {
            return CompletableFuture.failedFuture(refused);
        }
        return storeObjectAcl(call.bucket, call.key, w.version(), acl);
    }

    /** GetBucketAcl or GetObjectAcl (the permission was checked by {@link S3Authorizer#authorize}). */
    public void getAcl(S3Call call) {
        buckets.find(call.bucket).thenCompose(b -> {
            String owner = owner(b);
            CompletableFuture<S3Access.Acl> acl = call.key == null ? CompletableFuture.completedFuture(b.access().acl())
                    : objectAcl(call.bucket, call.key).thenApply(a -> {
                        if (a == null) {
                            throw new CompletionException(new S3Exception(S3Error.NO_SUCH_KEY, "no object '" + call.key + "'"));
                        }
                        return a;
                    });
            return acl.thenCompose(a -> names(owner, a).thenApply(x -> AclXml.policy(owner, keys::displayName, a)));
        }).whenComplete((xml, t) -> call.later(() -> {
            if (t != null) {
                call.fail(t);
            } else {
                call.xml(200, xml);
            }
        }));
    }

    /** PutBucketAcl or PutObjectAcl: from x-amz-acl / x-amz-grant-* headers or an AccessControlPolicy body. */
    public void putAcl(S3Call call) {
        call.ex.onBody(new SmallBody(call, body -> buckets.find(call.bucket).thenCompose(b -> {
            String owner = owner(b);
            S3Access.Acl acl;
            try {
                S3Access.Acl fromHeaders = requested(call);
                boolean hasBody = body.length > 0 && !new String(body, StandardCharsets.UTF_8).isBlank();
                if (fromHeaders != null && hasBody) {
                    throw new S3Exception(S3Error.INVALID_REQUEST, "send an ACL either in headers or in the body, not both");
                }
                if (fromHeaders == null && !hasBody) {
                    throw new S3Exception(S3Error.MALFORMED_XML, "PutAcl needs x-amz-acl, x-amz-grant-* headers or an"
                            + " AccessControlPolicy body");
                }
                S3Exception disabled = ObjectOwnership.aclRefusal(b.access().ownership(), call.headers()::get, call.key != null, hasBody);
                if (disabled != null) {
                    throw disabled;
                }
                acl = fromHeaders != null ? S3Access.withoutOwner(fromHeaders, owner) : AclXml.parsePolicy(body, owner);
                S3Exception refused = S3Access.refusal(acl, b.access().block());
                if (refused != null) {
                    throw refused;
                }
            } catch (S3Exception e) {
                throw new CompletionException(e);
            }
            if (call.key == null) {
                return buckets.update(b.withAccess(b.access().withAcl(acl))).thenApply(m -> (Void) null);
            }
            return store.stat(S3Names.fileName(call.bucket, call.key)).thenCompose(st ->
                    storeObjectAcl(call.bucket, call.key, st.manifest().version().id(), acl));
        }).whenComplete((v, t) -> call.later(() -> {
            if (t != null) {
                Throwable c = NodeStore.cause(t);
                if (c instanceof NodeStore.StoreException s && s.notFound()) {
                    call.fail(S3Error.NO_SUCH_KEY, "no object '" + call.key + "'");
                } else {
                    call.fail(c);
                }
            } else {
                call.empty(200);
            }
        }))));
        call.ex.sendContinue();
    }

    /** Reads the records of the keys an ACL names that this node has not seen yet (for their display names). */
    private CompletableFuture<Void> names(String owner, S3Access.Acl acl) {
        List<CompletableFuture<Void>> loads = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        ids.add(owner);
        acl.grants().forEach(g -> ids.add(g.grantee()));
        for (String id : ids) {
            if (AccessKeys.validId(id) && !keys.known(id)) {
                loads.add(keys.load(id));
            }
        }
        return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new));
    }

    /** Put/Get/DeletePublicAccessBlock (owner only, checked by {@link S3Authorizer#authorize}): a line of the bucket's record. */
    public BucketDocument<S3Access.PublicAccessBlock> publicAccessBlock() {
        return new BucketDocument<>("PublicAccessBlock", S3Error.NO_SUCH_PUBLIC_ACCESS_BLOCK,
                (body, bucket) -> AclXml.parsePublicAccessBlock(body), BucketDocument.Check.none(), AclXml::publicAccessBlock,
                BucketDocument.XML, BucketDocument.Storage.of(
                        b -> CompletableFuture.completedFuture(b.access().block().any() ? b.access().block() : null),
                        (b, block, body) -> buckets.update(b.withAccess(b.access().withBlock(block == null
                                ? S3Access.PublicAccessBlock.NONE : block)))), 200);
    }
}
