package geoblocks.node.s3.auth;

import geoblocks.node.s3.PercentCoding;
import geoblocks.node.s3.S3Error;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 verification for S3 requests, in an {@code Authorization} header or in a
 * presigned URL's query (AWS docs: "Authenticating Requests: Using the Authorization Header" and
 * "...: Using Query Parameters"). The verifier rebuilds the canonical request from what it received
 * (method, path, query, signed headers, payload hash), derives the signing key from the secret of the
 * access key, and compares signatures in constant time. The credential scope's region may be any of
 * the allowed regions (the node's region id and {@code us-east-1}); the service must be {@code s3}.
 * Time is passed in: header-signed requests must be within 15 minutes of it, presigned ones must not
 * have expired (at most 7 days). Pure: no clock, no I/O.
 */
public final class SigV4 {
    public static final String ALGORITHM = "AWS4-HMAC-SHA256";
    public static final String UNSIGNED = "UNSIGNED-PAYLOAD";
    static final long MAX_SKEW_MS = 15 * 60_000L;
    static final long MAX_EXPIRES_S = 7 * 24 * 3600L;
    private static final HexFormat HEX = HexFormat.of();

    private final Function<String, String> secrets;
    private final Set<String> regions;

    /** {@code secrets}: secret key per access key id; {@code regions}: the credential scope regions accepted. */
    public SigV4(Map<String, String> secrets, Set<String> regions) {
        this(Map.copyOf(secrets)::get, regions);
    }

    /** {@code secrets}: the secret of an access key id, null when unknown or revoked. */
    public SigV4(Function<String, String> secrets, Set<String> regions) {
        this.secrets = secrets;
        this.regions = Set.copyOf(regions);
    }

    /**
     * The access key id a signed request names (its Credential's first field, in the Authorization
     * header or the presigned query), or null when it names none: to look the key up before {@link #verify}.
     */
    public static String accessKeyId(Request r) {
        if (SigV2.is(r)) {
            return SigV2.accessKeyId(r);
        }
        String auth = r.headers().get("authorization");
        String credential = null;
        if (auth != null && auth.startsWith(ALGORITHM + " ")) {
            for (String p : auth.substring(ALGORITHM.length() + 1).split(",")) {
                int eq = p.indexOf('=');
                if (eq > 0 && p.substring(0, eq).trim().equals("Credential")) {
                    credential = p.substring(eq + 1).trim();
                }
            }
        } else if (auth == null) {
            credential = first(r.query(), "X-Amz-Credential");
        }
        if (credential == null) {
            return null;
        }
        int slash = credential.indexOf('/');
        return slash > 0 ? credential.substring(0, slash) : null;
    }

    /**
     * What a request brings for verification. {@code rawPath} is the path as sent (percent-encoded),
     * {@code query} the decoded query parameters, {@code headers} every header by lower-case name.
     */
    public record Request(String method, String rawPath, Map<String, List<String>> query, Map<String, String> headers) {}

    /** The verdict: the access key id when valid, else the S3 error and why. */
    public record Verdict(String accessKey, S3Error error, String message, String payloadHash, AwsChunked.Seed seed) {
        public Verdict(String accessKey, S3Error error, String message, String payloadHash) {
            this(accessKey, error, message, payloadHash, null);
        }

        public boolean ok() {
            return error == null;
        }

        static Verdict fail(S3Error e, String message) {
            return new Verdict(null, e, message, null);
        }
    }

    /**
     * Whether the request carries AWS credentials at all (an {@code AWS4-…} or {@code AWS …} Authorization
     * header, or a presigned query); others (no header, or HTTP Basic for the dashboard) are anonymous here.
     */
    public static boolean isSigned(String authorization, Map<String, List<String>> query) {
        return (authorization != null && authorization.startsWith("AWS")) || query.containsKey("X-Amz-Signature")
                || query.containsKey("X-Amz-Algorithm") || query.containsKey("AWSAccessKeyId");
    }

    /** Verifies {@code r} at wall time {@code nowMillis}. */
    public Verdict verify(Request r, long nowMillis) {
        if (SigV2.is(r)) {
            return SigV2.verify(r, secrets, nowMillis);
        }
        String auth = r.headers().get("authorization");
        if (auth != null && auth.startsWith("AWS")) {
            return verifyHeader(r, auth, nowMillis);
        }
        return verifyQuery(r, nowMillis);
    }

    private Verdict verifyHeader(Request r, String auth, long now) {
        if (!auth.startsWith(ALGORITHM + " ")) {
            return Verdict.fail(S3Error.INVALID_ARGUMENT, "only " + ALGORITHM + " (Signature Version 4) is supported");
        }
        Map<String, String> parts = new TreeMap<>();
        for (String p : auth.substring(ALGORITHM.length() + 1).split(",")) {
            int eq = p.indexOf('=');
            if (eq > 0) {
                parts.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
            }
        }
        String credential = parts.get("Credential");
        String signed = parts.get("SignedHeaders");
        String signature = parts.get("Signature");
        if (credential == null || signed == null || signature == null) {
            return Verdict.fail(S3Error.AUTHORIZATION_HEADER_MALFORMED,
                    "the Authorization header needs Credential, SignedHeaders and Signature: " + auth);
        }
        String amzDate = r.headers().get("x-amz-date");
        if (amzDate == null && r.headers().get("date") != null) {
            // SigV4 allows the Date header instead (botocore signs so when a Date is set): the same instant,
            // written in the string to sign as x-amz-date would be
            Long d = SigV2.httpDate(r.headers().get("date"));
            amzDate = d == null ? r.headers().get("date") : AMZ_DATE.format(Instant.ofEpochMilli(d));
        }
        if (amzDate == null) {
            return Verdict.fail(S3Error.ACCESS_DENIED, "a signed request needs an x-amz-date (or Date) header");
        }
        Long t = parseAmzDate(amzDate);
        if (t == null) {
            return Verdict.fail(S3Error.ACCESS_DENIED, "x-amz-date is not yyyyMMdd'T'HHmmss'Z': " + amzDate);
        }
        if (Math.abs(now - t) > MAX_SKEW_MS) {
            return Verdict.fail(S3Error.REQUEST_TIME_TOO_SKEWED,
                    "x-amz-date " + amzDate + " is more than 15 minutes from the server's time");
        }
        String payload = r.headers().get("x-amz-content-sha256");
        if (payload == null) {
            return Verdict.fail(S3Error.INVALID_REQUEST, "a signed request needs an x-amz-content-sha256 header");
        }
        return check(r, credential, signed, signature, amzDate, payload, null);
    }

    private Verdict verifyQuery(Request r, long now) {
        if (r.query().containsKey("AWSAccessKeyId")) {
            return Verdict.fail(S3Error.INVALID_REQUEST, "Signature Version 2 is not supported: presign with "
                    + ALGORITHM + " (boto3: Config(signature_version='s3v4'))");
        }
        String alg = first(r.query(), "X-Amz-Algorithm");
        if (!ALGORITHM.equals(alg)) {
            return Verdict.fail(S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "X-Amz-Algorithm must be " + ALGORITHM);
        }
        String credential = first(r.query(), "X-Amz-Credential");
        String signed = first(r.query(), "X-Amz-SignedHeaders");
        String signature = first(r.query(), "X-Amz-Signature");
        String amzDate = first(r.query(), "X-Amz-Date");
        String expires = first(r.query(), "X-Amz-Expires");
        if (credential == null || signed == null || signature == null || amzDate == null || expires == null) {
            return Verdict.fail(S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "a presigned URL needs X-Amz-Credential,"
                    + " X-Amz-SignedHeaders, X-Amz-Signature, X-Amz-Date and X-Amz-Expires");
        }
        Long t = parseAmzDate(amzDate);
        long seconds;
        try {
            seconds = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (t == null || seconds < 0 || seconds > MAX_EXPIRES_S) {
            return Verdict.fail(S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
                    "X-Amz-Date must be yyyyMMdd'T'HHmmss'Z' and X-Amz-Expires 0.." + MAX_EXPIRES_S);
        }
        if (now > t + seconds * 1000 || now < t - MAX_SKEW_MS) {
            return Verdict.fail(S3Error.ACCESS_DENIED, "Request has expired");
        }
        return check(r, credential, signed, signature, amzDate, UNSIGNED, "X-Amz-Signature");
    }

    private Verdict check(Request r, String credential, String signedHeaders, String signature, String amzDate,
            String payloadHash, String skipQuery) {
        String[] scope = credential.split("/");
        if (scope.length != 5 || !scope[4].equals("aws4_request")) {
            return Verdict.fail(S3Error.AUTHORIZATION_HEADER_MALFORMED,
                    "the credential must be KEY/DATE/REGION/s3/aws4_request: " + credential);
        }
        String secret = secrets.apply(scope[0]);
        if (secret == null) {
            return Verdict.fail(S3Error.INVALID_ACCESS_KEY_ID, "unknown access key id '" + scope[0] + "'");
        }
        if (!regions.contains(scope[2])) {
            return Verdict.fail(S3Error.AUTHORIZATION_HEADER_MALFORMED,
                    "the credential's region must be one of " + new TreeSet<>(regions) + ", was '" + scope[2] + "'");
        }
        if (!scope[3].equals("s3") || !amzDate.startsWith(scope[1])) {
            return Verdict.fail(S3Error.AUTHORIZATION_HEADER_MALFORMED,
                    "the credential's service must be s3 and its date the request's: " + credential);
        }
        List<String> names = List.of(signedHeaders.split(";"));
        if (!names.contains("host")) {
            return Verdict.fail(S3Error.ACCESS_DENIED, "the signed headers must include host");
        }
        String unsigned = unsignedAmzHeaders(r.headers(), names);
        if (unsigned != null) {
            return Verdict.fail(S3Error.ACCESS_DENIED, "There were headers present in the request which were not signed: "
                    + unsigned);
        }
        StringBuilder headers = new StringBuilder();
        for (String n : names) {
            String v = r.headers().get(n);
            if (v == null) {
                return Verdict.fail(S3Error.ACCESS_DENIED, "signed header '" + n + "' is missing from the request");
            }
            headers.append(n).append(':').append(collapseSpaces(v.trim())).append('\n');
        }
        String canonical = r.method() + "\n" + canonicalUri(r.rawPath()) + "\n" + canonicalQuery(r.query(), skipQuery)
                + "\n" + headers + "\n" + signedHeaders + "\n" + payloadHash;
        String scopeText = scope[1] + "/" + scope[2] + "/" + scope[3] + "/aws4_request";
        String toSign = ALGORITHM + "\n" + amzDate + "\n" + scopeText + "\n" + sha256Hex(canonical);
        byte[] key = cachedSigningKey(scope[0], secret, scope[1], scope[2], scope[3]);
        String expected = HEX.formatHex(hmac(key, toSign));
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                signature.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            return Verdict.fail(S3Error.SIGNATURE_DOES_NOT_MATCH, "The request signature we calculated does not match"
                    + " the signature you provided. Check your key and signing method.");
        }
        // a signed aws-chunked body: its chunk signatures chain from this one, under the same key and scope
        AwsChunked.Seed seed = payloadHash.startsWith(AwsChunked.SIGNED)
                ? new AwsChunked.Seed(key, amzDate, scopeText, expected) : null;
        return new Verdict(scope[0], null, null, payloadHash, seed);
    }

    /**
     * The {@code x-amz-*} headers of a request that its signature does not cover, comma-separated, or null
     * when there are none. As AWS S3 does, every such header that is present must be signed: the gateway
     * obeys them ({@code x-amz-copy-source}, {@code x-amz-acl}, object lock, SSE-C, ...), so an unsigned one
     * would let whoever holds a presigned URL change what it does. {@code x-amz-content-sha256} is exempt:
     * its value is the canonical request's payload hash (signed that way), and a presigned request's
     * payload is UNSIGNED-PAYLOAD whatever the header says.
     */
    static String unsignedAmzHeaders(Map<String, String> headers, List<String> signed) {
        StringBuilder out = null;
        for (String h : headers.keySet()) {
            if (h.startsWith("x-amz-") && !h.equals("x-amz-content-sha256") && !signed.contains(h)) {
                out = out == null ? new StringBuilder(h) : out.append(", ").append(h);
            }
        }
        return out == null ? null : out.toString();
    }

    /**
     * The derived key, remembered per access key, date and region: it changes once a day, and deriving
     * it costs four HMACs per request. At most {@link #KEY_CACHE} entries (cleared when full).
     */
    private byte[] cachedSigningKey(String accessKey, String secret, String date, String region, String service) {
        String k = accessKey + '/' + date + '/' + region + '/' + service + '/' + secret; // a changed secret is a new entry
        byte[] key = signingKeys.get(k);
        if (key == null) {
            key = signingKey(secret, date, region, service);
            if (signingKeys.size() >= KEY_CACHE) {
                signingKeys.clear();
            }
            signingKeys.put(k, key);
        }
        return key;
    }

    static final int KEY_CACHE = 256;
    private final ConcurrentHashMap<String, byte[]> signingKeys = new ConcurrentHashMap<>();

    /** The signature of {@code toSign} under the derived key (for tests and presigning). */
    public static byte[] signingKey(String secret, String date, String region, String service) {
        byte[] k = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
        k = hmac(k, region);
        k = hmac(k, service);
        return hmac(k, "aws4_request");
    }

    /** The path re-encoded as S3 signs it: each segment decoded, then every byte but unreserved ones %XX. */
    static String canonicalUri(String rawPath) {
        if (rawPath.isEmpty()) {
            return "/";
        }
        List<String> segments = new ArrayList<>();
        for (String seg : rawPath.split("/", -1)) {
            segments.add(encode(PercentCoding.decode(seg)));
        }
        return String.join("/", segments);
    }

    static String canonicalQuery(Map<String, List<String>> query, String skip) {
        List<String[]> pairs = new ArrayList<>();
        query.forEach((k, vs) -> {
            if (!k.equals(skip)) {
                for (String v : vs) {
                    pairs.add(new String[] {encode(k), encode(v)});
                }
            }
        });
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        StringBuilder sb = new StringBuilder();
        for (String[] p : pairs) {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(p[0]).append('=').append(p[1]);
        }
        return sb.toString();
    }

    /** RFC 3986 encoding as AWS specifies it: unreserved characters stay, every other UTF-8 byte becomes %XX. */
    public static String encode(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                sb.append(c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit((c >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }

    /** {@code yyyyMMdd'T'HHmmss'Z'} as epoch millis, or null when it is not that (parsed by hand: every request has one). */
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    static Long parseAmzDate(String s) {
        if (s == null || s.length() != 16 || s.charAt(8) != 'T' || s.charAt(15) != 'Z') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 4, 6);
        int day = digits(s, 6, 8);
        int hour = digits(s, 9, 11);
        int minute = digits(s, 11, 13);
        int second = digits(s, 13, 15);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
            return null;
        }
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second).toEpochSecond(ZoneOffset.UTC) * 1000;
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The decimal number in {@code s[from, to)}, or -1 when a character is not a digit. */
    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static String first(Map<String, List<String>> q, String k) {
        List<String> v = q.get(k);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    static String sha256Hex(String s) {
        return HEX.formatHex(SHA256.get().digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    public static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = HMAC.get();
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One digest and one MAC per thread: looking up a provider costs more than the hash of a small request. */
    public static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    });
    private static final ThreadLocal<Mac> HMAC = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    });

    private static final Pattern SPACES = Pattern.compile(" {2,}");

    /** A header value's runs of spaces as one (SigV4's canonical form); most values have none. */
    static String collapseSpaces(String v) {
        return v.contains("  ") ? SPACES.matcher(v).replaceAll(" ") : v;
    }
}
