package geoblocks.node.s3.encryption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The layout of an encrypted object's stored bytes (SSE-C and SSE-S3, docs/s3.md "Encryption at rest").
 * The plaintext is cut into chunks of {@value #CHUNK} bytes (the last one shorter, and an empty object
 * one empty chunk); chunk {@code i} is stored as its AES-256-GCM ciphertext followed by its 16-byte
 * tag, under the object's own data key ({@link SseParams#dataKey}: every object has its own), with the
 * nonce {@code i} (8 bytes big-endian after 4 zero bytes: unique per key) and the associated data
 * {@code "gbsse1" | i | last}, where {@code last} says whether it is the object's final chunk. So a
 * chunk moved to another place, another object's chunk, a flipped bit, or an object cut at a chunk
 * boundary (its new last chunk was not sealed as last) fails its tag: the reader gets an error, never
 * wrong plaintext. A range of plaintext needs only the chunks that hold it ({@link #cipherSpan}).
 * Pure; not thread-safe (one instance per stream).
 */
public final class SseCipher {
    /** Plaintext bytes per chunk. */
    static final int CHUNK = 64 * 1024;
    static final int TAG = 16;
    /** Stored bytes of a full chunk. */
    static final int SEALED = CHUNK + TAG;
    private static final byte[] LABEL = "gbsse1".getBytes(StandardCharsets.US_ASCII);
    private final SecretKeySpec key;

    public SseCipher(byte[] dataKey) {
        if (dataKey.length != 32) {
            throw new IllegalArgumentException("an object's data key has 32 bytes, this has " + dataKey.length);
        }
        this.key = new SecretKeySpec(dataKey, "AES");
    }

    /** Stored bytes of an object of {@code plain} bytes. */
    static long cipherSize(long plain) {
        if (plain < 0) {
            throw new IllegalArgumentException("size < 0: " + plain);
        }
        return plain + chunksOfPlain(plain) * TAG;
    }

    static long chunksOfPlain(long plain) {
        return Math.max(1, (plain + CHUNK - 1) / CHUNK);
    }

    /** Plaintext bytes of an object stored as {@code cipher} bytes; IOException for a size no object has. */
    static long plainSize(long cipher) throws IOException {
        if (cipher < TAG) {
            throw new IOException("an encrypted object takes at least " + TAG + " bytes, this one " + cipher);
        }
        long chunks = (cipher + SEALED - 1) / SEALED;
        long plain = cipher - chunks * TAG;
        if (plain < 0 || cipherSize(plain) != cipher) {
            throw new IOException("no encrypted object takes " + cipher + " bytes (a chunk is cut short)");
        }
        return plain;
    }

    /** Chunks of an object stored as {@code cipher} bytes. */
    static long chunks(long cipher) {
        return Math.max(1, (cipher + SEALED - 1) / SEALED);
    }

    /**
     * The stored bytes {@code [from, to)} that hold plaintext bytes {@code first..last} of an object
     * stored as {@code cipherTotal} bytes: whole chunks, from the one holding {@code first} to the one holding {@code last}.
     */
    public static long[] cipherSpan(long first, long last, long cipherTotal) {
        long from = (first / CHUNK) * SEALED;
        long to = Math.min(cipherTotal, (last / CHUNK + 1) * SEALED);
        return new long[] {from, to};
    }

    /** Chunk {@code index}'s plaintext sealed: ciphertext and tag. */
    byte[] seal(long index, boolean last, byte[] plain, int off, int len) {
        if (len > CHUNK) {
            throw new IllegalArgumentException("a chunk holds at most " + CHUNK + " bytes, not " + len);
        }
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, index, last);
            return c.doFinal(plain, off, len);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available: " + e, e);
        }
    }

    /** Chunk {@code index}'s plaintext, or an IOException when the stored bytes do not open (damaged, another key, moved, cut). */
    byte[] open(long index, boolean last, byte[] sealed, int off, int len) throws IOException {
        if (len < TAG || len > SEALED) {
            throw new IOException("encrypted chunk " + index + " has " + len + " bytes, not " + TAG + ".." + SEALED);
        }
        try {
            Cipher c = cipher(Cipher.DECRYPT_MODE, index, last);
            return c.doFinal(sealed, off, len);
        } catch (AEADBadTagException e) {
            throw new IOException("encrypted chunk " + index + " does not open: damaged, moved, cut short, or another key");
        } catch (GeneralSecurityException e) {
            throw new IOException("decrypting chunk " + index + " failed: " + e, e);
        }
    }

    private Cipher cipher(int mode, long index, boolean last) throws GeneralSecurityException {
        byte[] nonce = new byte[12];
        ByteBuffer.wrap(nonce, 4, 8).putLong(index);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); // a new one each time: GCM refuses a key and nonce twice in one instance
        c.init(mode, key, new GCMParameterSpec(TAG * 8, nonce));
        byte[] aad = ByteBuffer.allocate(LABEL.length + 9).put(LABEL).putLong(index).put((byte) (last ? 1 : 0)).array();
        c.updateAAD(aad);
        return c;
    }
}
