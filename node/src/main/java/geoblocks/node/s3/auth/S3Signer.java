package geoblocks.node.s3.auth;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Client-side AWS Signature V4 for header-signed requests (tools such as {@code bench meta} that
 * talk S3 to geoblocks or to another store): the same canonical request {@link SigV4} checks.
 * Returns the headers to send: {@code Host}, {@code x-amz-date}, {@code x-amz-content-sha256} and
 * {@code Authorization}.
 */
public final class S3Signer {
    private static final DateTimeFormatter AMZ = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private final String accessKey;
    private final String secret;
    private final String region;
    /** The signing key and its date: derived once a day (four HMACs), not per request. */
    private volatile DatedKey key;

    private record DatedKey(String date, byte[] key) {}

    public S3Signer(String accessKey, String secret, String region) {
        this.accessKey = accessKey;
        this.secret = secret;
        this.region = region;
    }

    /** SHA-256 of a body, hex (the x-amz-content-sha256 of a signed payload). */
    public static String payloadHash(byte[] body) {
        return HexFormat.of().formatHex(SigV4.SHA256.get().digest(body));
    }

    /** URI-encodes one path segment or query value as S3 signs it. */
    public static String encode(String s) {
        return SigV4.encode(s);
    }

    /**
     * Headers signing {@code method host rawPath?query} with {@code payloadHash} at {@code now};
     * {@code rawPath} is already encoded (each segment with {@link #encode}).
     */
    public Map<String, String> sign(String method, String host, String rawPath, Map<String, String> query,
            String payloadHash, Instant now) {
        String amzDate = AMZ.format(now);
        String date = amzDate.substring(0, 8);
        Map<String, List<String>> q = new TreeMap<>();
        query.forEach((k, v) -> q.put(k, List.of(v)));
        String canonicalHeaders = "host:" + host + "\nx-amz-content-sha256:" + payloadHash + "\nx-amz-date:" + amzDate + "\n";
        String signed = "host;x-amz-content-sha256;x-amz-date";
        String canonical = method + "\n" + SigV4.canonicalUri(rawPath) + "\n" + SigV4.canonicalQuery(q, null) + "\n"
                + canonicalHeaders + "\n" + signed + "\n" + payloadHash;
        String scope = date + "/" + region + "/s3/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + SigV4.sha256Hex(canonical);
        String sig = HexFormat.of().formatHex(SigV4.hmac(signingKey(date), toSign));
        Map<String, String> h = new LinkedHashMap<>();
        h.put("x-amz-date", amzDate);
        h.put("x-amz-content-sha256", payloadHash);
        h.put("Authorization", "AWS4-HMAC-SHA256 Credential=" + accessKey + "/" + scope + ", SignedHeaders=" + signed
                + ", Signature=" + sig);
        return h;
    }

    private byte[] signingKey(String date) {
        DatedKey k = key;
        if (k == null || !k.date().equals(date)) {
            k = new DatedKey(date, SigV4.signingKey(secret, date, region, "s3"));
            key = k;
        }
        return k.key();
    }
}
