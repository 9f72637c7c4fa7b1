package geoblocks.app.s3;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * ListObjectsV2 over a bucket's keys in ascending order. Each key is one item, except that with a
 * delimiter every key holding it after the prefix collapses into the common prefix up to and
 * including its first occurrence; items are unique and stay in ascending order (a common prefix sorts
 * where its first key does). A page is the first {@code maxKeys} items after both {@code startAfter}
 * (compared with keys) and the continuation token (the last item of the previous page, base64url),
 * so pages never repeat or skip an item.
 */
public final class ObjectListing {
    public static final int MAX_KEYS = 1000;

    /** One object as the bucket lists it. */
    public record Entry(String key, long size, long lastModifiedMillis, String etag) {}

    /** One page: objects, common prefixes, whether more follow, and the token for the next page. */
    public record Page(List<Entry> contents, List<String> commonPrefixes, boolean truncated, String nextToken) {
        public int keyCount() {
            return contents.size() + commonPrefixes.size();
        }
    }

    /** The request's parameters; {@code token} null for the first page. */
    public record Query(String prefix, String delimiter, String startAfter, String token, int maxKeys) {
        public Query {
            prefix = prefix == null ? "" : prefix;
            delimiter = delimiter == null ? "" : delimiter;
            startAfter = startAfter == null ? "" : startAfter;
        }
    }

    private ObjectListing() {}

    /** Parses {@code max-keys} (absent: 1000; above 1000: 1000). */
    public static int maxKeys(String value) throws S3Exception {
        if (value == null) {
            return MAX_KEYS;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.min(n, MAX_KEYS);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "max-keys must be a non-negative integer, was '" + value + "'");
        }
    }

    /** The page {@code q} asks of {@code sorted} (keys ascending, each once). */
    public static Page page(List<Entry> sorted, Query q) throws S3Exception {
        String after = q.token() == null ? null : decodeToken(q.token());
        List<Entry> contents = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = null;
        String lastItem = null;
        for (Entry e : sorted) {
            String k = e.key();
            if (!k.startsWith(q.prefix()) || k.compareTo(q.startAfter()) <= 0) {
                continue;
            }
            String item = k;
            if (!q.delimiter().isEmpty()) {
                int d = k.indexOf(q.delimiter(), q.prefix().length());
                if (d >= 0) {
                    item = k.substring(0, d + q.delimiter().length());
                }
            }
            if (item.equals(lastItem) || (after != null && item.compareTo(after) <= 0)) {
                continue;
            }
            if (contents.size() + prefixes.size() >= q.maxKeys()) {
                return new Page(contents, prefixes, true, last == null ? null : encodeToken(last));
            }
            lastItem = item;
            last = item;
            if (item.equals(k)) {
                contents.add(e);
            } else {
                prefixes.add(item);
            }
        }
        return new Page(contents, prefixes, false, null);
    }

    /** The item a token this class made stands for. */
    static String decodeTokenUnchecked(String token) {
        return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    }

    static String encodeToken(String item) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(item.getBytes(StandardCharsets.UTF_8));
    }

    static String decodeToken(String token) throws S3Exception {
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "the continuation token is not valid: '" + token + "'");
        }
    }
}
