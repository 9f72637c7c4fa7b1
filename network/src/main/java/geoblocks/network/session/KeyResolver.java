package geoblocks.network.session;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where a node looks up the access key a client's HELLO names: asynchronously, so the network's event loop never
 * waits for it (production reads the key's record from the node's store, with a short cache; the tests and the
 * simulator pass a map). Empty: no such key, or revoked. The future may complete on any thread.
 */
@FunctionalInterface
public interface KeyResolver {
    /** No keys: every client by access key is refused. */
    KeyResolver NONE = id -> CompletableFuture.completedFuture(Optional.empty());

    CompletableFuture<Optional<ClientKey>> resolve(String keyId);
}
