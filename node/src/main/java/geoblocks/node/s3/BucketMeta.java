package geoblocks.node.s3;

import geoblocks.node.s3.access.BucketAccess;
import geoblocks.node.s3.access.S3Access;
import geoblocks.node.s3.lock.ObjectLock;
import geoblocks.node.s3.versioning.ObjectVersions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A bucket's settings, kept in its record file (see {@link S3Names#bucketFile}) as {@code key=value}
 * lines: its home region (S3's LocationConstraint: where its objects live once migrated), the
 * placement policy and block size its objects are stored with, whether anonymous reads are allowed,
 * when it was made, and its versioning state (a line {@code versioning=Enabled|Suspended}, absent
 * until PutBucketVersioning sets it), and its owner, ACL and PublicAccessBlock ({@link BucketAccess}: lines
 * {@code owner=}, {@code acl=}, {@code public-access-block=}, absent in records made before keys), and its
 * default encryption (a line {@code encryption=AES256}, absent unless PutBucketEncryption set it), and its object
 * lock configuration (a line {@code object-lock=Enabled[ MODE Nd|Ny]}, absent unless object lock was enabled; it is never removed). Invariant: block size > 0; home and policy not empty.
 */
public record BucketMeta(String name, String home, String policy, int blockSize, boolean publicRead, long createdMillis,
        ObjectVersions.Status versioning, BucketAccess access, String encryption, ObjectLock.Config objectLock) {
    /** The value of {@code encryption} for SSE-S3 by default. */
    public static final String SSE_S3 = "AES256";

    /** A bucket without object lock. */
    public BucketMeta(String name, String home, String policy, int blockSize, boolean publicRead, long createdMillis,
            ObjectVersions.Status versioning, BucketAccess access, String encryption) {
        this(name, home, policy, blockSize, publicRead, createdMillis, versioning, access, encryption, null);
    }

    /** A bucket without default encryption. */
    public BucketMeta(String name, String home, String policy, int blockSize, boolean publicRead, long createdMillis,
            ObjectVersions.Status versioning, BucketAccess access) {
        this(name, home, policy, blockSize, publicRead, createdMillis, versioning, access, null);
    }

    /** A bucket whose versioning was never set. */
    public BucketMeta(String name, String home, String policy, int blockSize, boolean publicRead, long createdMillis) {
        this(name, home, policy, blockSize, publicRead, createdMillis, ObjectVersions.Status.OFF);
    }

    /** A bucket of before access keys: no owner line, the ACL from {@code publicRead}. */
    public BucketMeta(String name, String home, String policy, int blockSize, boolean publicRead, long createdMillis,
            ObjectVersions.Status versioning) {
        this(name, home, policy, blockSize, publicRead, createdMillis, versioning, BucketAccess.legacy(publicRead));
    }

    /** This bucket with versioning {@code s}. */
    public BucketMeta withVersioning(ObjectVersions.Status s) {
        return new BucketMeta(name, home, policy, blockSize, publicRead, createdMillis, s, access, encryption, objectLock);
    }

    /** This bucket with {@code a} as its access settings (its public-read line follows the ACL, for older nodes). */
    public BucketMeta withAccess(BucketAccess a) {
        boolean pub = a.acl().grants().contains(new S3Access.Grant(S3Access.ALL_USERS, S3Access.Perm.READ));
        return new BucketMeta(name, home, policy, blockSize, pub, createdMillis, versioning, a, encryption, objectLock);
    }

    /** This bucket with default encryption {@code e} ({@link #SSE_S3}, or null for none). */
    public BucketMeta withEncryption(String e) {
        return new BucketMeta(name, home, policy, blockSize, publicRead, createdMillis, versioning, access, e, objectLock);
    }

    /** This bucket with object lock configuration {@code c} (object lock enabled; null: disabled). */
    public BucketMeta withObjectLock(ObjectLock.Config c) {
        return new BucketMeta(name, home, policy, blockSize, publicRead, createdMillis, versioning, access, encryption, c);
    }

    public BucketMeta {
        Objects.requireNonNull(versioning, "versioning");
        Objects.requireNonNull(access, "access");
        if (encryption != null && !encryption.equals(SSE_S3)) {
            throw new IllegalArgumentException("bucket default encryption must be " + SSE_S3 + " or none, was '" + encryption + "'");
        }
        if (blockSize <= 0) {
            throw new IllegalArgumentException("bucket block size must be > 0, was " + blockSize);
        }
        if (home.isEmpty() || policy.isEmpty()) {
            throw new IllegalArgumentException("bucket home region and policy must not be empty");
        }
    }

    public byte[] encode() {
        String s = "format=1\nname=" + name + "\nhome=" + home + "\npolicy=" + policy + "\nblock-size=" + blockSize
                + "\npublic-read=" + publicRead + "\ncreated=" + createdMillis + "\n"
                + (versioning == ObjectVersions.Status.OFF ? "" : "versioning=" + versioning.xml() + "\n")
                + (access.equals(BucketAccess.legacy(publicRead)) ? "" : access.lines())
                + (encryption == null ? "" : "encryption=" + encryption + "\n")
                + (objectLock == null ? "" : "object-lock=" + objectLock.encode() + "\n");
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads a record; anything missing or malformed is an IOException naming the bucket and the field. */
    public static BucketMeta decode(String bucket, byte[] bytes) throws IOException {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                kv.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try {
            if (!"1".equals(kv.get("format"))) {
                throw new IOException("bucket record of '" + bucket + "' has format " + kv.get("format") + ", expected 1");
            }
            boolean publicRead = Boolean.parseBoolean(kv.get("public-read"));
            return new BucketMeta(require(kv, "name", bucket), require(kv, "home", bucket), require(kv, "policy", bucket),
                    Integer.parseInt(require(kv, "block-size", bucket)), publicRead,
                    Long.parseLong(require(kv, "created", bucket)), ObjectVersions.Status.ofRecord(kv.get("versioning")),
                    BucketAccess.decode(kv, publicRead), kv.get("encryption"),
                    ObjectLock.Config.decode(kv.get("object-lock")));
        } catch (IllegalArgumentException e) {
            throw new IOException("bucket record of '" + bucket + "' is damaged: " + e.getMessage(), e);
        }
    }

    private static String require(Map<String, String> kv, String k, String bucket) throws IOException {
        String v = kv.get(k);
        if (v == null) {
            throw new IOException("bucket record of '" + bucket + "' lacks '" + k + "'");
        }
        return v;
    }
}
