package geoblocks.node.s3.auth;

import geoblocks.net.AccessKey;
import geoblocks.network.session.ClientKey;
import geoblocks.network.session.KeyResolver;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The access keys a node takes file-protocol clients by: the keys made with {@code client key create}, looked up
 * in the node's {@link S3KeyStore} (their records, opened with the cluster secret, kept {@value S3KeyStore#CACHE_MS}
 * ms), with the file grants their records carry. A key unknown, revoked or unreadable is none; so is the config's
 * S3 root key, which is for S3 only. The answer never waits on the caller's thread: a key not in the cache is read
 * from the node, and the future completes when that read does.
 */
public final class FileKeys implements KeyResolver {
    private final S3KeyStore store;

    public FileKeys(S3KeyStore store) {
        this.store = store;
    }

    @Override
    public CompletableFuture<Optional<ClientKey>> resolve(String keyId) {
        if (!AccessKeys.validId(keyId) || store.root(keyId)) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        if (store.known(keyId)) {
            return CompletableFuture.completedFuture(answer(keyId));
        }
        return store.load(keyId).thenApply(x -> answer(keyId));
    }

    private Optional<ClientKey> answer(String id) {
        String secret = store.secret(id);
        return secret == null ? Optional.empty()
                : Optional.of(new ClientKey(new AccessKey(id, store.files(id)), secret.getBytes(StandardCharsets.UTF_8)));
    }
}
