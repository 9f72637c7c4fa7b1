package geoblocks.node.s3.access;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may do what to a bucket and its objects: access control lists (S3's grants and canned ACLs)
 * and the bucket's PublicAccessBlock, and the one decision {@link #allowed}. Pure.
 *
 * <p>The model: every access key is a principal whose id is the key id. A bucket is owned by the key
 * that created it, and so are its objects (as with S3's object ownership "bucket owner enforced" for
 * ownership, but ACLs stay in force): the bucket owner may do anything to the bucket and its objects.
 * Anyone else needs a grant: on the bucket (READ lists, WRITE writes and deletes objects, READ_ACP /
 * WRITE_ACP read and change the bucket's ACL) or on the object (READ reads it, READ_ACP / WRITE_ACP its
 * ACL). FULL_CONTROL implies the four. Grantees are a key id, {@code AllUsers} (anyone, unsigned
 * requests too) or {@code AuthenticatedUsers} (any valid key). With {@code IgnorePublicAcls} the two
 * groups' grants are not counted; {@code BlockPublicAcls} refuses new ACLs that grant them.
 */
public final class S3Access {
    private S3Access() {}

    public enum Perm {
        READ, WRITE, READ_ACP, WRITE_ACP, FULL_CONTROL;

        static Perm of(String s) throws S3Exception {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new S3Exception(S3Error.MALFORMED_XML, "unknown permission '" + s + "'");
            }
        }
    }

    public static final String ALL_USERS = "AllUsers";
    public static final String AUTHENTICATED = "AuthenticatedUsers";
    public static final String ALL_USERS_URI = "http://acs.amazonaws.com/groups/global/AllUsers";
    public static final String AUTHENTICATED_URI = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";

    /** One grant: {@code grantee} a key id, {@link #ALL_USERS} or {@link #AUTHENTICATED}. */
    public record Grant(String grantee, Perm perm) {
        public boolean group() {
            return grantee.equals(ALL_USERS) || grantee.equals(AUTHENTICATED);
        }
    }

    /** An ACL: the grants beside the owner's (who always has FULL_CONTROL, listed first when shown). */
    public record Acl(List<Grant> grants) {
        public static final Acl PRIVATE = new Acl(List.of());

        public Acl {
            grants = List.copyOf(new LinkedHashSet<>(grants));
        }

        public boolean isPublic() {
            return grants.stream().anyMatch(Grant::group);
        }

        /** Compact form for a bucket record line or an object's metadata: a canned name, or {@code grantee:PERM,...}. */
        public String encode() {
            for (String c : List.of("private", "public-read", "public-read-write", "authenticated-read")) {
                try {
                    if (canned(c, null).equals(this)) {
                        return c;
                    }
                } catch (S3Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            List<String> parts = new ArrayList<>();
            for (Grant g : grants) {
                parts.add(g.grantee() + ":" + g.perm());
            }
            return String.join(",", parts);
        }

        public static Acl decode(String s) {
            if (s == null || s.isEmpty()) {
                return PRIVATE;
            }
            try {
                return canned(s, null);
            } catch (S3Exception e) {
                List<Grant> gs = new ArrayList<>();
                for (String p : s.split(",")) {
                    int colon = p.lastIndexOf(':');
                    if (colon > 0) {
                        gs.add(new Grant(p.substring(0, colon), Perm.valueOf(p.substring(colon + 1))));
                    }
                }
                return new Acl(gs);
            }
        }
    }

    /** The bucket's PublicAccessBlock (all false: none set). */
    public record PublicAccessBlock(boolean blockPublicAcls, boolean ignorePublicAcls, boolean blockPublicPolicy,
            boolean restrictPublicBuckets) {
        public static final PublicAccessBlock NONE = new PublicAccessBlock(false, false, false, false);

        public boolean any() {
            return blockPublicAcls || ignorePublicAcls || blockPublicPolicy || restrictPublicBuckets;
        }

        public String encode() {
            return (blockPublicAcls ? "1" : "0") + (ignorePublicAcls ? "1" : "0") + (blockPublicPolicy ? "1" : "0")
                    + (restrictPublicBuckets ? "1" : "0");
        }

        public static PublicAccessBlock decode(String s) {
            if (s == null || s.length() != 4) {
                return NONE;
            }
            return new PublicAccessBlock(s.charAt(0) == '1', s.charAt(1) == '1', s.charAt(2) == '1', s.charAt(3) == '1');
        }
    }

    /**
     * A canned ACL ({@code x-amz-acl}) as grants. {@code bucketOwner} is for the object ACLs
     * {@code bucket-owner-read} and {@code bucket-owner-full-control}: since objects are owned by the
     * bucket owner, both are {@code private} here.
     */
    public static Acl canned(String name, String bucketOwner) throws S3Exception {
        return switch (name.trim()) {
            case "private", "bucket-owner-read", "bucket-owner-full-control" -> Acl.PRIVATE;
            case "public-read" -> new Acl(List.of(new Grant(ALL_USERS, Perm.READ)));
            case "public-read-write" -> new Acl(List.of(new Grant(ALL_USERS, Perm.READ), new Grant(ALL_USERS, Perm.WRITE)));
            case "authenticated-read" -> new Acl(List.of(new Grant(AUTHENTICATED, Perm.READ)));
            case "log-delivery-write", "aws-exec-read" -> throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                    "the canned ACL '" + name + "' is not supported (private, public-read, public-read-write,"
                            + " authenticated-read, bucket-owner-read and bucket-owner-full-control are)");
            default -> throw new S3Exception(S3Error.INVALID_ARGUMENT, "unknown canned ACL '" + name + "'");
        };
    }

    /**
     * The grants of {@code x-amz-grant-read}, {@code -write}, {@code -read-acp}, {@code -write-acp} and
     * {@code -full-control} headers (values such as {@code id="KEYID", uri="http://acs.../AllUsers"});
     * null when none is present. {@code emailAddress} grantees are NotImplemented.
     */
    public static Acl grantHeaders(Function<String, String> header) throws S3Exception {
        List<Grant> gs = new ArrayList<>();
        boolean any = false;
        for (Perm p : Perm.values()) {
            String v = header.apply("x-amz-grant-" + p.name().toLowerCase(Locale.ROOT).replace('_', '-'));
            if (v == null) {
                continue;
            }
            any = true;
            for (String g : v.split(",")) {
                int eq = g.indexOf('=');
                if (eq <= 0) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "a grant header holds type=value pairs, was '" + g + "'");
                }
                String type = g.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                String value = g.substring(eq + 1).trim().replace("\"", "");
                gs.add(new Grant(grantee(type, value), p));
            }
        }
        return any ? new Acl(gs) : null;
    }

    /** A grantee from its type ({@code id}, {@code uri}; {@code emailAddress} is NotImplemented) and value. */
    static String grantee(String type, String value) throws S3Exception {
        switch (type.toLowerCase(Locale.ROOT)) {
            case "id", "canonicaluser" -> {
                if (value.isEmpty()) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "a grantee id must not be empty");
                }
                return value;
            }
            case "uri", "group" -> {
                if (value.equals(ALL_USERS_URI)) {
                    return ALL_USERS;
                }
                if (value.equals(AUTHENTICATED_URI)) {
                    return AUTHENTICATED;
                }
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "unknown grantee group '" + value + "'");
            }
            case "emailaddress", "amazoncustomerbyemail" -> throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                    "grants by email address are not supported: grant by key id (the owner ID)");
            default -> throw new S3Exception(S3Error.INVALID_ARGUMENT, "unknown grantee type '" + type + "'");
        }
    }

    /** The owner's FULL_CONTROL grant is implied: drop it (and duplicates) from a grant list a client sent. */
    public static Acl withoutOwner(Acl acl, String owner) {
        List<Grant> gs = new ArrayList<>();
        for (Grant g : acl.grants()) {
            if (!(g.grantee().equals(owner) && g.perm() == Perm.FULL_CONTROL)) {
                gs.add(g);
            }
        }
        return new Acl(gs);
    }

    /**
     * Whether {@code requester} (a key id; null for an unsigned request) may use {@code perm} on a
     * resource with {@code acl} in a bucket owned by {@code bucketOwner} with {@code block}.
     */
    public static boolean allowed(String requester, String bucketOwner, Acl acl, Perm perm, PublicAccessBlock block) {
        if (requester != null && requester.equals(bucketOwner)) {
            return true;
        }
        for (Grant g : acl.grants()) {
            boolean who = g.grantee().equals(ALL_USERS) || (g.grantee().equals(AUTHENTICATED) && requester != null)
                    || g.grantee().equals(requester);
            if (g.group() && block.ignorePublicAcls()) {
                continue;
            }
            if (who && (g.perm() == perm || g.perm() == Perm.FULL_CONTROL)) {
                return true;
            }
        }
        return false;
    }

    /** Null when {@code acl} may be set under {@code block}, else the refusal (BlockPublicAcls refuses public grants). */
    public static S3Exception refusal(Acl acl, PublicAccessBlock block) {
        if (block.blockPublicAcls() && acl.isPublic()) {
            return new S3Exception(S3Error.ACCESS_DENIED, "the bucket's PublicAccessBlock (BlockPublicAcls) refuses"
                    + " ACLs that grant to AllUsers or AuthenticatedUsers");
        }
        return null;
    }

    /** Grants of a set of grantees, for tests. */
    static Set<String> grantees(Acl acl) {
        Set<String> s = new LinkedHashSet<>();
        acl.grants().forEach(g -> s.add(g.grantee()));
        return s;
    }
}
