package geoblocks.node.s3.object;

import geoblocks.blockstore.client.ByteSource;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.S3Exception;
import geoblocks.node.s3.body.SmallRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Where objects' {@link ObjectHeaders} are kept: one small record per distinct set of headers,
 * {@code .s3-meta/ID} ({@link ObjectHeaders#id}, a hash of the content, so a record never changes and
 * objects with the same headers share it), written before the object version that names it in its
 * metadata ({@link #META}), so a version that names a record always finds it. Stored like tag files
 * (policy {@code tworandom}, every region acknowledging; not listed: no bucket name starts with a
 * dot) and never deleted (they are small and shared). Records read are cached (they never change).
 */
public final class HeaderRecords {
    /** The version metadata naming its headers record. */
    static final String META = "hdr";
    static final String PREFIX = ".s3-meta/";
    static final int MAX_FILE = 16 * 1024;
    private static final int CACHE = 4096;

    private final NodeStore store;
    private final Map<String, ObjectHeaders> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ObjectHeaders> e) {
            return size() > CACHE;
        }
    };

    public HeaderRecords(NodeStore store) {
        this.store = store;
    }

    /** Stores {@code h} (when not stored already) and gives the metadata a version names it with; none for no headers. */
    public CompletableFuture<Map<String, String>> write(ObjectHeaders h) {
        if (h.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        String id = h.id();
        if (cached(id) != null) {
            return CompletableFuture.completedFuture(Map.of(META, id));
        }
        byte[] b = h.encode();
        return store.put(PREFIX + id, null, ByteSource.of(b), "tworandom", MAX_FILE, "all", false, Map.of())
                .thenApply(w -> {
                    remember(id, h);
                    return Map.of(META, id);
                });
    }

    /** The headers a version with metadata {@code meta} keeps (NONE when it names no record). */
    CompletableFuture<ObjectHeaders> read(Map<String, String> meta) {
        String id = meta.get(META);
        if (id == null) {
            return CompletableFuture.completedFuture(ObjectHeaders.NONE);
        }
        ObjectHeaders c = cached(id);
        if (c != null) {
            return CompletableFuture.completedFuture(c);
        }
        SmallRecord sink = new SmallRecord(MAX_FILE, "headers record " + id);
        return store.get(PREFIX + id, "", sink).thenApply(m -> {
            try {
                ObjectHeaders h = ObjectHeaders.decode(sink.bytes());
                remember(id, h);
                return h;
            } catch (S3Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    private synchronized ObjectHeaders cached(String id) {
        return cache.get(id);
    }

    private synchronized void remember(String id, ObjectHeaders h) {
        cache.put(id, h);
    }
}
