package geoblocks.node.s3.access;

import geoblocks.node.s3.BucketMeta;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A bucket's access settings, kept as lines of its record ({@link BucketMeta}): its owner (the access
 * key id that created it; a record without the line, made before keys existed, is owned by the config's
 * key, shown as {@code null} here), its ACL, its PublicAccessBlock and its ownership controls (a line
 * {@code ownership=}, absent until set; {@link ObjectOwnership}).
 */
public record BucketAccess(String owner, S3Access.Acl acl, S3Access.PublicAccessBlock block, ObjectOwnership ownership) {
    public BucketAccess {
        Objects.requireNonNull(acl, "acl");
        Objects.requireNonNull(block, "block");
    }

    /** Without ownership controls. */
    public BucketAccess(String owner, S3Access.Acl acl, S3Access.PublicAccessBlock block) {
        this(owner, acl, block, null);
    }

    /** A record of before: no owner line, the ACL from its public-read flag. */
    public static BucketAccess legacy(boolean publicRead) {
        return new BucketAccess(null, publicRead ? new S3Access.Acl(List.of(
                new S3Access.Grant(S3Access.ALL_USERS, S3Access.Perm.READ))) : S3Access.Acl.PRIVATE,
                S3Access.PublicAccessBlock.NONE);
    }

    /** The owner's key id, {@code rootKey} (the config's key) for a record without one. */
    public String ownerOr(String rootKey) {
        return owner == null ? rootKey : owner;
    }

    public BucketAccess withAcl(S3Access.Acl a) {
        return new BucketAccess(owner, a, block, ownership);
    }

    public BucketAccess withBlock(S3Access.PublicAccessBlock b) {
        return new BucketAccess(owner, acl, b, ownership);
    }

    /** These settings with ownership controls {@code o} (null: none). */
    public BucketAccess withOwnership(ObjectOwnership o) {
        return new BucketAccess(owner, acl, block, o);
    }

    /** The record lines ({@code owner=}, {@code acl=}, {@code public-access-block=}); none for a legacy record. */
    public String lines() {
        StringBuilder s = new StringBuilder();
        if (owner != null) {
            s.append("owner=").append(owner).append('\n');
        }
        s.append("acl=").append(acl.encode()).append('\n');
        if (block.any()) {
            s.append("public-access-block=").append(block.encode()).append('\n');
        }
        if (ownership != null) {
            s.append("ownership=").append(ownership.xml()).append('\n');
        }
        return s.toString();
    }

    public static BucketAccess decode(Map<String, String> kv, boolean publicRead) {
        if (!kv.containsKey("acl") && !kv.containsKey("owner")) {
            return legacy(publicRead);
        }
        return new BucketAccess(kv.get("owner"), S3Access.Acl.decode(kv.get("acl")),
                S3Access.PublicAccessBlock.decode(kv.get("public-access-block")),
                kv.containsKey("ownership") ? ObjectOwnership.ofRecord(kv.get("ownership")) : null);
    }
}
