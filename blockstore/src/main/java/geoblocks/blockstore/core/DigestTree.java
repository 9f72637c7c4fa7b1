package geoblocks.blockstore.core;

import geoblocks.blockstore.meta.MetaEngine;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The anti-entropy digests in memory: {@link ManifestStore#BUCKETS} buckets of
 * {@link ManifestStore#LEAVES} leaves each (512 KiB). A leaf's digest is the XOR of its names'
 * digests, a bucket's the XOR of its leaves'; the store keeps the leaves in its engine too
 * ({@link ManifestKeys#LEAF}) and loads them from there when it opens.
 */
final class DigestTree {
    private final long[] leaves = new long[ManifestStore.BUCKETS * ManifestStore.LEAVES];
    private final long[] buckets = new long[ManifestStore.BUCKETS];

    /** The tree kept in {@code engine} (its leaf records; every bucket follows from them). */
    static DigestTree load(MetaEngine engine) throws IOException {
        DigestTree t = new DigestTree();
        engine.scan(new byte[] {ManifestKeys.LEAF}, new byte[] {ManifestKeys.LEAF + 1}, (k, v) -> {
            t.set(((k[1] & 0xFF) << 8) | (k[2] & 0xFF), ByteBuffer.wrap(v).getLong());
            return true;
        });
        return t;
    }

    /** The digest of {@code leaf} (bucket * LEAVES + leaf in bucket). */
    long leaf(int leaf) {
        return leaves[leaf];
    }

    /** Sets the digest of {@code leaf}; its bucket's digest follows. */
    void set(int leaf, long digest) {
        buckets[leaf / ManifestStore.LEAVES] ^= leaves[leaf] ^ digest;
        leaves[leaf] = digest;
    }

    /** Every bucket's digest (a copy). */
    long[] buckets() {
        return buckets.clone();
    }

    /** The digests of the leaves of {@code bucket} (a copy). */
    long[] leaves(int bucket) {
        return Arrays.copyOfRange(leaves, bucket * ManifestStore.LEAVES, (bucket + 1) * ManifestStore.LEAVES);
    }
}
