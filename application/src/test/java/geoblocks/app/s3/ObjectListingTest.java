package geoblocks.app.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
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
}
