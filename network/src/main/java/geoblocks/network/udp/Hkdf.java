package geoblocks.network.udp;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 as specified by RFC 5869; stateless, every call is independent and
 * returns a fresh array owned by the caller.
 *
 * <p>{@link #extract} turns input keying material into a 32-byte pseudorandom key (RFC 5869
 * §2.2); {@link #expand} stretches that key into at most {@code 255 * 32} output bytes bound to
 * an {@code info} context string (RFC 5869 §2.3).
 */
public final class Hkdf {

    /** Output length of HMAC-SHA256 in bytes ("HashLen" in RFC 5869). */
    public static final int HASH_LEN = 32;

    /** Largest {@code length} accepted by {@link #expand}: {@code 255 * HashLen}. */
    public static final int MAX_OUTPUT = 255 * HASH_LEN;

    private static final String HMAC = "HmacSHA256";

    private Hkdf() {
    }

    /**
     * RFC 5869 §2.2 HKDF-Extract: {@code PRK = HMAC-SHA256(salt, IKM)}.
     *
     * @param salt optional salt; {@code null} or empty means {@code HashLen} zero bytes
     * @param ikm  input keying material, not null
     * @return the 32-byte pseudorandom key
     */
    public static byte[] extract(byte[] salt, byte[] ikm) {
        if (ikm == null) {
            throw new IllegalArgumentException("ikm must not be null");
        }
        byte[] s = (salt == null || salt.length == 0) ? new byte[HASH_LEN] : salt;
        Mac mac = mac(s);
        return mac.doFinal(ikm);
    }

    /**
     * RFC 5869 §2.3 HKDF-Expand: {@code T(i) = HMAC(PRK, T(i-1) | info | i)}, output is the first
     * {@code length} bytes of {@code T(1) | T(2) | ...}.
     *
     * @param prk    pseudorandom key of at least {@code HashLen} bytes
     * @param info   optional context; {@code null} means empty
     * @param length output length in bytes, {@code 0..255*32}
     * @return {@code length} bytes of output keying material
     */
    public static byte[] expand(byte[] prk, byte[] info, int length) {
        if (prk == null || prk.length < HASH_LEN) {
            throw new IllegalArgumentException("prk must be at least " + HASH_LEN + " bytes, got "
                    + (prk == null ? "null" : prk.length + " bytes"));
        }
        if (length < 0 || length > MAX_OUTPUT) {
            throw new IllegalArgumentException("length must be in 0.." + MAX_OUTPUT + ", got " + length);
        }
        byte[] ctx = info == null ? new byte[0] : info;
        Mac mac = mac(prk);
        byte[] okm = new byte[length];
        byte[] t = new byte[0];
        int done = 0;
        for (int i = 1; done < length; i++) {
            mac.update(t);
            mac.update(ctx);
            mac.update((byte) i);
            t = mac.doFinal();
            int n = Math.min(HASH_LEN, length - done);
            System.arraycopy(t, 0, okm, done, n);
            done += n;
        }
        Arrays.fill(t, (byte) 0);
        return okm;
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(HMAC + " unavailable in this JDK", e);
        }
    }
}
