package geoblocks.node.admin;

import geoblocks.blockstore.wire.ClientOp.ClusterReply;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the admin API asks of its node: the admin operations, and the small records it keeps its tokens
 * in. Production's is {@link NodeAdminBackend} (the S3 gateway's in-process client, the one client the
 * node takes admin operations from). A failed future carries the node's failure
 * ({@code NodeStore.StoreException}, with its code).
 */
public interface AdminBackend {
    /** {@code show}, or a layout change: add (with the new node's {@code key}, empty for none), set, drain, remove. */
    CompletableFuture<ClusterReply> cluster(String action, String region, String address, String zone, long capacityBytes,
            boolean force, String key);

    /** Moves the replicas of {@code name} to {@code regions}; completes with the node's summary. */
    CompletableFuture<String> move(String name, List<String> regions);

    /** Purges version {@code version} of {@code name} in every region; completes with the version purged. */
    CompletableFuture<String> purge(String name, String version);

    /** The bytes of record {@code name} (at most {@code max}), or null when there is none. */
    CompletableFuture<byte[]> read(String name, int max);

    /** Stores {@code bytes} as record {@code name}, in every region ({@code create}: only if there is none). */
    CompletableFuture<Void> write(String name, byte[] bytes, boolean create);

    /** The names of the records under {@code prefix}, in order. */
    CompletableFuture<List<String>> list(String prefix);
}
