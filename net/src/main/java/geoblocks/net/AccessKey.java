package geoblocks.net;

import java.util.List;
import java.util.Objects;

/**
 * Who sent a message that arrived on a connection authenticated by an access key rather than by the cluster
 * secret: the key's id and its file grants as the node last read them. It rides with each such message to the
 * doors that decide what the key may do; it holds no secret.
 */
public record AccessKey(String id, List<FileGrant> grants) {
    public AccessKey {
        Objects.requireNonNull(id, "id");
        grants = List.copyOf(grants);
    }

    /** Whether a grant lets this key read {@code name}. */
    public boolean reads(String name) {
        return grants.stream().anyMatch(g -> g.reads(name));
    }

    /** Whether a grant lets this key write {@code name}. */
    public boolean writes(String name) {
        return grants.stream().anyMatch(g -> g.writes(name));
    }

    /** Whether a grant lets this key read every name that starts with {@code prefix}. */
    public boolean readsAllUnder(String prefix) {
        return grants.stream().anyMatch(g -> g.read() && prefix.startsWith(g.prefix()));
    }
}
