package geoblocks.node.s3.encryption;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How one encrypted object version is encrypted, as kept in its metadata ({@value #META}): the mode,
 * a random 16-byte IV of its own, and for SSE-C a check value of the client's key, for SSE-S3 the id
 * of the cluster key ({@link SseKeyFile}). No key is ever kept: the object's data key is derived,
 * {@code HMAC-SHA256(base, "geoblocks sse data v1" | mode | iv)}, from the client's key (SSE-C) or the
 * cluster key (SSE-S3), so each object has a key of its own. The check is
 * {@code HMAC-SHA256(client key, "geoblocks sse-c check v1" | iv)}, cut to 16 bytes: salted by the IV, it
 * tells a wrong key at GET or HEAD without reading data, and says nothing of the key.
 * Encoded as {@code C1 IV CHECK} or {@code S1 KEYID IV} (base64 without padding). Pure.
 */
public record SseParams(Mode mode, String keyId, byte[] iv, byte[] check) {
    public static final String META = "sse";
    public enum Mode { C, S3 }

    public SseParams {
        if (iv.length != 16) {
            throw new IllegalArgumentException("an SSE IV has 16 bytes, not " + iv.length);
        }
        if (mode == Mode.C && (check == null || check.length != 16)) {
            throw new IllegalArgumentException("an SSE-C object needs a 16-byte key check");
        }
        if (mode == Mode.S3 && (keyId == null || !SseKeyFile.validId(keyId))) {
            throw new IllegalArgumentException("an SSE-S3 object needs a cluster key id, was '" + keyId + "'");
        }
    }

    /** New SSE-C parameters for an object written with {@code customerKey}. */
    static SseParams newC(byte[] customerKey, Random random) {
        byte[] iv = new byte[16];
        random.nextBytes(iv);
        return new SseParams(Mode.C, null, iv, check(customerKey, iv));
    }

    /** New SSE-S3 parameters under cluster key {@code keyId}. */
    public static SseParams newS3(String keyId, Random random) {
        byte[] iv = new byte[16];
        random.nextBytes(iv);
        return new SseParams(Mode.S3, keyId, iv, null);
    }

    public String encode() {
        Base64.Encoder b = Base64.getEncoder().withoutPadding();
        return mode == Mode.C ? "C1 " + b.encodeToString(iv) + " " + b.encodeToString(check)
                : "S1 " + keyId + " " + b.encodeToString(iv);
    }

    /** The parameters kept in a version's metadata, or null for an object stored unencrypted; IOException when damaged. */
    public static SseParams of(Map<String, String> meta) throws IOException {
        String v = meta.get(META);
        if (v == null) {
            return null;
        }
        String[] f = v.split(" ");
        try {
            Base64.Decoder d = Base64.getDecoder();
            if (f.length == 3 && f[0].equals("C1")) {
                return new SseParams(Mode.C, null, d.decode(f[1]), d.decode(f[2]));
            }
            if (f.length == 3 && f[0].equals("S1")) {
                return new SseParams(Mode.S3, f[1], d.decode(f[2]), null);
            }
        } catch (IllegalArgumentException e) {
            throw new IOException("the object's encryption metadata '" + v + "' is damaged: " + e.getMessage(), e);
        }
        throw new IOException("the object's encryption metadata '" + v + "' is not C1 or S1 (written by a newer node?)");
    }

    /** Whether {@code customerKey} is the key this SSE-C object was written with (constant time). */
    boolean keyMatches(byte[] customerKey) {
        return mode == Mode.C && MessageDigest.isEqual(check, check(customerKey, iv));
    }

    /** The object's data key from {@code base}: the customer's key (SSE-C) or the cluster key (SSE-S3). */
    byte[] dataKey(byte[] base) {
        return hmac(base, "geoblocks sse data v1 " + mode + " ", iv);
    }

    /**
     * The ETag an SSE-C object shows for the plaintext ETag {@code plainEtag}: keyed by the object's data
     * key, so the stored metadata does not hold the plaintext's MD5 (as S3, whose SSE-C ETags are not
     * the MD5 of the data); a multipart {@code -N} suffix is kept.
     */
    static String keyedEtag(String plainEtag, byte[] dataKey) {
        int dash = plainEtag.indexOf('-');
        String suffix = dash < 0 ? "" : plainEtag.substring(dash);
        byte[] h = hmac(dataKey, "geoblocks sse-c etag v1 ", plainEtag.getBytes(StandardCharsets.US_ASCII));
        return HexFormat.of().formatHex(h, 0, 16) + suffix;
    }

    private static byte[] check(byte[] customerKey, byte[] iv) {
        return Arrays.copyOf(hmac(customerKey, "geoblocks sse-c check v1 ", iv), 16);
    }

    private static byte[] hmac(byte[] key, String label, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available: " + e, e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SseParams p && p.mode == mode && Objects.equals(p.keyId, keyId)
                && Arrays.equals(p.iv, iv) && Arrays.equals(p.check, check);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(iv);
    }

    @Override
    public String toString() {
        return "SseParams[" + encode() + "]";
    }
}
