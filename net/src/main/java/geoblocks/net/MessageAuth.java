package geoblocks.net;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proof of cluster membership on every message: an HMAC-SHA256 of the encoded message under the
 * cluster secret, truncated to {@value #TAG_BYTES} bytes (RFC 2104; truncation per RFC 4868's
 * 128-bit tags). Without the secret a sender cannot produce a valid tag, so unauthenticated
 * traffic is rejected before it is decoded. It does not stop replays of recorded messages and
 * does not encrypt. Thread-safe (one Mac per thread).
 */
public final class MessageAuth {
    public static final int TAG_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;

    public MessageAuth(String secret) {
        if (secret == null || secret.length() < 16) {
            throw new IllegalArgumentException("cluster secret must be at least 16 characters");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    private Mac newMac() {
        try {
            Mac m = Mac.getInstance(ALGORITHM);
            m.init(key);
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** The tag of the bytes between {@code data}'s position and limit (position is left unchanged). */
    public byte[] tag(ByteBuffer data) {
        Mac m = macs.get();
        m.update(data.duplicate());
        byte[] full = m.doFinal();
        byte[] t = new byte[TAG_BYTES];
        System.arraycopy(full, 0, t, 0, TAG_BYTES);
        return t;
    }

    /** True when {@code tag} is the tag of {@code data}; compares in constant time. */
    public boolean verify(ByteBuffer data, byte[] tag) {
        return MessageDigest.isEqual(tag(data), tag);
    }
}
