package geoblocks.node.s3.bucket;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A node's cache of one kind of bucket setting read from its side record (CORS rules, a policy): a value
 * (null too: none) is kept {@code ttlMs} after it was read, so another node's change shows within that
 * time; a failed read is not kept. At most 10,000 buckets (then it starts over). Time is passed in.
 */
public final class SettingCache<T> {
    private record Cached<T>(T value, long at) {}
    private final Map<String, Cached<T>> cache = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final long ttlMs;

    public SettingCache(LongSupplier clock, long ttlMs) {
        this.clock = clock;
        this.ttlMs = ttlMs;
    }

    /** The setting of {@code bucket}: cached, else {@code load}'s (then kept). */
    public CompletableFuture<T> get(String bucket, Supplier<CompletableFuture<T>> load) {
        Cached<T> c = cache.get(bucket);
        long now = clock.getAsLong();
        if (c != null && now - c.at() < ttlMs) {
            return CompletableFuture.completedFuture(c.value());
        }
        return load.get().thenApply(v -> {
            if (cache.size() > 10_000) {
                cache.clear();
            }
            cache.put(bucket, new Cached<>(v, now));
            return v;
        });
    }

    /** Forgets {@code bucket}'s setting (this node just changed it). */
    public void forget(String bucket) {
        cache.remove(bucket);
    }
}
