package geoblocks.node.s3.object;

import geoblocks.node.s3.S3Error;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.auth.SigV4;
import geoblocks.node.s3.xml.S3Xml;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.w3c.dom.Element;

/**
 * An S3 tag set: at most {@link #MAX_OBJECT_TAGS} tags on an object ({@link #MAX_BUCKET_TAGS} on a
 * bucket), keys of 1..128 Unicode characters, values of 0..256, keys unique (S3's limits; a breach is
 * {@code InvalidTag}). Read from a {@code Tagging} document or an {@code x-amz-tagging} header
 * (URL-encoded {@code k=v&k2}), kept as that encoding (keys sorted), listed in key order. Pure.
 */
public record TagSet(Map<String, String> tags) {
    public static final int MAX_OBJECT_TAGS = 10;
    public static final int MAX_BUCKET_TAGS = 50;
    public static final int MAX_KEY = 128;
    public static final int MAX_VALUE = 256;
    public static final TagSet EMPTY = new TagSet(new TreeMap<>());

    public TagSet {
        tags = Collections.unmodifiableMap(new TreeMap<>(tags));
    }

    public int size() {
        return tags.size();
    }

    /** Checks S3's limits: {@code max} tags, key and value lengths (in Unicode code points). */
    public static void check(String key, String value) throws S3Exception {
        if (key.isEmpty() || key.codePointCount(0, key.length()) > MAX_KEY) {
            throw new S3Exception(S3Error.INVALID_TAG, "a tag key must have 1 to " + MAX_KEY + " characters, '"
                    + abbreviated(key) + "' has " + key.codePointCount(0, key.length()));
        }
        if (value.codePointCount(0, value.length()) > MAX_VALUE) {
            throw new S3Exception(S3Error.INVALID_TAG, "a tag value must have at most " + MAX_VALUE + " characters, the one"
                    + " of '" + abbreviated(key) + "' has " + value.codePointCount(0, value.length()));
        }
        if (key.toLowerCase(Locale.ROOT).startsWith("aws:")) {
            throw new S3Exception(S3Error.INVALID_TAG, "tag keys starting with 'aws:' are reserved");
        }
    }

    private static String abbreviated(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    private static TagSet limited(Map<String, String> tags, int max) throws S3Exception {
        if (tags.size() > max) {
            throw new S3Exception(S3Error.INVALID_TAG, "at most " + max + " tags are allowed, " + tags.size() + " were sent");
        }
        return new TagSet(tags);
    }

    /** The tag set of a PutObjectTagging / PutBucketTagging body. */
    public static TagSet fromXml(byte[] body, int max) throws S3Exception {
        Element root = S3Xml.parse(body, "Tagging");
        Map<String, String> tags = new TreeMap<>();
        for (Element set : S3Xml.children(root)) {
            if (!set.getLocalName().equals("TagSet")) {
                continue;
            }
            for (Element tag : S3Xml.children(set)) {
                if (!tag.getLocalName().equals("Tag")) {
                    continue;
                }
                String key = null;
                String value = null;
                for (Element f : S3Xml.children(tag)) {
                    if (f.getLocalName().equals("Key")) {
                        key = f.getTextContent();
                    } else if (f.getLocalName().equals("Value")) {
                        value = f.getTextContent();
                    }
                }
                if (key == null || value == null) {
                    throw new S3Exception(S3Error.MALFORMED_XML, "each Tag needs a Key and a Value");
                }
                check(key, value);
                if (tags.put(key, value) != null) {
                    throw new S3Exception(S3Error.INVALID_TAG, "the tag key '" + abbreviated(key) + "' is given twice");
                }
            }
        }
        return limited(tags, max);
    }

    /** The tag set of an {@code x-amz-tagging} header ({@code k=v&k2=}, URL-encoded), or EMPTY for null. */
    public static TagSet fromQuery(String query, int max) throws S3Exception {
        if (query == null || query.isEmpty()) {
            return EMPTY;
        }
        Map<String, String> tags = new TreeMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key;
            String value;
            try {
                key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-tagging is not URL-encoded: " + e.getMessage());
            }
            check(key, value);
            if (tags.put(key, value) != null) {
                throw new S3Exception(S3Error.INVALID_TAG, "the tag key '" + abbreviated(key) + "' is given twice");
            }
        }
        return limited(tags, max);
    }

    /** The stored form: {@code k=v&k2=v2}, URL-encoded, keys sorted. */
    public byte[] encode() {
        StringBuilder sb = new StringBuilder();
        tags.forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(SigV4.encode(k)).append('=').append(SigV4.encode(v));
        });
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A stored tag set (no limits checked again: they were when it was stored). */
    public static TagSet decode(byte[] stored) throws S3Exception {
        return fromQuery(new String(stored, StandardCharsets.UTF_8), Integer.MAX_VALUE);
    }

    /** The GetObjectTagging / GetBucketTagging answer. */
    public byte[] xml() {
        StringBuilder sb = new StringBuilder(S3Xml.HEAD)
                .append("<Tagging xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><TagSet>");
        tags.forEach((k, v) -> {
            sb.append("<Tag>");
            S3Xml.el(sb, "Key", k);
            S3Xml.el(sb, "Value", v);
            sb.append("</Tag>");
        });
        return sb.append("</TagSet></Tagging>").toString().getBytes(StandardCharsets.UTF_8);
    }
}
