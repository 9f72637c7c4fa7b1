package geoblocks.node.s3;

import geoblocks.blockstore.core.Manifest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * ListObjectsV2 (and v1) paging: which keys a page holds and what to ask the node for to build it.
 * Keys are in UTF-8 byte order (S3's order, and the node's). Each key is one item, except that with
 * a delimiter every key holding it after the prefix collapses into the common prefix up to and
 * including its first occurrence there; items are unique and stay in ascending order (a common
 * prefix sorts where its first key does). A page is the first {@code maxKeys} items whose keys sort
 * after {@code startAfter} and which themselves sort after the continuation token's item (the last
 * item of the previous page, base64url), so pages never repeat or skip an item.
 *
 * <p>A page is built by a {@link Pager} from pages of the node's listing ({@link Fetch}: keys under
 * the prefix after a key, one seek each), never from the whole bucket: it starts after the later of
 * {@code startAfter} and the token, asks for about as many keys as the page still needs, and when a
 * fetch ends inside a common prefix it seeks past every key under it ({@link #afterAll}) instead of
 * reading them. Pure: no I/O; {@link #page} runs a pager over a sorted list.
 */
public final class ObjectListing {
    public static final int MAX_KEYS = 1000;
    /** Most keys asked of the node in one fetch (its page bound). */
    public static final int FETCH = 1000;
    /** Fewest keys asked in one fetch after fetches kept ending inside large common prefixes. */
    static final int MIN_FETCH = 16;

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

    /**
     * What to ask the node next: up to {@code limit} keys (the node may answer fewer) that start
     * with the query's prefix and sort after {@code after} ("" for the start of the prefix).
     */
    public record Fetch(String after, int limit) {}

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

    /**
     * Builds one page from the node's answers: {@link #next} says what to fetch (null once the page is
     * complete), {@link #accept} takes the answer, {@link #page} gives the result. Not thread-safe; one
     * fetch at a time.
     */
    public static final class Pager {
        private final Query q;
        private final List<Entry> contents = new ArrayList<>();
        private final List<String> prefixes = new ArrayList<>();
        /** Where the next fetch starts (exclusive). */
        private String after;
        /** The last item of the page so far (or the token's item): keys rolling up into it are skipped. */
        private String lastItem;
        private boolean lastIsPrefix;
        private boolean done;
        private boolean truncated;
        private int hint = FETCH;
        private int fetches;
        private long keysRead;

        public Pager(Query q) throws S3Exception {
            this.q = q;
            String start = q.startAfter();
            if (q.token() != null) {
                String item = decodeToken(q.token());
                lastItem = item;
                // every key whose item sorts at or before the token's item is behind us: the keys up to
                // it and, when it lies in a common prefix, every key under that prefix
                String cp = commonPrefix(item);
                String resume = cp != null ? afterAll(cp) : item;
                if (compare(resume, start) > 0) {
                    start = resume;
                }
            }
            after = clamp(start);
            // no name is longer: nothing can match (and the node is never sent a prefix it would refuse)
            done = utf8(q.prefix()).length > Manifest.MAX_NAME_BYTES;
        }

        /** The next fetch, or null when the page is complete. */
        public Fetch next() {
            if (done) {
                return null;
            }
            int remaining = q.maxKeys() - count();
            // a full page needs one more item to know it is truncated; keys under the last common
            // prefix are skipped by the seek, so one key is enough
            int limit = remaining <= 0 ? 1 : Math.min(Math.min(remaining + 1, FETCH), Math.max(hint, MIN_FETCH));
            return new Fetch(after, limit);
        }

        /**
         * The node's answer to the last {@link #next}: keys ascending (relative to the bucket, under the
         * prefix, after the fetch's {@code after}), and whether it holds more after the last one.
         */
        public void accept(List<Entry> keys, boolean more) {
            fetches++;
            keysRead += keys.size();
            int added = 0;
            int fresh = 0;
            for (Entry e : keys) {
                String k = e.key();
                if (!k.startsWith(q.prefix()) || compare(k, after) <= 0) {
                    continue; // not what was asked: never moves the page backwards
                }
                fresh++;
                String cp = commonPrefix(k);
                String item = cp != null ? cp : k;
                if (item.equals(lastItem) || compare(k, q.startAfter()) <= 0) {
                    continue;
                }
                if (count() >= q.maxKeys()) {
                    truncated = true;
                    done = true;
                    return;
                }
                lastItem = item;
                lastIsPrefix = cp != null;
                added++;
                if (cp != null) {
                    prefixes.add(cp);
                } else {
                    contents.add(e);
                }
            }
            if (!more || fresh == 0) {
                done = true; // the end, or an answer that would not move on
                return;
            }
            String lastKey = keys.get(keys.size() - 1).key();
            after = compare(lastKey, after) > 0 ? lastKey : after;
            if (lastIsPrefix && lastKey.startsWith(lastItem)) {
                // the fetch ended inside a common prefix: seek past it rather than read the rest of its keys;
                // fetches that mostly fold into prefixes ask for fewer keys next time
                after = afterAll(lastItem);
                hint = added * 4 < keys.size() ? Math.max(MIN_FETCH, hint / 4) : Math.min(FETCH, hint * 4);
            } else {
                hint = Math.min(FETCH, hint * 4);
            }
            if (count() >= q.maxKeys() && !lastIsPrefix) {
                // the node holds a key after the page's last key, and it is a new item
                truncated = true;
                done = true;
            }
        }

        private int count() {
            return contents.size() + prefixes.size();
        }

        /** The common prefix {@code key} folds into, or null (no delimiter, or none after the prefix). */
        private String commonPrefix(String key) {
            if (q.delimiter().isEmpty() || !key.startsWith(q.prefix())) {
                return null;
            }
            int d = key.indexOf(q.delimiter(), q.prefix().length());
            return d < 0 ? null : key.substring(0, d + q.delimiter().length());
        }

        /** The page (complete once {@link #next} is null). */
        public Page page() {
            String last = count() == 0 ? null : lastItem;
            // max-keys 0 asks for no items: an empty page that is not truncated (as S3), not one without a token
            boolean more = truncated && q.maxKeys() > 0;
            return new Page(List.copyOf(contents), List.copyOf(prefixes), more, more && last != null ? encodeToken(last) : null);
        }

        /** Fetches answered so far. */
        public int fetches() {
            return fetches;
        }

        /** Keys the node sent so far. */
        public long keysRead() {
            return keysRead;
        }
    }

    /**
     * A key after every name that starts with {@code prefix} and before every other name after it:
     * the prefix followed by U+10FFFF (the largest code point, UTF-8 F4 8F BF BF) until it is longer
     * than any file name ({@link Manifest#MAX_NAME_BYTES}). A fetch after it seeks past the prefix.
     */
    public static String afterAll(String prefix) {
        StringBuilder sb = new StringBuilder(prefix);
        int bytes = utf8(prefix).length;
        while (bytes <= Manifest.MAX_NAME_BYTES) {
            sb.appendCodePoint(Character.MAX_CODE_POINT);
            bytes += 4;
        }
        return sb.toString();
    }

    /**
     * {@code after} cut just beyond the longest name ({@link Manifest#MAX_NAME_BYTES}), at a character
     * boundary: every name compares with the cut string as with the whole (a name that differs from
     * it does so within its own length, and one that is its prefix is shorter than both), and a
     * start-after, marker or token of any length then fits the node's request.
     */
    static String clamp(String after) {
        if (utf8(after).length <= Manifest.MAX_NAME_BYTES + 4) {
            return after;
        }
        int bytes = 0;
        int i = 0;
        while (bytes <= Manifest.MAX_NAME_BYTES) {
            int cp = after.codePointAt(i);
            bytes += utf8(new String(Character.toChars(cp))).length;
            i += Character.charCount(cp);
        }
        return after.substring(0, i);
    }

    /** S3's (and the node's) order: UTF-8 bytes, unsigned. */
    public static int compare(String a, String b) {
        return Arrays.compareUnsigned(utf8(a), utf8(b));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The page {@code q} asks of {@code keys} (each key once, any order): a {@link Pager} run against
     * the list as the node would serve it, {@code perFetch} keys at most per fetch.
     */
    public static Page page(List<Entry> keys, Query q) throws S3Exception {
        return run(keys, q, FETCH);
    }

    static Page run(List<Entry> keys, Query q, int perFetch) throws S3Exception {
        List<Entry> sorted = new ArrayList<>(keys);
        sorted.sort((x, y) -> compare(x.key(), y.key()));
        Pager p = new Pager(q);
        for (Fetch f = p.next(); f != null; f = p.next()) {
            List<Entry> out = new ArrayList<>();
            boolean more = false;
            for (Entry e : sorted) {
                if (e.key().startsWith(q.prefix()) && compare(e.key(), f.after()) > 0) {
                    if (out.size() == Math.min(f.limit(), perFetch)) {
                        more = true;
                        break;
                    }
                    out.add(e);
                }
            }
            p.accept(out, more);
        }
        return p.page();
    }

    /** The item a token this class made stands for. */
    public static String decodeTokenUnchecked(String token) {
        return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    }

    public static String encodeToken(String item) {
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
