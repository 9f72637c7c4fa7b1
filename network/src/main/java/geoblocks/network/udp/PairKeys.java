package geoblocks.network.udp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The two directional {@link DatagramSealer}s of one peer pair, derived with HKDF (RFC 5869) from
 * a session secret both ends computed identically; invariant: this node's {@link #sender()} uses
 * the same key, salt and key id as the remote node's {@link #receiver()}, and vice versa.
 *
 * <p>Derivation:
 *
 * <pre>
 *  PRK = HKDF-Extract(salt = "geoblocks-udp-v1", IKM = sessionSecret)
 *  OKM = HKDF-Expand(PRK, info = "geoblocks-udp " + A + "&gt;" + B, 40)   A = sender id, B = receiver id
 *  +--------------------------------+--------+--------+
 *  | AES-256 key (32 bytes)         | salt 4 | keyid 4|   key id is read big endian
 *  +--------------------------------+--------+--------+
 * </pre>
 *
 * <p>All strings are UTF-8. Sealers are not thread-safe; see {@link DatagramSealer}.
 */
public final class PairKeys {

    /** HKDF-Extract salt, fixing the protocol version. */
    static final byte[] EXTRACT_SALT = "geoblocks-udp-v1".getBytes(StandardCharsets.UTF_8);
    /** Prefix of the HKDF-Expand info string. */
    static final String INFO_PREFIX = "geoblocks-udp ";
    /** Bytes expanded per direction: key, nonce salt, key id. */
    static final int OKM_BYTES = DatagramSealer.KEY_BYTES + DatagramSealer.SALT_BYTES + 4;

    private final DatagramSealer sender;
    private final DatagramSealer receiver;

    private PairKeys(DatagramSealer sender, DatagramSealer receiver) {
        this.sender = sender;
        this.receiver = receiver;
    }

    /**
     * @param sessionSecret key material both ends computed identically (not retained)
     * @param localId       this node's id, e.g. {@code "127.0.0.1:47101"}
     * @param remoteId      the peer's id; must differ from {@code localId}
     * @param encrypt       true for AES-GCM encryption, false for authentication only
     */
    public static PairKeys derive(byte[] sessionSecret, String localId, String remoteId, boolean encrypt) {
        if (sessionSecret == null || sessionSecret.length == 0) {
            throw new IllegalArgumentException("sessionSecret must be non-empty, got "
                    + (sessionSecret == null ? "null" : "0 bytes"));
        }
        if (localId == null || remoteId == null || localId.equals(remoteId)) {
            throw new IllegalArgumentException("localId and remoteId must be distinct non-null ids, got "
                    + localId + " and " + remoteId);
        }
        byte[] prk = Hkdf.extract(EXTRACT_SALT, sessionSecret);
        try {
            return new PairKeys(sealer(prk, localId, remoteId, encrypt), sealer(prk, remoteId, localId, encrypt));
        } finally {
            Arrays.fill(prk, (byte) 0);
        }
    }

    /** @return the sealer for datagrams this node sends to the remote node (local&gt;remote) */
    public DatagramSealer sender() {
        return sender;
    }

    /** @return the sealer for datagrams this node receives from the remote node (remote&gt;local) */
    public DatagramSealer receiver() {
        return receiver;
    }

    private static DatagramSealer sealer(byte[] prk, String from, String to, boolean encrypt) {
        byte[] info = (INFO_PREFIX + from + ">" + to).getBytes(StandardCharsets.UTF_8);
        byte[] okm = Hkdf.expand(prk, info, OKM_BYTES);
        try {
            byte[] key = Arrays.copyOfRange(okm, 0, DatagramSealer.KEY_BYTES);
            byte[] salt = Arrays.copyOfRange(okm, DatagramSealer.KEY_BYTES, DatagramSealer.KEY_BYTES + 4);
            int keyId = ((okm[36] & 0xFF) << 24) | ((okm[37] & 0xFF) << 16) | ((okm[38] & 0xFF) << 8) | (okm[39] & 0xFF);
            DatagramSealer sealer = new DatagramSealer(key, salt, keyId, encrypt);
            Arrays.fill(key, (byte) 0);
            return sealer;
        } finally {
            Arrays.fill(okm, (byte) 0);
        }
    }
}
