package geoblocks.node.admin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The admin tokens' records, kept as small records that every region receives ({@link AdminTokens#PREFIX}),
 * read through a cache: a record is kept {@value #CACHE_MS} ms, an id found missing {@value #MISS_MS} ms.
 * So a token revoked at one node is refused there at once and at every other node within
 * {@value #CACHE_MS} ms of the revocation reaching it. A record that cannot be read as one is treated as none.
 */
public final class AdminTokenStore {
    static final long CACHE_MS = 5_000;
    static final long MISS_MS = 1_000;
    static final int MAX_RECORD = 1024;
    private final AdminBackend backend;
    private final LongSupplier clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** {@code token} null: none (unknown, or unreadable). */
    private record Cached(AdminToken token, long at) {}

    public AdminTokenStore(AdminBackend backend, LongSupplier clockMillis) {
        this.backend = backend;
        this.clock = clockMillis;
    }

    /** The record of token {@code id}, or null when there is none; fails when the node could not answer. */
    public CompletableFuture<AdminToken> find(String id) {
        Cached c = cache.get(id);
        long now = clock.getAsLong();
        if (c != null && now - c.at() < (c.token() == null ? MISS_MS : CACHE_MS)) {
            return CompletableFuture.completedFuture(c.token());
        }
        return backend.read(AdminTokens.file(id), MAX_RECORD).thenApply(bytes -> {
            AdminToken t = null;
            if (bytes != null) {
                try {
                    t = AdminToken.decode(id, bytes);
                } catch (IOException e) {
                    t = null; // a damaged record grants nothing
                }
            }
            cache.put(id, new Cached(t, clock.getAsLong()));
            return t;
        });
    }

    /** Stores {@code token} ({@code create}: only if its id has no record, as the name's owner region decides) and caches it. */
    public CompletableFuture<Void> save(AdminToken token, boolean create) {
        return backend.write(AdminTokens.file(token.id()), token.encode(), create)
                .thenRun(() -> cache.put(token.id(), new Cached(token, clock.getAsLong())));
    }

    /** Every token's record, by id (unreadable ones left out). */
    public CompletableFuture<List<AdminToken>> all() {
        return backend.list(AdminTokens.PREFIX).thenCompose(names -> {
            List<CompletableFuture<AdminToken>> reads = new ArrayList<>();
            for (String n : names) {
                String id = n.substring(AdminTokens.PREFIX.length());
                if (AdminTokens.validId(id)) {
                    cache.remove(id);
                    reads.add(find(id));
                }
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(x -> {
                List<AdminToken> out = new ArrayList<>();
                reads.forEach(r -> {
                    if (r.join() != null) {
                        out.add(r.join());
                    }
                });
                return out;
            });
        });
    }
}
