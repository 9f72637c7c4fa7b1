package geoblocks.network.session;

import geoblocks.net.NetAddress;
import geoblocks.net.SecretFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * Who the nodes of a cluster are, for the handshake: each member's Ed25519 public key (RFC 8032) by
 * the address it is known at ({@code geoblocks.cluster.regions[].key}), and this process's own private
 * key when it is a node (a client has none). A connection that claims a keyed member's address must
 * sign the handshake transcript with that member's key, so the cluster secret alone makes nobody a
 * node. Keys are written as {@code ed25519:} and the base64 of the key's 32 bytes. The config's keys are
 * fixed; the keys the cluster layout names ({@link #learn}, for regions added with a key) are replaced as
 * the layout changes, and win over the config's for the same address. Thread-safe: handshakes read a
 * snapshot of the keys.
 */
public final class NodeIdentity {
    /** No keys at all: every connection is who its cluster-secret proof and claimed address say (the old rule). */
    public static final NodeIdentity NONE = new NodeIdentity(null, Map.of());
    public static final String PREFIX = "ed25519:";
    public static final int SIGNATURE_BYTES = 64;
    /** The X.509 SubjectPublicKeyInfo of an Ed25519 key, before its 32 bytes (RFC 8410). */
    private static final byte[] SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    /** The config's keys (fixed). */
    private final Map<NetAddress, PublicKey> configured;
    /** Whether the config names a key for every member (else some member proves only the cluster secret). */
    private final boolean everyMember;
    /**
     * The config's keys overlaid by the layout's: the keys a connection claiming each address may prove (the
     * current one first; two while a member rotates its key), replaced whole by {@link #learn}.
     */
    private volatile Map<NetAddress, List<PublicKey>> members;
    /**
     * The same keys for Bouncy Castle's Ed25519 (RFC 8032), which signs and verifies in tens of microseconds where
     * the JDK 17 provider took about 0.65 ms per operation (2.6 ms of CPU per connection for both ends).
     */
    private volatile Ed25519PrivateKeyParameters ownRaw;
    private volatile Map<NetAddress, List<Ed25519PublicKeyParameters>> membersRaw;

    /** {@code own}: this node's private key, null for a client; {@code members}: every member, by address, with its key. */
    public NodeIdentity(PrivateKey own, Map<NetAddress, PublicKey> members) {
        this(own, members, true);
    }

    /**
     * {@code members}: the keyed members by address; {@code everyMember}: whether they are all the members (false:
     * the config names members without a key, which prove the cluster secret only).
     */
    public NodeIdentity(PrivateKey own, Map<NetAddress, PublicKey> members, boolean everyMember) {
        this.everyMember = everyMember;
        this.configured = Map.copyOf(members);
        this.ownRaw = own == null ? null : new Ed25519PrivateKeyParameters(last32(own.getEncoded()), 0);
        Map<NetAddress, List<PublicKey>> keys = new HashMap<>();
        configured.forEach((a, k) -> keys.put(a, List.of(k)));
        set(keys);
    }

    private void set(Map<NetAddress, List<PublicKey>> keys) {
        Map<NetAddress, List<Ed25519PublicKeyParameters>> raw = new HashMap<>();
        keys.forEach((a, ks) -> raw.put(a, ks.stream().map(NodeIdentity::raw).toList()));
        this.membersRaw = Map.copyOf(raw);
        this.members = Map.copyOf(keys);
    }

    /**
     * Signs from the next handshake on with {@code own} (a node that rotated its key, once every peer accepts
     * the new one); connections already up keep their sessions.
     */
    public void useOwn(PrivateKey own) {
        this.ownRaw = new Ed25519PrivateKeyParameters(last32(own.getEncoded()), 0);
    }

    /** The same config keys, with {@code own} as this process's key (and none learned from a layout yet). */
    public NodeIdentity withOwn(PrivateKey own) {
        return new NodeIdentity(own, configured, everyMember);
    }

    /**
     * The keys the cluster layout names now, by member address: from the next handshake on, a connection
     * claiming one of these addresses must prove that key (instead of the config's, if it named one);
     * addresses the previous layout named and this one does not fall back to the config's key, or none.
     */
    public synchronized void learn(Map<NetAddress, List<PublicKey>> layoutKeys) {
        Map<NetAddress, List<PublicKey>> next = new HashMap<>();
        configured.forEach((a, k) -> next.put(a, List.of(k)));
        layoutKeys.forEach((a, ks) -> {
            if (!ks.isEmpty()) {
                next.put(a, List.copyOf(ks));
            }
        });
        set(next);
    }

    /**
     * Whether every member proves a node key: the config names one for each (and at least one), so a connection
     * proving the cluster secret at an address no keyed member has is no member.
     */
    public boolean everyMemberKeyed() {
        return everyMember && keyed();
    }

    /** Whether the cluster's nodes prove keys: the config or the layout names at least one. */
    public boolean keyed() {
        return !members.isEmpty();
    }

    /** The key's 32 bytes: the end of its X.509 (public) or PKCS#8 (private) encoding, as RFC 8410 lays them out. */
    private static byte[] last32(byte[] der) {
        return Arrays.copyOfRange(der, der.length - 32, der.length);
    }

    private static Ed25519PublicKeyParameters raw(PublicKey k) {
        return new Ed25519PublicKeyParameters(last32(k.getEncoded()), 0);
    }

    /** Whether this process signs its handshakes (it is a node with a key). */
    public boolean signs() {
        return ownRaw != null;
    }

    /** The key a connection claiming {@code address} must prove, or null when no keyed member has that address. */
    public PublicKey keyOf(NetAddress address) {
        List<PublicKey> ks = members.get(address);
        return ks == null ? null : ks.get(0);
    }

    byte[] sign(byte[] data) {
        Ed25519Signer s = new Ed25519Signer();
        s.init(true, ownRaw);
        s.update(data, 0, data.length);
        return s.generateSignature();
    }

    /**
     * Whether a peer claiming {@code address} proved who it is: true when no keyed member has that address (a
     * client, or a cluster without keys), else whether {@code signature} is that member's over {@code data}.
     */
    boolean accepts(NetAddress address, byte[] data, byte[] signature) {
        List<Ed25519PublicKeyParameters> ks = membersRaw.get(address);
        if (ks == null) {
            return true;
        }
        for (Ed25519PublicKeyParameters k : ks) {
            if (verify(k, data, signature)) {
                return true;
            }
        }
        return false;
    }

    static boolean verify(PublicKey key, byte[] data, byte[] signature) {
        return verify(raw(key), data, signature);
    }

    private static boolean verify(Ed25519PublicKeyParameters key, byte[] data, byte[] signature) {
        if (signature.length != SIGNATURE_BYTES) {
            return false;
        }
        Ed25519Signer s = new Ed25519Signer();
        s.init(false, key);
        s.update(data, 0, data.length);
        return s.verifySignature(signature);
    }

    /** A new Ed25519 key pair. */
    public static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available in this JDK", e);
        }
    }

    /** {@code ed25519:BASE64} of a public key. */
    public static String format(PublicKey key) {
        byte[] der = key.getEncoded();
        return PREFIX + Base64.getEncoder().encodeToString(Arrays.copyOfRange(der, der.length - 32, der.length));
    }

    /** The public key written as {@link #format} writes it; IllegalArgumentException naming what is wrong. */
    public static PublicKey parse(String text) {
        String t = text.trim();
        if (!t.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a node key is written " + PREFIX + "BASE64, was '" + text + "'");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(t.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("node key '" + text + "' is not base64: " + e.getMessage());
        }
        if (raw.length != 32) {
            throw new IllegalArgumentException("an Ed25519 node key is 32 bytes, '" + text + "' has " + raw.length);
        }
        byte[] der = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + 32);
        System.arraycopy(raw, 0, der, SPKI_PREFIX.length, 32);
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("node key '" + text + "' is not an Ed25519 key: " + e.getMessage());
        }
    }

    /**
     * The node key pair kept in {@code file} (owner-only permissions; two lines: the private key as
     * PKCS#8 in base64, then the public key as {@link #format} writes it), made and written there first
     * (a temporary file, then renamed) when there is none.
     */
    public static KeyPair loadOrCreate(Path file) throws IOException {
        if (Files.exists(file)) {
            try {
                String[] lines = Files.readString(file, StandardCharsets.US_ASCII).trim().split("\\s+");
                if (lines.length != 2) {
                    throw new IllegalArgumentException("it holds " + lines.length + " lines, not 2");
                }
                byte[] der = Base64.getDecoder().decode(lines[0]);
                PrivateKey priv = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
                PublicKey pub = parse(lines[1]);
                byte[] probe = "geoblocks-node-key-check".getBytes(StandardCharsets.US_ASCII);
                if (!verify(pub, probe, new NodeIdentity(priv, Map.of()).sign(probe))) {
                    throw new IllegalArgumentException("its public key is not its private key's");
                }
                return new KeyPair(pub, priv);
            } catch (IllegalArgumentException | GeneralSecurityException e) {
                throw new IOException("node key file " + file + " is damaged (" + e.getMessage() + "): restore it, or delete it"
                        + " and give the cluster the new key the node makes", e);
            }
        }
        KeyPair kp = generate();
        SecretFile.write(file, Base64.getEncoder().encodeToString(kp.getPrivate().getEncoded()) + "\n"
                + format(kp.getPublic()) + "\n");
        return kp;
    }
}
