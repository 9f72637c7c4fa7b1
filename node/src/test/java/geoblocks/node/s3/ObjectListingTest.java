package geoblocks.node.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.core.Manifest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ObjectListingTest {
    static List<ObjectListing.Entry> keys(String... ks) {
        List<ObjectListing.Entry> out = new ArrayList<>();
        for (String k : ks) {
            out.add(new ObjectListing.Entry(k, 1, 0, null));
        }
        return out;
    }

    static List<String> names(ObjectListing.Page p) {
        return p.contents().stream().map(ObjectListing.Entry::key).toList();
    }

    static final List<ObjectListing.Entry> TREE = keys("a!", "a/1", "a/2", "a/b/3", "a0", "b/x", "c");

    @Test
    void prefixAndDelimiter_collapseIntoCommonPrefixes() throws Exception {
        ObjectListing.Page p = ObjectListing.page(TREE, new ObjectListing.Query("", "/", null, null, 1000));
        assertEquals(List.of("a!", "a0", "c"), names(p));
        assertEquals(List.of("a/", "b/"), p.commonPrefixes());
        assertFalse(p.truncated());
        ObjectListing.Page under = ObjectListing.page(TREE, new ObjectListing.Query("a/", "/", null, null, 1000));
        assertEquals(List.of("a/1", "a/2"), names(under));
        assertEquals(List.of("a/b/"), under.commonPrefixes());
    }

    @Test
    void pagesOfOne_visitEveryItemOnceInOrder() throws Exception {
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ObjectListing.Page p = ObjectListing.page(TREE, new ObjectListing.Query("", "/", null, token, 1));
            assertEquals(1, p.keyCount());
            seen.addAll(names(p));
            seen.addAll(p.commonPrefixes());
            token = p.nextToken();
            assertEquals(token != null, p.truncated());
            pages++;
        } while (token != null);
        assertEquals(List.of("a!", "a/", "a0", "b/", "c"), seen);
        assertEquals(5, pages);
    }

    @Test
    void startAfter_andNoDelimiter_listKeysAfterIt() throws Exception {
        ObjectListing.Page p = ObjectListing.page(TREE, new ObjectListing.Query("a", null, "a/1", null, 2));
        assertEquals(List.of("a/2", "a/b/3"), names(p));
        assertTrue(p.truncated());
        ObjectListing.Page next = ObjectListing.page(TREE, new ObjectListing.Query("a", null, "a/1", p.nextToken(), 2));
        assertEquals(List.of("a0"), names(next));
        assertFalse(next.truncated());
    }

    @Test
    void maxKeys_andBadTokens_areChecked() throws Exception {
        assertEquals(1000, ObjectListing.maxKeys(null));
        assertEquals(1000, ObjectListing.maxKeys("5000"));
        assertEquals(7, ObjectListing.maxKeys("7"));
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class, () -> ObjectListing.maxKeys("-1")).error());
        assertEquals(S3Error.INVALID_ARGUMENT, assertThrows(S3Exception.class,
                () -> ObjectListing.page(TREE, new ObjectListing.Query("", "", null, "***", 10))).error());
    }

    /** A node's listing of a bucket: pages of keys under a prefix after a key, at most {@code cap} a page. */
    static final class FakeNode {
        final List<ObjectListing.Entry> sorted;
        final int cap;
        int fetches;
        long keysSent;

        FakeNode(List<ObjectListing.Entry> keys, int cap) {
            sorted = new ArrayList<>(keys);
            sorted.sort((a, b) -> ObjectListing.compare(a.key(), b.key()));
            this.cap = cap;
        }

        ObjectListing.Page list(ObjectListing.Query q) throws S3Exception {
            ObjectListing.Pager p = new ObjectListing.Pager(q);
            for (ObjectListing.Fetch f = p.next(); f != null; f = p.next()) {
                fetches++;
                List<ObjectListing.Entry> out = new ArrayList<>();
                boolean more = false;
                // one seek: the first key after f.after() (or the prefix), then keys in order while they hold the prefix
                String from = ObjectListing.compare(f.after(), q.prefix()) > 0 ? f.after() : q.prefix();
                int lo = 0;
                int hi = sorted.size();
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    int c = ObjectListing.compare(sorted.get(mid).key(), from);
                    if (c < 0 || (c == 0 && from.equals(f.after()))) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                for (int i = lo; i < sorted.size(); i++) {
                    String k = sorted.get(i).key();
                    if (!k.startsWith(q.prefix())) {
                        if (ObjectListing.compare(k, q.prefix()) > 0) {
                            break;
                        }
                        continue;
                    }
                    if (out.size() == Math.min(f.limit(), cap)) {
                        more = true;
                        break;
                    }
                    out.add(sorted.get(i));
                }
                keysSent += out.size();
                p.accept(out, more);
            }
            return p.page();
        }
    }

    /** The page by definition: every key in order, folded, filtered by start-after and the token's item. */
    static ObjectListing.Page reference(List<ObjectListing.Entry> keys, ObjectListing.Query q) {
        List<ObjectListing.Entry> sorted = new ArrayList<>(keys);
        sorted.sort((a, b) -> ObjectListing.compare(a.key(), b.key()));
        String after = q.token() == null ? null : ObjectListing.decodeTokenUnchecked(q.token());
        List<ObjectListing.Entry> contents = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = null;
        for (ObjectListing.Entry e : sorted) {
            String k = e.key();
            if (!k.startsWith(q.prefix()) || ObjectListing.compare(k, q.startAfter()) <= 0) {
                continue;
            }
            String item = k;
            boolean folded = false;
            if (!q.delimiter().isEmpty()) {
                int d = k.indexOf(q.delimiter(), q.prefix().length());
                if (d >= 0) {
                    item = k.substring(0, d + q.delimiter().length());
                    folded = true;
                }
            }
            if (item.equals(last) || (after != null && ObjectListing.compare(item, after) <= 0)) {
                continue;
            }
            if (contents.size() + prefixes.size() >= q.maxKeys()) {
                // max-keys 0: S3 answers an empty page that is not truncated
                return new ObjectListing.Page(contents, prefixes, q.maxKeys() > 0,
                        last == null ? null : ObjectListing.encodeToken(last));
            }
            last = item;
            if (folded) {
                prefixes.add(item);
            } else {
                contents.add(e);
            }
        }
        return new ObjectListing.Page(contents, prefixes, false, null);
    }

    @Test
    void keys_sortInUtf8ByteOrder_asS3AndTheNodeDo() throws Exception {
        // U+E000 is EE 80 80 in UTF-8 and sorts before U+1F600 (F0 9F 98 80); Java's UTF-16 order is the reverse
        List<ObjectListing.Entry> keys = keys("a\uD83D\uDE00", "a\uE000", "a~");
        assertEquals(List.of("a~", "a\uE000", "a\uD83D\uDE00"), names(ObjectListing.page(keys,
                new ObjectListing.Query("", "", null, null, 10))));
        ObjectListing.Page first = ObjectListing.page(keys, new ObjectListing.Query("", "", null, null, 2));
        assertEquals(List.of("a~", "a\uE000"), names(first));
        assertEquals(List.of("a\uD83D\uDE00"), names(ObjectListing.page(keys,
                new ObjectListing.Query("", "", null, first.nextToken(), 2))));
        assertEquals(List.of("a\uD83D\uDE00"), names(ObjectListing.page(keys,
                new ObjectListing.Query("", "", "a\uE000", null, 2))));
    }

    @Test
    void afterAll_sortsAfterEveryKeyUnderThePrefix_andBeforeTheNextOne() {
        String cp = "photos/2024/";
        String end = ObjectListing.afterAll(cp);
        assertTrue(end.getBytes(StandardCharsets.UTF_8).length > Manifest.MAX_NAME_BYTES);
        for (String under : List.of(cp, cp + "a", cp + "\uDBFF\uDFFF", cp + "\uFFFF".repeat(300),
                cp + "\uDBFF\uDFFF".repeat((Manifest.MAX_NAME_BYTES - cp.length()) / 4))) {
            assertTrue(ObjectListing.compare(under, end) < 0, under.length() + " chars");
        }
        for (String next : List.of("photos/20240", "photos/2025", "photos/2024\u0080", "q")) {
            assertTrue(ObjectListing.compare(next, end) > 0, next);
        }
    }

    @Test
    void aDelimiter_seeksPastLargeCommonPrefixes_insteadOfReadingThem() throws Exception {
        List<ObjectListing.Entry> bucket = new ArrayList<>();
        for (String dir : List.of("a", "b", "c", "d")) {
            for (int i = 0; i < 5_000; i++) {
                bucket.add(new ObjectListing.Entry(dir + "/" + String.format("%06d", i), 1, 0, null));
            }
        }
        bucket.addAll(keys("a.txt", "z"));
        FakeNode node = new FakeNode(bucket, ObjectListing.FETCH);
        ObjectListing.Page p = node.list(new ObjectListing.Query("", "/", null, null, 1000));
        assertEquals(List.of("a.txt", "z"), names(p));
        assertEquals(List.of("a/", "b/", "c/", "d/"), p.commonPrefixes());
        assertFalse(p.truncated());
        assertTrue(node.keysSent < 2_500, node.keysSent + " keys read of " + bucket.size());
        assertTrue(node.fetches <= 6, node.fetches + " fetches");

        // pages of one common prefix each: a seek per page, a handful of keys read
        FakeNode again = new FakeNode(bucket, ObjectListing.FETCH);
        String token = null;
        List<String> items = new ArrayList<>();
        do {
            ObjectListing.Page one = again.list(new ObjectListing.Query("", "/", null, token, 1));
            items.addAll(names(one));
            items.addAll(one.commonPrefixes());
            token = one.nextToken();
        } while (token != null);
        assertEquals(List.of("a.txt", "a/", "b/", "c/", "d/", "z"), items);
        assertTrue(again.keysSent < 2_000, again.keysSent + " keys read for six pages");
    }

    @Test
    void aPageWithoutDelimiter_asksForWhatItNeeds_plusOneToKnowItIsTruncated() throws Exception {
        List<ObjectListing.Entry> bucket = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            bucket.add(new ObjectListing.Entry(String.format("logs/%05d", i), 1, 0, null));
        }
        FakeNode node = new FakeNode(bucket, ObjectListing.FETCH);
        ObjectListing.Page p = node.list(new ObjectListing.Query("logs/", null, "logs/01000", null, 10));
        assertEquals(10, p.keyCount());
        assertEquals("logs/01001", p.contents().get(0).key());
        assertTrue(p.truncated());
        assertEquals(1, node.fetches);
        assertEquals(11, node.keysSent);
        // a page of 1,000 keys: the node's page holds 1,000 and says more follow: truncated without another fetch
        FakeNode full = new FakeNode(bucket, ObjectListing.FETCH);
        ObjectListing.Page big = full.list(new ObjectListing.Query("", "", null, null, 1000));
        assertTrue(big.truncated());
        assertEquals(1, full.fetches);
        // a node that cuts its pages short (its byte bound): the same page, in more fetches
        FakeNode small = new FakeNode(bucket, 37);
        ObjectListing.Page same = small.list(new ObjectListing.Query("", "", null, null, 1000));
        assertEquals(names(big), names(same));
        assertEquals(big.nextToken(), same.nextToken());
        assertTrue(small.fetches >= 1000 / 37, small.fetches + " fetches");
    }

    @Test
    void maxKeysZero_isAnEmptyPage_notTruncated_withoutAToken_asS3Answers() throws Exception {
        FakeNode node = new FakeNode(TREE, ObjectListing.FETCH);
        ObjectListing.Page p = node.list(new ObjectListing.Query("", "/", null, null, 0));
        assertEquals(0, p.keyCount());
        assertFalse(p.truncated()); // AWS: IsTruncated false (a truncated page without a token would leave clients looping)
        assertNull(p.nextToken());
        assertTrue(node.keysSent <= 1, node.keysSent + " keys read");
        assertFalse(node.list(new ObjectListing.Query("zz", "/", null, null, 0)).truncated());
    }

    @Test
    void longestKeys_listAndPage_likeShortOnes() throws Exception {
        String base = "d/" + "k".repeat(S3Names.MAX_KEY_BYTES - 6);
        List<ObjectListing.Entry> bucket = keys(base + "/aa", base + "/ab", base + "b", "d/" + "\u00e9".repeat(511));
        for (ObjectListing.Entry e : bucket) {
            assertTrue(e.key().getBytes(StandardCharsets.UTF_8).length <= S3Names.MAX_KEY_BYTES);
        }
        FakeNode node = new FakeNode(bucket, 1);
        ObjectListing.Page first = node.list(new ObjectListing.Query("d/", "/", null, null, 1));
        assertEquals(List.of(base + "/"), first.commonPrefixes());
        ObjectListing.Page second = node.list(new ObjectListing.Query("d/", "/", null, first.nextToken(), 5));
        assertEquals(List.of(base + "b", "d/" + "\u00e9".repeat(511)), names(second));
        assertFalse(second.truncated());
    }

    /**
     * Random buckets, queries and node page sizes: every page equals the page by definition, and
     * following the tokens visits every item once.
     */
    @Test
    void randomListings_matchTheDefinition_pageAfterPage() throws Exception {
        Random r = new Random(22);
        String[] parts = {"a", "b", "/", "//", "\u00e9", "\uE000", "\uD83D\uDE00", "-", "a/", "~"};
        for (int round = 0; round < 200; round++) {
            Set<String> ks = new TreeSet<>();
            int n = r.nextInt(60);
            for (int i = 0; i < n; i++) {
                StringBuilder k = new StringBuilder();
                int len = 1 + r.nextInt(5);
                for (int j = 0; j < len; j++) {
                    k.append(parts[r.nextInt(parts.length)]);
                }
                ks.add(k.toString());
            }
            List<ObjectListing.Entry> bucket = keys(ks.toArray(new String[0]));
            String prefix = r.nextInt(3) == 0 ? parts[r.nextInt(parts.length)] : "";
            String delimiter = r.nextBoolean() ? "" : r.nextBoolean() ? "/" : parts[r.nextInt(parts.length)];
            String startAfter = r.nextInt(4) == 0 && !ks.isEmpty() ? new ArrayList<>(ks).get(r.nextInt(ks.size())) : null;
            int maxKeys = r.nextInt(6);
            FakeNode node = new FakeNode(bucket, 1 + r.nextInt(4));
            String token = null;
            int pages = 0;
            List<String> all = new ArrayList<>();
            List<String> allWant = new ArrayList<>();
            do {
                ObjectListing.Query q = new ObjectListing.Query(prefix, delimiter, startAfter, token, maxKeys);
                ObjectListing.Page got = node.list(q);
                ObjectListing.Page want = reference(bucket, q);
                String what = "round " + round + " " + q + " over " + ks;
                assertEquals(names(want), names(got), what);
                assertEquals(want.commonPrefixes(), got.commonPrefixes(), what);
                assertEquals(want.truncated(), got.truncated(), what);
                assertEquals(want.nextToken(), got.nextToken(), what);
                all.addAll(names(got));
                all.addAll(got.commonPrefixes());
                token = got.nextToken();
                pages++;
            } while (token != null && pages < 100);
            assertTrue(pages < 100);
            if (maxKeys > 0) {
                ObjectListing.Page whole = reference(bucket, new ObjectListing.Query(prefix, delimiter, startAfter, null, 1000));
                allWant.addAll(names(whole));
                allWant.addAll(whole.commonPrefixes());
                Collections.sort(all, ObjectListing::compare);
                Collections.sort(allWant, ObjectListing::compare);
                assertEquals(allWant, all, "round " + round);
            }
        }
    }

    @Test
    void overlongStartAfterMarkerAndPrefix_areAnsweredWithoutSendingThemToTheNode() throws Exception {
        int max = Manifest.MAX_NAME_BYTES;
        List<ObjectListing.Entry> bucket = keys("a", "b" + "x".repeat(1000), "c");
        String longAfter = "b" + "x".repeat(3000);
        String cut = ObjectListing.clamp(longAfter);
        assertTrue(cut.length() > max && cut.length() <= max + 4, cut.length() + " chars");
        String wide = "b" + "\u00e9".repeat(2000);
        int wideBytes = ObjectListing.clamp(wide).getBytes(StandardCharsets.UTF_8).length;
        assertTrue(wideBytes > max && wideBytes <= max + 4, wideBytes + " bytes");
        assertEquals("short", ObjectListing.clamp("short"));
        for (ObjectListing.Query q : List.of(new ObjectListing.Query("", "", longAfter, null, 10),
                new ObjectListing.Query("", "", null, ObjectListing.encodeToken(longAfter), 10),
                new ObjectListing.Query("", "/", null, ObjectListing.encodeToken(wide), 10))) {
            ObjectListing.Pager p = new ObjectListing.Pager(q);
            ObjectListing.Fetch f = p.next();
            assertTrue(f.after().getBytes(StandardCharsets.UTF_8).length <= max + 4);
            assertEquals(names(reference(bucket, q)), names(new FakeNode(bucket, 1000).list(q)), q.toString());
        }
        ObjectListing.Pager none = new ObjectListing.Pager(new ObjectListing.Query("p".repeat(max + 1), "", null, null, 10));
        assertEquals(null, none.next());
        assertEquals(0, none.page().keyCount());
        assertFalse(none.page().truncated());
    }
}
