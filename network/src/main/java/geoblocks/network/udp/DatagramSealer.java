package geoblocks.network.udp;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the datagrams of ONE direction of one peer pair with AES-256-GCM (RFC 5116
 * AEAD_AES_256_GCM, NIST SP 800-38D); invariant: a (key, nonce) pair is never used twice by
 * {@link #seal}, and {@link #open} accepts each sequence number at most once.
 *
 * <p>Wire layout (all integers big endian):
 *
 * <pre>
 *  0       4               12                          12+n      12+n+16
 *  +-------+---------------+---------------------------+---------+
 *  |key id |      seq      |  body (n bytes)           | GCM tag |
 *  |  u32  |      u64      |  ciphertext or plaintext  | 16 bytes|
 *  +-------+---------------+---------------------------+---------+
 *  nonce (12 bytes) = salt (4 bytes) || seq (8 bytes)
 *  encrypt=true : AAD = key id || seq,        body = AES-GCM ciphertext
 *  encrypt=false: AAD = key id || seq || body, body = plaintext (GMAC, authentication only)
 * </pre>
 *
 * <p>The sending end calls {@link #seal} with strictly increasing sequence numbers; the
 * receiving end holds its own instance built from the same key material and calls {@link #open}
 * (or, in authentication-only mode, the zero-copy {@link #verify}), which also enforces an
 * RFC 4303 §3.4.3 / RFC 6479 anti-replay window ({@link ReplayWindow}): the window is consulted
 * before the tag is checked and advanced only after it verified.
 *
 * <p>Not thread-safe: the {@link Cipher}, nonce, header and scratch arrays are reused across
 * calls, so an instance must be used by one thread at a time. Per call, the only allocations are
 * those javax.crypto forces ({@link GCMParameterSpec}, and the JDK 17 provider's per-init GCM
 * state and AAD copy). The byte[] {@code Cipher} API is used rather than the ByteBuffer one: on
 * JDK 17 the ByteBuffer path allocates temporary arrays per call for direct buffers, whereas
 * here direct buffers are staged through per-sealer scratch arrays (one copy in, one copy out).
 * All AAD goes in one {@code updateAAD} call because the provider buffers AAD.
 */
public final class DatagramSealer {

    /** Bytes of the key id field. */
    public static final int KEY_ID_BYTES = 4;
    /** Bytes of the sequence number field. */
    public static final int SEQ_BYTES = 8;
    /** Bytes of the header: key id and sequence number. */
    public static final int HEADER_BYTES = KEY_ID_BYTES + SEQ_BYTES;
    /** Bytes of the GCM authentication tag. */
    public static final int TAG_BYTES = 16;
    /** Bytes a sealed datagram adds to its body. */
    public static final int OVERHEAD = 4 + 8 + 16;
    /** Bytes of the AES-256 key. */
    public static final int KEY_BYTES = 32;
    /** Bytes of the nonce salt. */
    public static final int SALT_BYTES = 4;

    private static final String TRANSFORMATION = "AES/GCM/NoPadding";

    private final SecretKeySpec key;
    private final int keyId;
    private final boolean encrypt;
    private final Cipher cipher;
    private final ReplayWindow window;
    private final byte[] iv = new byte[SALT_BYTES + SEQ_BYTES];
    private final byte[] header = new byte[HEADER_BYTES];
    /** Staging for buffers without an accessible array (direct buffers), grown on demand. */
    private byte[] scratchIn = new byte[0];
    private byte[] scratchOut = new byte[0];
    private long lastSealed = -1;

    /**
     * Creates a sealer with a {@link ReplayWindow#DEFAULT_WIDTH} replay window.
     *
     * @param key32   AES-256 key, 32 bytes (copied)
     * @param salt4   nonce salt, 4 bytes (copied)
     * @param keyId   key id written into and expected in every datagram
     * @param encrypt true for AEAD encryption, false for authentication only (GMAC)
     */
    public DatagramSealer(byte[] key32, byte[] salt4, int keyId, boolean encrypt) {
        this(key32, salt4, keyId, encrypt, ReplayWindow.DEFAULT_WIDTH);
    }

    /**
     * @param replayWindowWidth width of the receive replay window, see {@link ReplayWindow}
     */
    public DatagramSealer(byte[] key32, byte[] salt4, int keyId, boolean encrypt, int replayWindowWidth) {
        if (key32 == null || key32.length != KEY_BYTES) {
            throw new IllegalArgumentException("key must be " + KEY_BYTES + " bytes, got "
                    + (key32 == null ? "null" : key32.length + " bytes"));
        }
        if (salt4 == null || salt4.length != SALT_BYTES) {
            throw new IllegalArgumentException("salt must be " + SALT_BYTES + " bytes, got "
                    + (salt4 == null ? "null" : salt4.length + " bytes"));
        }
        this.key = new SecretKeySpec(key32, "AES");
        this.keyId = keyId;
        this.encrypt = encrypt;
        this.window = new ReplayWindow(replayWindowWidth);
        System.arraycopy(salt4, 0, iv, 0, SALT_BYTES);
        try {
            this.cipher = Cipher.getInstance(TRANSFORMATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(TRANSFORMATION + " unavailable in this JDK", e);
        }
    }

    /** @return the key id this sealer writes and expects */
    public int keyId() {
        return keyId;
    }

    /** @return true if bodies are encrypted, false if only authenticated */
    public boolean encrypts() {
        return encrypt;
    }

    /** @return the last sequence number sealed, or -1 if none */
    public long lastSealedSeq() {
        return lastSealed;
    }

    /** @return the highest sequence number opened so far, or -1 if none */
    public long highestOpenedSeq() {
        return window.highest();
    }

    /**
     * Seals {@code body} (position to limit) into a full datagram written at {@code out}'s
     * position. On return {@code body} is at its limit and {@code out} has advanced by the
     * returned count, {@code body.remaining() + OVERHEAD}.
     *
     * @param seq sequence number, non-negative and greater than every earlier one of this sealer
     * @throws IllegalStateException    if {@code seq} is not greater than the last sealed one
     * @throws IllegalArgumentException if {@code seq} is negative or {@code out} is too small
     */
    public int seal(long seq, ByteBuffer body, ByteBuffer out) {
        if (seq < 0) {
            throw new IllegalArgumentException("seq must be >= 0, got " + seq);
        }
        if (seq <= lastSealed) {
            throw new IllegalStateException("seq " + seq + " is not greater than last sealed seq "
                    + lastSealed + " (nonce reuse)");
        }
        int bodyLen = body.remaining();
        int total = bodyLen + OVERHEAD;
        if (out.remaining() < total) {
            throw new IllegalArgumentException("out has " + out.remaining() + " bytes remaining, a "
                    + bodyLen + "-byte body needs " + total);
        }
        lastSealed = seq; // burn the nonce before using it, even if sealing fails below
        putHeader(seq);
        int o = out.position();
        try {
            init(Cipher.ENCRYPT_MODE, seq);
            out.put(o, header);
            if (encrypt) {
                cipher.updateAAD(header, 0, HEADER_BYTES);
                crypt(body, body.position(), bodyLen, out, o + HEADER_BYTES);
            } else {
                out.put(o + HEADER_BYTES, body, body.position(), bodyLen);
                updateAad(out, o, HEADER_BYTES + bodyLen); // one call: the JDK buffers AAD
                crypt(body, 0, 0, out, o + HEADER_BYTES + bodyLen); // emits the tag only
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM seal failed for seq " + seq, e);
        }
        body.position(body.limit());
        out.position(o + total);
        return total;
    }

    /**
     * Verifies {@code datagram} (position to limit) and writes its body at {@code out}'s position
     * (decrypted if {@code encrypt}, copied otherwise). On success {@code datagram} is at its
     * limit, {@code out} has advanced by the body length, and the sequence number is marked seen.
     * On failure both buffers' positions are unchanged and no state changes (bytes of {@code out}
     * beyond its position are unspecified).
     *
     * @return the datagram's sequence number
     * @throws DatagramAuthException    if too short, key id differs, replayed, or the tag fails
     * @throws IllegalArgumentException if {@code out} cannot hold the body
     */
    public long open(ByteBuffer datagram, ByteBuffer out) throws DatagramAuthException {
        long seq = precheck(datagram);
        int p = datagram.position();
        int bodyLen = datagram.remaining() - OVERHEAD;
        if (out.remaining() < bodyLen) {
            throw new IllegalArgumentException("out has " + out.remaining() + " bytes remaining, body is "
                    + bodyLen);
        }
        if (encrypt) {
            try {
                init(Cipher.DECRYPT_MODE, seq);
                cipher.updateAAD(header, 0, HEADER_BYTES);
                crypt(datagram, p + HEADER_BYTES, bodyLen + TAG_BYTES, out, out.position());
            } catch (GeneralSecurityException e) {
                throw refused(e, seq);
            }
        } else {
            checkTag(datagram, p, bodyLen, seq);
            out.put(out.position(), datagram, p + HEADER_BYTES, bodyLen);
        }
        window.update(seq);
        datagram.position(datagram.limit());
        out.position(out.position() + bodyLen);
        return seq;
    }

    /**
     * Zero-copy open for authentication-only sealers: verifies {@code datagram} and on success
     * narrows it (position and limit) to the plaintext body inside the same buffer, and marks the
     * sequence number seen. On failure the buffer and state are unchanged.
     *
     * @return the datagram's sequence number
     * @throws IllegalStateException if this sealer encrypts (use {@link #open})
     * @throws DatagramAuthException if too short, key id differs, replayed, or the tag fails
     */
    public long verify(ByteBuffer datagram) throws DatagramAuthException {
        if (encrypt) {
            throw new IllegalStateException("verify() needs encrypt=false; this sealer encrypts, use open()");
        }
        long seq = precheck(datagram);
        int p = datagram.position();
        int bodyLen = datagram.remaining() - OVERHEAD;
        checkTag(datagram, p, bodyLen, seq);
        window.update(seq);
        datagram.limit(p + HEADER_BYTES + bodyLen).position(p + HEADER_BYTES);
        return seq;
    }

    /**
     * @return the key id of {@code datagram} (at its position), without changing the buffer
     * @throws DatagramAuthException if shorter than {@link #OVERHEAD}
     */
    public static int peekKeyId(ByteBuffer datagram) throws DatagramAuthException {
        requireLength(datagram);
        return (int) readBigEndian(datagram, datagram.position(), KEY_ID_BYTES);
    }

    /**
     * @return the sequence number of {@code datagram} (at its position), without changing the
     *     buffer; unauthenticated until opened
     * @throws DatagramAuthException if shorter than {@link #OVERHEAD}
     */
    public static long peekSeq(ByteBuffer datagram) throws DatagramAuthException {
        requireLength(datagram);
        return readBigEndian(datagram, datagram.position() + KEY_ID_BYTES, SEQ_BYTES);
    }

    private long precheck(ByteBuffer datagram) throws DatagramAuthException {
        requireLength(datagram);
        datagram.get(datagram.position(), header, 0, HEADER_BYTES);
        int kid = (int) readBigEndian(header, 0, KEY_ID_BYTES);
        if (kid != keyId) {
            throw new DatagramAuthException(DatagramAuthException.Reason.UNKNOWN_KEY_ID,
                    String.format("key id 0x%08x, expected 0x%08x", kid, keyId));
        }
        long seq = readBigEndian(header, KEY_ID_BYTES, SEQ_BYTES);
        if (!window.check(seq)) {
            throw new DatagramAuthException(DatagramAuthException.Reason.REPLAY, "seq " + seq
                    + " is negative, already seen, or older than the window (highest " + window.highest()
                    + ", width " + window.width() + ")");
        }
        return seq;
    }

    private static void requireLength(ByteBuffer datagram) throws DatagramAuthException {
        if (datagram.remaining() < OVERHEAD) {
            throw new DatagramAuthException(DatagramAuthException.Reason.TOO_SHORT, "datagram of "
                    + datagram.remaining() + " bytes is shorter than the " + OVERHEAD + "-byte overhead");
        }
    }

    private DatagramAuthException refused(GeneralSecurityException e, long seq) {
        if (e instanceof AEADBadTagException) {
            return new DatagramAuthException(DatagramAuthException.Reason.BAD_TAG, String.format(
                    "tag mismatch for key id 0x%08x seq %d", keyId, seq));
        }
        throw new IllegalStateException("AES-GCM open failed for seq " + seq, e);
    }

    /** GMAC check of an authentication-only datagram at absolute index {@code p}; no state change. */
    private void checkTag(ByteBuffer datagram, int p, int bodyLen, long seq) throws DatagramAuthException {
        try {
            init(Cipher.DECRYPT_MODE, seq);
            updateAad(datagram, p, HEADER_BYTES + bodyLen);
            crypt(datagram, p + HEADER_BYTES + bodyLen, TAG_BYTES, datagram, 0); // consumes the tag, emits nothing
        } catch (GeneralSecurityException e) {
            throw refused(e, seq);
        }
    }

    /** Sets the nonce to salt || seq and initialises the cipher. */
    private void init(int mode, long seq) throws GeneralSecurityException {
        for (int i = 0; i < SEQ_BYTES; i++) {
            iv[SALT_BYTES + i] = (byte) (seq >>> (56 - 8 * i));
        }
        cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, iv));
    }

    /**
     * {@code Cipher.doFinal} from {@code in[inOff, inOff+len)} to {@code out} at absolute index
     * {@code outOff}, through the array API; buffers without an accessible array (direct,
     * read-only) are staged through reusable scratch arrays, which avoids the JDK 17 provider's
     * per-call temporary arrays for direct buffers. Buffer positions are untouched.
     */
    private void crypt(ByteBuffer in, int inOff, int len, ByteBuffer out, int outOff) throws GeneralSecurityException {
        byte[] src;
        int srcOff;
        if (in.hasArray()) {
            src = in.array();
            srcOff = in.arrayOffset() + inOff;
        } else {
            src = scratchIn = grow(scratchIn, len);
            srcOff = 0;
            in.get(inOff, src, 0, len);
        }
        if (out.hasArray()) {
            cipher.doFinal(src, srcOff, len, out.array(), out.arrayOffset() + outOff);
        } else {
            scratchOut = grow(scratchOut, cipher.getOutputSize(len));
            int n = cipher.doFinal(src, srcOff, len, scratchOut, 0);
            if (n > 0) {
                out.put(outOff, scratchOut, 0, n);
            }
        }
    }

    /** Feeds {@code len} bytes of {@code buf} from absolute index {@code off} as AAD, positions untouched. */
    private void updateAad(ByteBuffer buf, int off, int len) {
        if (buf.hasArray()) {
            cipher.updateAAD(buf.array(), buf.arrayOffset() + off, len);
        } else {
            scratchIn = grow(scratchIn, len);
            buf.get(off, scratchIn, 0, len);
            cipher.updateAAD(scratchIn, 0, len);
        }
    }

    private static byte[] grow(byte[] a, int len) {
        return a.length >= len ? a : new byte[Math.max(len, 2 * a.length)];
    }

    private void putHeader(long seq) {
        for (int i = 0; i < KEY_ID_BYTES; i++) {
            header[i] = (byte) (keyId >>> (24 - 8 * i));
        }
        for (int i = 0; i < SEQ_BYTES; i++) {
            header[KEY_ID_BYTES + i] = (byte) (seq >>> (56 - 8 * i));
        }
    }

    private static long readBigEndian(ByteBuffer b, int index, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (b.get(index + i) & 0xFF);
        }
        return v;
    }

    private static long readBigEndian(byte[] b, int index, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (b[index + i] & 0xFF);
        }
        return v;
    }
}
