package geoblocks.blockstore.core;

import static geoblocks.blockstore.core.ManifestKeys.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The reads of a {@link ManifestStore} in name order, each one seek of its engine and a walk of one
 * key range: live heads and listing records by prefix, histories, the names of a file and the
 * newest names. A record that does not decode, or sits under another name's key, is skipped and
 * counted as corrupt by the store. Not thread-safe: the store calls it under its lock.
 */
final class ManifestScans {
    private final ManifestStore store;

    ManifestScans(ManifestStore store) {
        this.store = store;
    }

    /**
     * Up to {@code limit} live heads whose names start with {@code prefix} and sort after
     * {@code after} (exclusive), in UTF-8 byte order; one iterator seek, no walk of other names.
     */
    List<Manifest> list(String prefix, String after, int limit) {
        List<Manifest> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        scanHistories(prefix, after, h -> {
            h.live().ifPresent(out::add);
            return out.size() < limit;
        });
        return out;
    }

    /**
     * Up to {@code limit} live names starting with {@code prefix} after {@code after} (exclusive),
     * in UTF-8 byte order, from the listing records: one seek, no history decoded.
     */
    List<Listed> listing(String prefix, String after, int limit) {
        List<Listed> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        byte[] p = key(LISTED, utf8(prefix));
        byte[] a = key(LISTED, utf8(after));
        byte[] from = Arrays.compareUnsigned(a, p) > 0 ? successor(a) : p;
        byte[] to = upperBound(p);
        if (to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return out;
        }
        try {
            store.engine().scan(from, to, (k, v) -> {
                if (Arrays.equals(k, a)) {
                    return true;
                }
                String name = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
                try {
                    out.add(Listed.decode(name, v));
                } catch (IOException | RuntimeException e) {
                    store.countCorrupt();
                }
                return out.size() < limit;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Up to {@code limit} histories (tombstoned names included) with names after {@code after}. */
    List<ManifestHistory> histories(String after, int limit) {
        List<ManifestHistory> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        scanHistories("", after, h -> {
            out.add(h);
            return out.size() < limit;
        });
        return out;
    }

    private interface HistoryVisitor {
        boolean visit(ManifestHistory h);
    }

    /**
     * As {@link #listing}, but read from the version records, so that names whose head is a
     * tombstone are listed too (size 0, no metadata; purged versions are skipped): at most {@code limit} names after {@code after}.
     */
    List<Listed> listingWithDeleted(String prefix, String after, int limit) {
        List<Listed> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        scanHistories(prefix, after, h -> {
            Manifest m = h.current().orElse(null);
            if (m == null) { // every version purged: nothing to show
                return true;
            }
            out.add(new Listed(h.name(), m.size(), m.blockSize(), m.policy(), m.uploadedAt(), m.createdMillis(),
                    m.deleted() ? Map.of() : m.meta()));
            return out.size() < limit;
        });
        return out;
    }

    private void scanHistories(String prefix, String after, HistoryVisitor v) {
        byte[] p = historyKey(prefix);
        byte[] a = historyKey(after);
        byte[] from = Arrays.compareUnsigned(a, p) > 0 ? successor(a) : p;
        byte[] to = upperBound(p);
        if (to != null && Arrays.compareUnsigned(from, to) >= 0) {
            return;
        }
        try {
            store.engine().scan(from, to, (k, value) -> {
                if (Arrays.equals(k, a)) {
                    return true;
                }
                ManifestHistory h = store.decode(value);
                if (h != null && !Arrays.equals(historyKey(h.name()), k)) {
                    store.countCorrupt(); // a record under another name's key: never served
                    return true;
                }
                return h == null || v.visit(h);
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }


    /** The names whose kept versions were uploaded as {@code fileId} (its blocks are then referenced). */
    List<String> namesOfFile(String fileId) throws IOException {
        byte[] p = ByteBuffer.allocate(2 + utf8(fileId).length).put(FILE).put(utf8(fileId)).put((byte) 0).array();
        List<String> out = new ArrayList<>();
        store.engine().scan(p, upperBound(p), (k, v) -> {
            out.add(new String(k, p.length, k.length - p.length, StandardCharsets.UTF_8));
            return true;
        });
        return out;
    }

    /** Up to {@code limit} live heads, newest first (by creation time), read from an index: no walk. */
    List<Manifest> newest(int limit) {
        List<Manifest> out = new ArrayList<>();
        try {
            store.engine().scan(new byte[] {RECENT}, new byte[] {RECENT + 1}, (k, v) -> {
                String name = new String(k, 9, k.length - 9, StandardCharsets.UTF_8);
                store.find(name).ifPresent(out::add);
                return out.size() < limit;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
