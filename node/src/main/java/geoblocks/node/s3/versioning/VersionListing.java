package geoblocks.node.s3.versioning;

import geoblocks.node.s3.ObjectListing;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One page of ListObjectVersions, built from what the gateway fetched: the versions of the
 * {@code key-marker} key after {@code version-id-marker} (when both are given), then the keys and
 * common prefixes of an {@link ObjectListing} page that starts after {@code key-marker}, each key
 * expanded into its shown versions ({@link ObjectVersions#visible}), newest first. A page holds at
 * most {@code max-keys} versions and common prefixes together; when it is cut, {@code
 * NextKeyMarker} / {@code NextVersionIdMarker} name the last one it holds (a common prefix has no
 * version id), so the next request resumes right after it, inside a key's versions if need be.
 * Pure: tested against the definition in VersionListingTest.
 */
public final class VersionListing {
    private VersionListing() {}

    /** A page: versions and delete markers in key then newest-first order, common prefixes, and where to resume. */
    public record Page(List<ObjectVersions.V> versions, List<String> prefixes, boolean truncated, String nextKeyMarker,
            String nextVersionIdMarker) {}

    /** What comes after the markers, in order: a key with its shown versions, or a common prefix ({@code versions} null). */
    public record Item(String key, List<ObjectVersions.V> versions) {
        boolean prefix() {
            return versions == null;
        }
    }

    /** The versions of {@code shown} (newest first) after the one whose id is {@code versionIdMarker}; none when it is not there. */
    public static List<ObjectVersions.V> after(List<ObjectVersions.V> shown, String versionIdMarker) {
        for (int i = 0; i < shown.size(); i++) {
            if (shown.get(i).versionId().equals(versionIdMarker)) {
                return shown.subList(i + 1, shown.size());
            }
        }
        return List.of();
    }

    /** The items of an object listing page in key order: its keys (with their versions from {@code versions}) and prefixes merged. */
    public static List<Item> items(ObjectListing.Page objects, Map<String, List<ObjectVersions.V>> versions) {
        List<Item> out = new ArrayList<>();
        int k = 0;
        int p = 0;
        List<ObjectListing.Entry> keys = objects.contents();
        List<String> prefixes = objects.commonPrefixes();
        while (k < keys.size() || p < prefixes.size()) {
            boolean key = p >= prefixes.size() || (k < keys.size() && ObjectListing.compare(keys.get(k).key(), prefixes.get(p)) < 0);
            if (key) {
                String name = keys.get(k++).key();
                out.add(new Item(name, versions.getOrDefault(name, List.of())));
            } else {
                out.add(new Item(prefixes.get(p++), null));
            }
        }
        return out;
    }

    /**
     * The page: {@code markerRest} first, then {@code items}, at most {@code maxKeys} entries;
     * {@code more} says whether the object listing holds more items after {@code items}.
     */
    public static Page page(List<ObjectVersions.V> markerRest, List<Item> items, boolean more, int maxKeys) {
        List<ObjectVersions.V> out = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String lastKey = null;
        String lastId = null;
        for (ObjectVersions.V v : markerRest) {
            if (out.size() == maxKeys) {
                return new Page(out, prefixes, true, lastKey, lastId);
            }
            out.add(v);
            lastKey = v.key();
            lastId = v.versionId();
        }
        for (Item item : items) {
            if (item.prefix()) {
                if (out.size() + prefixes.size() == maxKeys) {
                    return new Page(out, prefixes, true, lastKey, lastId);
                }
                prefixes.add(item.key());
                lastKey = item.key();
                lastId = null;
                continue;
            }
            if (item.versions().isEmpty()) { // a key with nothing to show (deleted meanwhile): resume after it
                lastKey = item.key();
                lastId = null;
                continue;
            }
            for (ObjectVersions.V v : item.versions()) {
                if (out.size() + prefixes.size() == maxKeys) {
                    return new Page(out, prefixes, true, lastKey, lastId);
                }
                out.add(v);
                lastKey = v.key();
                lastId = v.versionId();
            }
        }
        return new Page(out, prefixes, more, more ? lastKey : null, more ? lastId : null);
    }
}
