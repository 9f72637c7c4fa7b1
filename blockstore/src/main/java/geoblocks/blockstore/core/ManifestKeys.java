package geoblocks.blockstore.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The keys {@link ManifestStore} writes in the metadata engine (one prefix byte, then big-endian
 * fields; names are their UTF-8 bytes):
 * <pre>
 * 'h' name                    -> the history ({@link ManifestCodec#encodeHistory})
 * 'l' bucket u8 leaf u8 name  -> the name's digest (8 bytes)        anti-entropy, by bucket and leaf
 * 'd' bucket u8 leaf u8       -> the leaf's digest (8 bytes)        XOR of its names' digests
 * 'r' (MAX - created) i64 name-> ""                                 live heads, newest first
 * 'f' fileId 0x00 name        -> ""                                 every kept version with blocks
 * 'c' counter                 -> i64                                live, names, maxclock
 * 'p' region                  -> blocks i64, bytes i64              replicas of live heads per region
 * 'e' name                    -> {@link Listed} of the live head   listings without decoding histories
 * </pre>
 */
final class ManifestKeys {
    static final byte HISTORY = 'h';
    static final byte NAME_DIGEST = 'l';
    static final byte LEAF = 'd';
    static final byte RECENT = 'r';
    static final byte FILE = 'f';
    static final byte COUNTER = 'c';
    static final byte PLACED = 'p';
    static final byte LISTED = 'e';
    static final byte[] LIVE = counterKey("live");
    static final byte[] NAMES = counterKey("names");
    static final byte[] MAX_CLOCK = counterKey("maxclock");

    private ManifestKeys() {}

    static byte[] counterKey(String name) {
        return key(COUNTER, name.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] key(byte prefix, byte[] rest) {
        byte[] k = new byte[1 + rest.length];
        k[0] = prefix;
        System.arraycopy(rest, 0, k, 1, rest.length);
        return k;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] historyKey(String name) {
        return key(HISTORY, utf8(name));
    }

    static byte[] nameDigestKey(String name) {
        byte[] n = utf8(name);
        int leaf = ManifestStore.leafOf(name);
        byte[] k = new byte[3 + n.length];
        k[0] = NAME_DIGEST;
        k[1] = (byte) (leaf >>> 8);
        k[2] = (byte) leaf;
        System.arraycopy(n, 0, k, 3, n.length);
        return k;
    }

    static byte[] leafKey(int leaf) {
        return new byte[] {LEAF, (byte) (leaf >>> 8), (byte) leaf};
    }

    static byte[] recentKey(Manifest m) {
        byte[] n = utf8(m.name());
        return ByteBuffer.allocate(9 + n.length).put(RECENT).putLong(Long.MAX_VALUE - m.createdMillis()).put(n).array();
    }

    static byte[] fileKey(String fileId, String name) {
        byte[] f = utf8(fileId);
        byte[] n = utf8(name);
        return ByteBuffer.allocate(2 + f.length + n.length).put(FILE).put(f).put((byte) 0).put(n).array();
    }

    static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    /** The smallest key after {@code k}. */
    static byte[] successor(byte[] k) {
        return Arrays.copyOf(k, k.length + 1);
    }

    /** The smallest key after every key that starts with {@code prefix} (null: none, scan to the end). */
    static byte[] upperBound(byte[] prefix) {
        byte[] u = prefix.clone();
        for (int i = u.length - 1; i >= 0; i--) {
            if (u[i] != (byte) 0xFF) {
                u[i]++;
                return Arrays.copyOf(u, i + 1);
            }
        }
        return null;
    }
}
