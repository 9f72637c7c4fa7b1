package geoblocks.network.session;

import geoblocks.net.AccessKey;
import java.util.Arrays;
import java.util.Objects;

/**
 * An access key as a node looks it up for a client's handshake: who it is ({@link AccessKey}: id and file grants)
 * and the secret both ends prove in the handshake. Never logged: {@link #toString} leaves the secret out.
 */
public record ClientKey(AccessKey key, byte[] secret) {
    public ClientKey {
        Objects.requireNonNull(key, "key");
        if (secret.length < 16) {
            throw new IllegalArgumentException("an access key's secret has at least 16 bytes, " + key.id() + "'s has "
                    + secret.length);
        }
        secret = secret.clone();
    }

    public String id() {
        return key.id();
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    /** Whether {@code other} is this key with the same secret (its grants may differ: they were read again). */
    public boolean sameSecret(ClientKey other) {
        return other != null && other.id().equals(id()) && Arrays.equals(other.secret, secret);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientKey k && k.key.equals(key) && Arrays.equals(k.secret, secret);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return "ClientKey[" + key + "]";
    }
}
