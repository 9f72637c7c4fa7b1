package geoblocks.node.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The decisions about admin tokens, without I/O (time is passed in). A token reads
 * {@code gbt_<id>_<secret>}: a 16-character id (base32, lower case) that names its record, and 32 random
 * bytes (base64url). Each region keeps the record ({@link AdminToken}) with the secret's SHA-256 only. A
 * node also has one root token (the config's {@code geoblocks.admin.token}, or the one it made in
 * {@code DATA/admin-token}): every scope, no expiry, not revocable except by changing it.
 */
public final class AdminTokens {
    /** Names under this are read and written by the node's own gateway client only (the node refuses other clients). */
    public static final String RESERVED = ".admin/";
    public static final String PREFIX = RESERVED + "tokens/";
    /** The root token of the local demo cluster (LocalCluster's config), refused off loopback. */
    public static final String DEMO_ROOT = "geoblocks-local-admin-token";
    /** The file in a node's first data directory that holds the root token it made (config empty). */
    public static final String ROOT_FILE = "admin-token";
    /** The longest life a created token may have. */
    public static final long MAX_TTL_MILLIS = 366L * 24 * 3600 * 1000;
    public static final long MIN_TTL_MILLIS = 60_000;
    static final int ROOT_MIN_LENGTH = 24;
    private static final Pattern TOKEN = Pattern.compile("gbt_([a-z2-7]{16})_([A-Za-z0-9_-]{43})");
    private static final Pattern ID = Pattern.compile("[a-z2-7]{16}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@+=-]{1,64}");
    private static final char[] ID_CHARS = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private AdminTokens() {}

    /** A token as presented: the id of its record and its secret. */
    public record Presented(String id, String secret) {
        @Override
        public String toString() {
            return "Presented[id=" + id + "]";
        }
    }

    /** A new token: its record, and the token to hand out (shown once). */
    public record Minted(AdminToken record, String token) {
        @Override
        public String toString() {
            return "Minted[" + record + "]";
        }
    }

    /** What a request's token may do: allowed as {@code who}, or refused with an HTTP status and why. */
    public sealed interface Verdict {
        record Allowed(String who, Set<AdminScope> scopes) implements Verdict {}

        record Refused(int status, String reason) implements Verdict {}
    }

    public static String file(String id) {
        return PREFIX + id;
    }

    public static boolean validId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** Why {@code name} is not a token name, or null when it is. */
    public static String nameProblem(String name) {
        return name != null && NAME.matcher(name).matches() ? null
                : "a token name is 1-64 of A-Z a-z 0-9 . _ @ + = -, was '" + name + "'";
    }

    /** A new token named {@code name} with {@code scopes}, living {@code ttlMillis} from {@code nowMillis}. */
    public static Minted mint(String name, Set<AdminScope> scopes, long ttlMillis, long nowMillis, SecureRandom random) {
        String bad = nameProblem(name);
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        if (ttlMillis < MIN_TTL_MILLIS || ttlMillis > MAX_TTL_MILLIS) {
            throw new IllegalArgumentException("a token lives 1 minute to 366 days, asked " + ttlMillis / 1000 + " s");
        }
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("a token needs at least one scope: cluster, data or tokens");
        }
        char[] id = new char[16];
        for (int i = 0; i < id.length; i++) {
            id[i] = ID_CHARS[random.nextInt(ID_CHARS.length)];
        }
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String s = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        String idText = new String(id);
        AdminToken record = new AdminToken(idText, name, sha256(s), scopes, nowMillis, nowMillis + ttlMillis, 0);
        return new Minted(record, "gbt_" + idText + "_" + s);
    }

    /** The token in an {@code Authorization: Bearer ...} value, or null when it is not a created token's form. */
    public static Presented parse(String token) {
        if (token == null) {
            return null;
        }
        Matcher m = TOKEN.matcher(token);
        return m.matches() ? new Presented(m.group(1), m.group(2)) : null;
    }

    /** The bearer token of an Authorization header value, or null when it has none. */
    public static String bearer(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = authorization.substring(7).trim();
        return t.isEmpty() ? null : t;
    }

    /** Whether {@code presented} is the root token {@code root} (compared in constant time). */
    public static boolean isRoot(String presented, String root) {
        return presented != null && !root.isEmpty() && MessageDigest.isEqual(
                presented.getBytes(StandardCharsets.UTF_8), root.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * What the created token {@code presented} may do for a request needing {@code needed}, given its record
     * ({@code null}: none was found).
     */
    public static Verdict decide(Presented presented, AdminToken record, AdminScope needed, long nowMillis) {
        if (record == null || !record.id().equals(presented.id())) {
            return new Verdict.Refused(401, "unknown admin token " + presented.id());
        }
        if (!MessageDigest.isEqual(sha256(presented.secret()).getBytes(StandardCharsets.US_ASCII),
                record.secretSha256().getBytes(StandardCharsets.US_ASCII))) {
            return new Verdict.Refused(401, "wrong secret for admin token " + presented.id());
        }
        if (record.revoked()) {
            return new Verdict.Refused(401, "admin token " + record.id() + " (" + record.name() + ") was revoked at "
                    + Instant.ofEpochMilli(record.revokedMillis()));
        }
        if (nowMillis >= record.expiresMillis()) {
            return new Verdict.Refused(401, "admin token " + record.id() + " (" + record.name() + ") expired at "
                    + Instant.ofEpochMilli(record.expiresMillis()));
        }
        if (!record.scopes().contains(needed)) {
            return new Verdict.Refused(403, "admin token " + record.id() + " (" + record.name() + ") has scopes "
                    + AdminScope.labels(record.scopes()) + ", not " + needed.label());
        }
        return new Verdict.Allowed("token " + record.id() + " (" + record.name() + ")", record.scopes());
    }

    /** Why the config's root token {@code root} is refused (too short), or null when it may be used. */
    public static String rootProblem(String root) {
        return root.length() >= ROOT_MIN_LENGTH ? null : "geoblocks.admin.token must be at least " + ROOT_MIN_LENGTH
                + " characters (or empty: the node makes one in DATA/admin-token), was " + root.length();
    }

    static String sha256(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
