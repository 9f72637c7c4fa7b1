package geoblocks.blockstore.core;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded histories of recently used names, least recently used out first: at most
 * {@code maxEntries} of them and {@code maxBytes} of their encodings (inline objects make some
 * histories kilobytes long). The most recent one stays whatever its size. Not thread-safe.
 */
final class HistoryCache {
    private record Cached(ManifestHistory history, int bytes) {}

    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<String, Cached> map = new LinkedHashMap<>(256, 0.75f, true);
    private long bytes;

    HistoryCache(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The cached history of {@code name}, or null. */
    ManifestHistory get(String name) {
        Cached c = map.get(name);
        return c == null ? null : c.history();
    }

    /** Caches {@code h} (its encoding {@code size} bytes long) as the history of {@code name}. */
    void put(String name, ManifestHistory h, int size) {
        Cached old = map.put(name, new Cached(h, size));
        bytes += size - (old == null ? 0 : old.bytes());
        Iterator<Map.Entry<String, Cached>> eldest = map.entrySet().iterator();
        while (map.size() > 1 && (map.size() > maxEntries || bytes > maxBytes)) {
            bytes -= eldest.next().getValue().bytes();
            eldest.remove();
        }
    }

    void remove(String name) {
        Cached old = map.remove(name);
        if (old != null) {
            bytes -= old.bytes();
        }
    }

    /** Histories cached now, and their encoded bytes. */
    long[] stats() {
        return new long[] {map.size(), bytes};
    }
}
