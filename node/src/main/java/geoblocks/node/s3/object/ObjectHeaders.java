package geoblocks.node.s3.object;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The headers an object keeps besides its ETag, content type and checksum: user metadata
 * ({@code x-amz-meta-*}, names lower-cased) and the standard {@link #STANDARD} headers
 * ({@code Cache-Control}, {@code Content-Disposition}, {@code Content-Encoding} without
 * {@code aws-chunked}, {@code Content-Language}, {@code Expires}), answered again on GET and HEAD.
 * User metadata is at most {@link #MAX_USER_BYTES} (S3's 2 KB: the UTF-8 bytes of every name after
 * {@code x-amz-meta-} and value), else {@code MetadataTooLarge}. Kept URL-encoded ({@code n=v&n2=v2},
 * names sorted) in a record of its own named by its content ({@link #id}), since a version's own
 * metadata holds 200 bytes. Pure.
 */
public record ObjectHeaders(Map<String, String> headers) {
    static final String USER_PREFIX = "x-amz-meta-";
    static final List<String> STANDARD = List.of("Cache-Control", "Content-Disposition", "Content-Encoding",
            "Content-Language", "Expires");
    static final int MAX_USER_BYTES = 2048;
    static final ObjectHeaders NONE = new ObjectHeaders(Map.of());

    public ObjectHeaders {
        headers = Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    boolean isEmpty() {
        return headers.isEmpty();
    }

    /** The headers kept from a request's ({@code get} reads one header by name, case-insensitively; {@code names} are all sent). */
    public static ObjectHeaders of(Iterable<String> names, Function<String, String> get) throws S3Exception {
        Map<String, String> out = new TreeMap<>();
        int userBytes = 0;
        for (String n : names) {
            String lower = n.toLowerCase(Locale.ROOT);
            if (lower.startsWith(USER_PREFIX) && lower.length() > USER_PREFIX.length() && !out.containsKey(lower)) {
                String v = get.apply(n);
                v = v == null ? "" : v.trim();
                userBytes += utf8(lower.substring(USER_PREFIX.length())) + utf8(v);
                out.put(lower, v);
            }
        }
        if (userBytes > MAX_USER_BYTES) {
            throw new S3Exception(S3Error.METADATA_TOO_LARGE, "the user metadata (x-amz-meta-*) takes " + userBytes
                    + " bytes, more than the " + MAX_USER_BYTES + " allowed");
        }
        for (String h : STANDARD) {
            String v = get.apply(h);
            if (v != null && h.equals("Content-Encoding")) {
                v = withoutAwsChunked(v);
            }
            if (v != null && !v.isEmpty()) {
                out.put(h, v);
            }
        }
        return new ObjectHeaders(out);
    }

    /** GetObject's response-* query parameters and the headers they set. */
    private static final String[][] OVERRIDES = {{"response-content-type", "Content-Type"},
        {"response-content-language", "Content-Language"}, {"response-expires", "Expires"},
        {"response-cache-control", "Cache-Control"}, {"response-content-disposition", "Content-Disposition"},
        {"response-content-encoding", "Content-Encoding"}};

    /**
     * The headers GetObject's {@code response-*} parameters set on the answer (empty when none is given), as S3
     * serves them: signed requests only (an unsigned one is {@code 400 InvalidRequest}).
     */
    static Map<String, String> responseOverrides(Function<String, String> param, boolean signed)
            throws S3Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (String[] o : OVERRIDES) {
            String v = param.apply(o[0]);
            if (v != null) {
                out.put(o[1], v);
            }
        }
        if (!out.isEmpty() && !signed) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Request specific response headers cannot be used for anonymous"
                    + " GET requests.");
        }
        return out;
    }

    /**
     * A Content-Encoding without the {@code aws-chunked} framing (S3 does not keep it); empty when nothing else.
     * A value without aws-chunked is kept as sent; otherwise the other codings are joined with ", ".
     */
    static String withoutAwsChunked(String encoding) {
        StringBuilder sb = new StringBuilder();
        boolean framed = false;
        for (String part : encoding.split(",")) {
            String p = part.trim();
            if (p.equalsIgnoreCase("aws-chunked")) {
                framed = true;
            } else if (!p.isEmpty()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(p);
            }
        }
        return framed ? sb.toString() : encoding.trim();
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    byte[] encode() {
        StringBuilder sb = new StringBuilder();
        headers.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static ObjectHeaders decode(byte[] b) throws S3Exception {
        Map<String, String> out = new TreeMap<>();
        String s = new String(b, StandardCharsets.UTF_8);
        if (s.isEmpty()) {
            return NONE;
        }
        try {
            for (String pair : s.split("&")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("no name=value in '" + pair + "'");
                }
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INTERNAL_ERROR, "a stored object headers record is damaged: " + e.getMessage());
        }
        return new ObjectHeaders(out);
    }

    /** The record's name: 20 hex digits of the SHA-256 of its encoding (the same headers share one record). */
    String id() {
        try {
            return ETags.hex(MessageDigest.getInstance("SHA-256").digest(encode())).substring(0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The user metadata alone, names without {@code x-amz-meta-}. */
    Map<String, String> userMetadata() {
        Map<String, String> out = new TreeMap<>();
        headers.forEach((k, v) -> {
            if (k.startsWith(USER_PREFIX)) {
                out.put(k.substring(USER_PREFIX.length()), v);
            }
        });
        return out;
    }
}
