package geoblocks.node.s3.auth;

import geoblocks.net.FileGrant;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.body.SmallRecord;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The gateway's view of the access keys ({@link AccessKeys}): the config's key
 * ({@code geoblocks.http.access-key}, always valid) and the keys made with {@code client key create},
 * read from their records at the node and kept {@value #CACHE_MS} ms (a revoked key is refused at a
 * node at most that long after the revocation reached it). An unknown id is remembered as unknown for
 * {@value #MISS_MS} ms. Secrets are held in memory only, opened with the cluster secret; never logged.
 */
public final class S3KeyStore {
    static final long CACHE_MS = 5_000;
    static final long MISS_MS = 1_000;
    static final int MAX_RECORD = 1024;
    private final Records records;
    private final AccessKeys keys;
    private final String rootId;
    private final String rootSecret;
    private final LongSupplier clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** {@code secret} null: unknown, revoked or unreadable. */
    private record Cached(String name, String secret, List<FileGrant> files, long at) {
        Cached(String name, String secret, long at) {
            this(name, secret, List.of(), at);
        }
    }

    /** Reads a key's record by its file name: its bytes, or null when there is none; fails when the node could not answer. */
    @FunctionalInterface
    public interface Records {
        CompletableFuture<byte[]> read(String file);
    }

    public S3KeyStore(NodeStore store, AccessKeys keys, String rootId, String rootSecret, LongSupplier clock) {
        this(file -> {
            SmallRecord sink = new SmallRecord(MAX_RECORD, "access key record " + file);
            return store.get(file, "", sink).handle((m, t) -> {
                if (t == null) {
                    return sink.bytes();
                }
                if (NodeStore.cause(t) instanceof NodeStore.StoreException s && s.notFound()) {
                    return null;
                }
                throw t instanceof CompletionException c ? c : new CompletionException(t);
            });
        }, keys, rootId, rootSecret, clock);
    }

    /** Keys whose records {@code records} reads (the node's store in production, a map in tests). */
    public S3KeyStore(Records records, AccessKeys keys, String rootId, String rootSecret, LongSupplier clock) {
        this.records = records;
        this.keys = keys;
        this.rootId = rootId;
        this.rootSecret = rootSecret;
        this.clock = clock;
    }

    /** Whether {@link #secret} can answer for {@code id} now without asking the node. */
    public boolean known(String id) {
        if (id == null || id.equals(rootId)) {
            return true;
        }
        Cached c = cache.get(id);
        return c != null && clock.getAsLong() - c.at() < (c.secret() == null ? MISS_MS : CACHE_MS);
    }

    /** The secret of {@code id} as last loaded; null when unknown or revoked. */
    public String secret(String id) {
        if (id.equals(rootId)) {
            return rootSecret;
        }
        Cached c = cache.get(id);
        return c == null ? null : c.secret();
    }

    /** Whether {@code id} is the config's key (geoblocks.http.access-key). */
    public boolean root(String id) {
        return id != null && id.equals(rootId);
    }

    /** The file grants of {@code id} as last loaded (none for the config's key, an unknown or a revoked one). */
    public List<FileGrant> files(String id) {
        Cached c = cache.get(id);
        return c == null || c.secret() == null ? List.of() : c.files();
    }

    /** The display name of key {@code id}: its name, or the id for the config's key. */
    public String displayName(String id) {
        Cached c = id == null ? null : cache.get(id);
        return c == null || c.name() == null ? id : c.name();
    }

    /** Reads the record of {@code id} from the node into the cache; completes (never fails) when done. */
    public CompletableFuture<Void> load(String id) {
        if (!AccessKeys.validId(id)) {
            cache.put(id, new Cached(null, null, clock.getAsLong()));
            return CompletableFuture.completedFuture(null);
        }
        return records.read(AccessKeys.file(id)).handle((bytes, t) -> {
            Cached c = new Cached(null, null, clock.getAsLong());
            if (t != null) {
                return null; // the node could not answer: nothing cached, the request is refused this time
            }
            if (bytes != null) {
                try {
                    AccessKeys.Key k = AccessKeys.Key.decode(id, bytes);
                    c = new Cached(k.name(), k.revoked() ? null : keys.open(k), k.files(), clock.getAsLong());
                } catch (IOException e) {
                    c = new Cached(null, null, clock.getAsLong()); // damaged or sealed under another secret: refused
                }
            }
            cache.put(id, c);
            return null;
        });
    }
}
