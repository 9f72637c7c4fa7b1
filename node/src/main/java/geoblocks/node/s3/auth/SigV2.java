package geoblocks.node.s3.auth;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.post.PostPolicy;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * AWS Signature Version 2 (the legacy scheme older SDKs and boto's {@code signature_version='s3'} use):
 * {@code Authorization: AWS key:signature}, or a presigned query with {@code AWSAccessKeyId},
 * {@code Signature} and {@code Expires}. The string to sign is the method, Content-MD5, Content-Type,
 * the Date (or Expires), the {@code x-amz-*} headers and the resource with its subresources; the
 * signature is base64(HMAC-SHA1(secret, it)). Pure: the time is the caller's.
 */
final class SigV2 {
    static final long MAX_SKEW_MS = 15 * 60_000;
    /** The query parameters that are part of the signed resource. */
    static final Set<String> SUBRESOURCES = Set.of("acl", "cors", "delete", "lifecycle", "location", "logging",
            "notification", "partNumber", "policy", "requestPayment", "restore", "tagging", "torrent", "uploadId",
            "uploads", "versionId", "versioning", "versions", "website", "response-content-type",
            "response-content-language", "response-expires", "response-cache-control", "response-content-disposition",
            "response-content-encoding", "object-lock", "retention", "legal-hold", "publicAccessBlock",
            "ownershipControls", "encryption", "replication", "accelerate", "policyStatus", "attributes", "select",
            "select-type", "analytics", "inventory", "metrics", "intelligent-tiering");

    private SigV2() {}

    /** Whether {@code r} is signed with Signature V2 (header or query). */
    static boolean is(SigV4.Request r) {
        String auth = r.headers().get("authorization");
        return auth != null ? auth.startsWith("AWS ") : r.query().containsKey("AWSAccessKeyId");
    }

    /** The access key id of a V2 request, or null. */
    static String accessKeyId(SigV4.Request r) {
        String auth = r.headers().get("authorization");
        if (auth != null) {
            int colon = auth.lastIndexOf(':');
            return auth.startsWith("AWS ") && colon > 4 ? auth.substring(4, colon).trim() : null;
        }
        List<String> id = r.query().get("AWSAccessKeyId");
        return id == null || id.isEmpty() ? null : id.get(0);
    }

    /** The string to sign; {@code date}: the Date header's value, or the query's Expires. */
    static String stringToSign(SigV4.Request r, String date) {
        return stringToSign(r, date, r.rawPath());
    }

    /** As above with {@code path} as the resource's path. */
    private static String stringToSign(SigV4.Request r, String date, String path) {
        Map<String, String> h = r.headers();
        StringBuilder sb = new StringBuilder();
        sb.append(r.method()).append('\n');
        sb.append(h.getOrDefault("content-md5", "")).append('\n');
        sb.append(h.getOrDefault("content-type", "")).append('\n');
        sb.append(date).append('\n');
        Map<String, String> amz = new TreeMap<>();
        for (Map.Entry<String, String> e : h.entrySet()) {
            if (e.getKey().startsWith("x-amz-")) {
                amz.put(e.getKey(), e.getValue().trim());
            }
        }
        amz.forEach((k, v) -> sb.append(k).append(':').append(v).append('\n'));
        sb.append(path);
        TreeSet<String> subs = new TreeSet<>();
        for (String k : r.query().keySet()) {
            if (SUBRESOURCES.contains(k)) {
                subs.add(k);
            }
        }
        char sep = '?';
        for (String k : subs) {
            sb.append(sep).append(k);
            List<String> v = r.query().get(k);
            if (v != null && !v.isEmpty() && !v.get(0).isEmpty()) {
                sb.append('=').append(v.get(0));
            }
            sep = '&';
        }
        return sb.toString();
    }

    static String sign(String secret, String stringToSign) {
        return PostPolicy.signV2(secret, stringToSign);
    }

    /** Verifies a V2 request at {@code nowMillis} against the secrets {@code secrets} knows. */
    static SigV4.Verdict verify(SigV4.Request r, Function<String, String> secrets, long nowMillis) {
        String id = accessKeyId(r);
        String auth = r.headers().get("authorization");
        String signature;
        String date;
        if (auth != null) {
            int colon = auth.lastIndexOf(':');
            if (id == null || id.isEmpty()) {
                return SigV4.Verdict.fail(S3Error.INVALID_ARGUMENT, "the Authorization header must be 'AWS key:signature'");
            }
            signature = auth.substring(colon + 1).trim();
            String amzDate = r.headers().get("x-amz-date");
            String when = amzDate != null ? amzDate : r.headers().get("date");
            if (when == null) {
                return SigV4.Verdict.fail(S3Error.ACCESS_DENIED, "AWS authentication requires a valid Date or x-amz-date header");
            }
            Long t = httpDate(when);
            if (t == null) {
                return SigV4.Verdict.fail(S3Error.ACCESS_DENIED, "AWS authentication requires a valid Date or x-amz-date header");
            }
            if (Math.abs(nowMillis - t) > MAX_SKEW_MS) {
                return SigV4.Verdict.fail(S3Error.REQUEST_TIME_TOO_SKEWED,
                        "the request's date " + when + " is more than 15 minutes from the server's time");
            }
            date = amzDate != null ? "" : when;
        } else {
            signature = first(r.query(), "Signature");
            date = first(r.query(), "Expires");
            if (signature == null || date == null) {
                return SigV4.Verdict.fail(S3Error.ACCESS_DENIED, "a V2 presigned URL needs AWSAccessKeyId, Signature and Expires");
            }
            long expires;
            try {
                expires = Long.parseLong(date.trim());
            } catch (NumberFormatException e) {
                return SigV4.Verdict.fail(S3Error.ACCESS_DENIED, "Expires '" + date + "' is not a number of seconds");
            }
            if (nowMillis / 1000 > expires) {
                return SigV4.Verdict.fail(S3Error.ACCESS_DENIED, "Request has expired");
            }
            if (expires - nowMillis / 1000 > SigV4.MAX_EXPIRES_S) {
                // as SigV4's X-Amz-Expires: a presigned URL lives at most 7 days, so a leaked one is not good for ever
                return SigV4.Verdict.fail(S3Error.ACCESS_DENIED, "a presigned URL may live at most " + SigV4.MAX_EXPIRES_S
                        + " s (7 days); its Expires is " + (expires - nowMillis / 1000) + " s away");
            }
        }
        String secret = secrets.apply(id);
        if (secret == null) {
            return SigV4.Verdict.fail(S3Error.INVALID_ACCESS_KEY_ID, "no access key '" + id + "'");
        }
        String want = sign(secret, stringToSign(r, date));
        String path = r.rawPath();
        if (!PostPolicy.same(want, signature) && path.length() > 1 && path.indexOf('/', 1) < 0) {
            // a bucket's resource signed as /BUCKET/ (botocore's V2 signer does so): the same resource
            want = sign(secret, stringToSign(r, date, path + "/"));
        }
        if (!PostPolicy.same(want, signature)) {
            return SigV4.Verdict.fail(S3Error.SIGNATURE_DOES_NOT_MATCH, S3Error.SIGNATURE_DOES_NOT_MATCH.message());
        }
        return new SigV4.Verdict(id, null, null, "UNSIGNED-PAYLOAD");
    }

    private static String first(Map<String, List<String>> q, String k) {
        List<String> v = q.get(k);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private static final DateTimeFormatter NO_WEEKDAY = DateTimeFormatter.ofPattern("d MMM yyyy HH:mm:ss z", Locale.ROOT);

    /**
     * An RFC 1123 date (or the ISO basic form SigV4 uses), in epoch millis; null when neither. A weekday
     * that is not the date's is ignored (as S3 reads such dates), so the date is judged by its distance from now; a
     * date before 1970 is null.
     */
    static Long httpDate(String s) {
        Long t = anyHttpDate(s.trim());
        return t == null || t < 0 ? null : t; // a date before 1970 is no valid request date (as S3 reads it)
    }

    private static Long anyHttpDate(String t) {
        try {
            return ZonedDateTime.parse(t, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            int comma = t.indexOf(", ");
            if (comma == 3) {
                try {
                    return ZonedDateTime.parse(t.substring(5), NO_WEEKDAY).toInstant().toEpochMilli();
                } catch (DateTimeParseException e2) {
                    // not RFC 1123 without its weekday either
                }
            }
            return SigV4.parseAmzDate(t);
        }
    }
}
