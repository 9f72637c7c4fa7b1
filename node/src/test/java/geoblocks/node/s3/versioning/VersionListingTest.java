package geoblocks.node.s3.versioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.node.s3.ObjectListing;
import geoblocks.node.s3.S3Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * ListObjectVersions' pager, the way the gateway drives it (an ObjectListing page after the key
 * marker, the marker key's versions after the version-id marker): paging through random buckets
 * with random page sizes returns exactly the definition, every version and common prefix once, in order.
 */
class VersionListingTest {
    private static ObjectVersions.V v(String key, int n, boolean latest) {
        return new ObjectVersions.V(key, n == 0 ? "null" : String.format("%016x@seoul", n), "x", latest, n % 5 == 4, 1, n, "e");
    }

    /** One page as S3Versioning.list builds it, from the whole bucket held here. */
    private static VersionListing.Page request(TreeMap<String, List<ObjectVersions.V>> bucket, String prefix, String delimiter,
            String keyMarker, String versionIdMarker, int maxKeys) throws S3Exception {
        List<ObjectVersions.V> rest = versionIdMarker == null ? List.of()
                : VersionListing.after(bucket.getOrDefault(keyMarker, List.of()), versionIdMarker);
        List<ObjectListing.Entry> keys = bucket.keySet().stream().map(k -> new ObjectListing.Entry(k, 1, 1, "e")).toList();
        ObjectListing.Page objects = ObjectListing.page(keys, new ObjectListing.Query(prefix, delimiter, null,
                keyMarker == null ? null : ObjectListing.encodeToken(keyMarker), Math.max(1, maxKeys)));
        return VersionListing.page(rest, VersionListing.items(objects, bucket), objects.truncated(), maxKeys);
    }

    /** Every version and common prefix of the bucket under the prefix, in order: the definition. */
    private static List<String> definition(TreeMap<String, List<ObjectVersions.V>> bucket, String prefix, String delimiter) {
        List<String> out = new ArrayList<>();
        String lastPrefix = null;
        for (Map.Entry<String, List<ObjectVersions.V>> e : bucket.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(prefix)) {
                continue;
            }
            int d = delimiter.isEmpty() ? -1 : key.indexOf(delimiter, prefix.length());
            if (d >= 0) {
                String cp = key.substring(0, d + delimiter.length());
                if (!cp.equals(lastPrefix)) {
                    out.add("P " + cp);
                    lastPrefix = cp;
                }
                continue;
            }
            for (ObjectVersions.V v : e.getValue()) {
                out.add(v.key() + " " + v.versionId());
            }
        }
        return out;
    }

    @Test
    void pagingWithRandomPageSizes_returnsTheDefinition_eachEntryOnce() throws S3Exception {
        Random r = new Random(24);
        String[] parts = {"a", "b", "a/", "b/", "c/d", "é", "z"};
        for (int round = 0; round < 300; round++) {
            TreeMap<String, List<ObjectVersions.V>> bucket = new TreeMap<>(ObjectListing::compare);
            int n = r.nextInt(12);
            for (int i = 0; i < n; i++) {
                String key = parts[r.nextInt(parts.length)] + parts[r.nextInt(parts.length)] + i;
                List<ObjectVersions.V> vs = new ArrayList<>();
                int count = 1 + r.nextInt(4);
                for (int j = 0; j < count; j++) {
                    vs.add(v(key, r.nextInt(3) == 0 && j == count - 1 ? 0 : 1 + round * 100 + i * 10 + (count - j), j == 0));
                }
                bucket.put(key, vs);
            }
            String prefix = r.nextBoolean() ? "" : parts[r.nextInt(parts.length)];
            String delimiter = r.nextBoolean() ? "" : "/";
            int maxKeys = 1 + r.nextInt(4);
            List<String> got = new ArrayList<>();
            String keyMarker = null;
            String versionMarker = null;
            for (int pages = 0; ; pages++) {
                assertTrue(pages < 100, "paging ends");
                VersionListing.Page p = request(bucket, prefix, delimiter, keyMarker, versionMarker, maxKeys);
                assertTrue(p.versions().size() + p.prefixes().size() <= maxKeys);
                List<String> page = new ArrayList<>();
                p.versions().forEach(v -> page.add(v.key() + " " + v.versionId()));
                p.prefixes().forEach(cp -> page.add("P " + cp));
                page.sort((x, y) -> ObjectListing.compare(x.startsWith("P ") ? x.substring(2) : x.substring(0, x.indexOf(' ')),
                        y.startsWith("P ") ? y.substring(2) : y.substring(0, y.indexOf(' '))));
                got.addAll(page);
                if (!p.truncated()) {
                    assertNull(p.nextKeyMarker());
                    break;
                }
                keyMarker = p.nextKeyMarker();
                versionMarker = p.nextVersionIdMarker();
            }
            assertEquals(definition(bucket, prefix, delimiter), got, "round " + round + ", " + bucket.keySet() + " prefix '"
                    + prefix + "' delimiter '" + delimiter + "' max-keys " + maxKeys);
        }
    }

    @Test
    void aPageCutInsideAKeysVersions_resumesAfterItsLastVersion() throws S3Exception {
        TreeMap<String, List<ObjectVersions.V>> bucket = new TreeMap<>();
        bucket.put("k", List.of(v("k", 3, true), v("k", 2, false), v("k", 1, false)));
        bucket.put("m", List.of(v("m", 7, true)));
        VersionListing.Page first = request(bucket, "", "", null, null, 2);
        assertTrue(first.truncated());
        assertEquals("k", first.nextKeyMarker());
        assertEquals(String.format("%016x@seoul", 2), first.nextVersionIdMarker());
        VersionListing.Page second = request(bucket, "", "", first.nextKeyMarker(), first.nextVersionIdMarker(), 2);
        assertEquals(List.of(v("k", 1, false), v("m", 7, true)), second.versions());
        assertFalse(second.truncated());
    }

    @Test
    void aVersionIdMarkerNoLongerThere_resumesAtTheNextKey() throws S3Exception {
        TreeMap<String, List<ObjectVersions.V>> bucket = new TreeMap<>();
        bucket.put("k", List.of(v("k", 3, true)));
        bucket.put("m", List.of(v("m", 7, true)));
        assertEquals(List.of(v("m", 7, true)), request(bucket, "", "", "k", "00000000000000aa@seoul", 10).versions());
    }
}
