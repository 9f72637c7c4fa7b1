package geoblocks.node.s3.post;

import geoblocks.node.s3.MiniJson;
import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.auth.SigV4;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The policy document of a browser-based upload (POST object): decoded from its base64 form field,
 * checked against the form's fields, the bucket, the file's size and the time ({@code nowMs} from the
 * caller's clock). Pure: no I/O. Field names are compared case-insensitively, the document's top-level
 * names ({@code expiration}, {@code conditions}) case-sensitively, as S3 does. Every form field but
 * the signature fields, {@code file} and {@code x-ignore-*} must be named by a condition; every
 * condition must hold. Errors: 400 InvalidPolicyDocument-style (as InvalidArgument) for a malformed
 * document, 403 AccessDenied for a condition that fails or an expired policy.
 */
public final class PostPolicy {
    /** Fields no condition needs to cover (lower case). */
    static final Set<String> EXEMPT = Set.of("policy", "signature", "awsaccesskeyid", "file", "x-amz-signature");
    private final long expiresMs;
    private final List<Condition> conditions;

    record Condition(String op, String field, String value, long min, long max) {}

    private PostPolicy(long expiresMs, List<Condition> conditions) {
        this.expiresMs = expiresMs;
        this.conditions = conditions;
    }

    /** Parses the base64 policy field; InvalidArgument (400) when it is not a valid policy document. */
    static PostPolicy parse(String base64) throws S3Exception {
        Object doc;
        try {
            String json = new String(Base64.getMimeDecoder().decode(base64.trim()), StandardCharsets.UTF_8);
            doc = MiniJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw bad("the policy is not base64-encoded JSON: " + e.getMessage());
        }
        if (!(doc instanceof Map<?, ?> m)) {
            throw bad("the policy must be a JSON object");
        }
        if (!(m.get("expiration") instanceof String exp)) {
            throw bad("the policy has no \"expiration\"");
        }
        long expires;
        try {
            expires = Instant.parse(exp).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw bad("the policy's expiration '" + exp + "' is not an ISO 8601 time such as 2026-01-01T00:00:00Z");
        }
        if (!(m.get("conditions") instanceof List<?> list)) {
            throw bad("the policy has no \"conditions\" list");
        }
        List<Condition> out = new ArrayList<>();
        for (Object c : list) {
            out.add(condition(c));
        }
        return new PostPolicy(expires, out);
    }

    private static Condition condition(Object c) throws S3Exception {
        if (c instanceof Map<?, ?> m) {
            if (m.size() != 1) {
                throw bad("a condition object must have one member: " + m);
            }
            Map.Entry<?, ?> e = m.entrySet().iterator().next();
            return new Condition("eq", ((String) e.getKey()).toLowerCase(Locale.ROOT), text(e.getValue()), 0, 0);
        }
        if (!(c instanceof List<?> l) || l.size() != 3 || !(l.get(0) instanceof String op)) {
            throw bad("a condition must be an object or a list of three: " + c);
        }
        String o = op.toLowerCase(Locale.ROOT);
        if (o.equals("content-length-range")) {
            if (!(l.get(1) instanceof Long min) || !(l.get(2) instanceof Long max) || min < 0 || max < min) {
                throw bad("content-length-range needs two whole numbers, 0 <= min <= max: " + c);
            }
            return new Condition(o, null, null, min, max);
        }
        if (!o.equals("eq") && !o.equals("starts-with")) {
            throw bad("unknown condition '" + op + "'");
        }
        if (!(l.get(1) instanceof String f) || !f.startsWith("$") || f.length() < 2) {
            throw bad("a condition's field must be \"$name\": " + c);
        }
        return new Condition(o, f.substring(1).toLowerCase(Locale.ROOT), text(l.get(2)), 0, 0);
    }

    private static String text(Object v) throws S3Exception {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Long || v instanceof Boolean) {
            return String.valueOf(v);
        }
        throw bad("a condition's value must be a string: " + v);
    }

    private static S3Exception bad(String why) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid Policy: " + why);
    }

    private static S3Exception denied(String why) {
        return new S3Exception(S3Error.ACCESS_DENIED, "Invalid according to Policy: " + why);
    }

    /**
     * Checks the form: {@code fields} by lower-case name (with {@code bucket} added by the caller),
     * {@code size} the file's length, or -1 to check everything but the size (before the file is read).
     */
    void check(Map<String, String> fields, long size, long nowMs) throws S3Exception {
        if (nowMs >= expiresMs) {
            throw denied("Policy expired");
        }
        HashSet<String> covered = new HashSet<>();
        for (Condition c : conditions) {
            if (c.op().equals("content-length-range")) {
                if (size >= 0 && (size < c.min() || size > c.max())) {
                    throw new S3Exception(size > c.max() ? S3Error.ENTITY_TOO_LARGE : S3Error.ENTITY_TOO_SMALL,
                            "the file's " + size + " bytes are outside the policy's content-length-range ["
                                    + c.min() + ", " + c.max() + "]");
                }
                continue;
            }
            covered.add(c.field());
            String v = fields.get(c.field());
            if (v == null && c.op().equals("starts-with") && c.value().isEmpty()) {
                continue; // ["starts-with", "$field", ""]: any value, none too (the field is optional)
            }
            if (v == null) {
                throw denied("the policy names the field '" + c.field() + "' that the form does not have");
            }
            boolean ok = c.op().equals("eq") ? v.equals(c.value()) : v.startsWith(c.value());
            if (!ok) {
                throw denied("Policy Condition failed: [\"" + c.op() + "\", \"$" + c.field() + "\", \"" + c.value() + "\"]");
            }
        }
        for (String f : fields.keySet()) {
            if (!EXEMPT.contains(f) && !f.startsWith("x-ignore-") && !covered.contains(f)) {
                throw denied("Extra input fields: " + f);
            }
        }
    }

    /** The V2 form signature: base64(HMAC-SHA1(secret, policy field as sent)). */
    public static String signV2(String secret, String policyField) {
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(policyField.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The V4 form signature: hex HMAC-SHA256 of the policy field under the credential's signing key. */
    static String signV4(String secret, String date, String region, String policyField) {
        return HexFormat.of().formatHex(SigV4.hmac(SigV4.signingKey(secret, date, region, "s3"), policyField));
    }

    /** Constant-time comparison of two signatures. */
    public static boolean same(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8),
                b.getBytes(StandardCharsets.UTF_8));
    }
}
