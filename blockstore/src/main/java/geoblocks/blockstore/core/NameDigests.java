package geoblocks.blockstore.core;

import static geoblocks.blockstore.core.ManifestKeys.*;

import geoblocks.blockstore.meta.MetaEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per-name anti-entropy digests of a {@link ManifestStore}: a name's digest is 64 bits of SHA-256
 * over its history's encoding ({@link #hash}), kept in the engine under its bucket and leaf (see
 * {@link ManifestKeys#nameDigestKey}); these read them back by bucket, by leaf or by name.
 */
final class NameDigests {
    private NameDigests() {}

    /** The digest of a history's encoding. */
    static long hash(byte[] encoded) {
        return ByteBuffer.wrap(SHA256.get().digest(encoded)).getLong();
    }


    /** One SHA-256 per thread: the provider lookup of getInstance cost more than hashing a small history. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    });

    static Map<String, Long> ofBuckets(MetaEngine engine, Set<Integer> wanted) {
        Map<String, Long> out = new TreeMap<>();
        for (int b : wanted) {
            scan(engine, new byte[] {NAME_DIGEST, (byte) b}, out);
        }
        return out;
    }

    /** Name and digest of every name in {@code wanted} leaves (bucket * LEAVES + leaf), in name order. */
    static Map<String, Long> ofLeaves(MetaEngine engine, Set<Integer> wanted) {
        Map<String, Long> out = new TreeMap<>();
        for (int leaf : wanted) {
            scan(engine, new byte[] {NAME_DIGEST, (byte) (leaf >>> 8), (byte) leaf}, out);
        }
        return out;
    }

    private static void scan(MetaEngine engine, byte[] prefix, Map<String, Long> out) {
        try {
            engine.scan(prefix, upperBound(prefix), (k, v) -> {
                out.put(new String(k, 3, k.length - 3, StandardCharsets.UTF_8), ByteBuffer.wrap(v).getLong());
                return true;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The digest of one name's history, or empty. */
    static Optional<Long> of(MetaEngine engine, String name) {
        try {
            byte[] v = engine.get(nameDigestKey(name));
            return v == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(v).getLong());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
