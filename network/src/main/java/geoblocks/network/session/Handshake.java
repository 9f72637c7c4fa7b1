package geoblocks.network.session;

import geoblocks.net.ClusterVersion;
import geoblocks.net.NetAddress;
import geoblocks.net.PeerVersions;
import geoblocks.net.VersionRange;
import geoblocks.net.Wire;
import geoblocks.network.frame.Control;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntFunction;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mutual authentication of one TCP connection by the cluster secret, a challenge-response over
 * fresh nonces (pure: no I/O, the caller moves the frames). Both sides send HELLO (listening
 * address, 16-byte random nonce) at once; on the peer's HELLO each sends PROOF = HMAC-SHA256
 * (RFC 2104) under the secret of
 *
 * <pre>
 * "geoblocks-proof-v1" | role of the prover (1 initiator, 2 acceptor) | transcript
 * transcript = initiator address | acceptor address | nonce_i | nonce_a | cert_i | cert_a | versions_i | versions_a
 *              [| release_i | build_i | release_a | build_a: when both HELLOs name a release, layout 3 on]
 * </pre>
 *
 * where cert_x is the SHA-256 of x's TLS certificate, or empty without TLS. A side that does not
 * know the secret cannot produce a valid PROOF; fresh nonces make a recorded PROOF useless on a
 * new connection; binding the certificates each side actually saw makes a TLS man-in-the-middle
 * (who must present his own certificate) fail the check. The role byte keeps a PROOF from being
 * reflected back. After both proofs verified, {@link #sessionSecret} is an HMAC of the transcript
 * under the secret: both ends compute the same value, and nobody without the secret can.
 *
 * <p>Versions: each HELLO offers the transport versions its sender speaks and, for each message
 * family (by codec id), the versions of its format. On the peer's HELLO each side agrees the highest
 * version both offer of the transport and of every family both carry ({@link #agreed}), or refuses
 * the connection with a message that names both ranges and says which end is older. The offers are
 * part of the transcript, so nobody in the middle can talk two ends down to an older version.
 *
 * <p>Node keys ({@link NodeIdentity}): a node with a key also signs, in its PROOF,
 * {@code "geoblocks-node-key-v1" | role of the prover | transcript} with Ed25519. A side whose peer
 * claims the address of a keyed member checks that signature against the member's key, and refuses the
 * connection without it: holding the cluster secret (every client does) no longer makes anyone a node.
 * A peer at an address no keyed member has (a client) signs nothing and is taken as a client.
 *
 * <p>Access keys: a client may authenticate by an access key instead of the cluster secret ({@link #byKey}): its
 * HELLO (layout 4) names the key's id, and both PROOFs are the HMACs above under the key's secret instead of the
 * cluster secret, over a transcript that ends with the key id. The node looks the key up before it answers
 * ({@link #onHello(Control.Hello, ClientKey)}; the caller does so asynchronously, see {@link KeyResolver}) and
 * refuses an unknown or revoked one. So the client proves it holds the key's secret, the node proves it could
 * read the key (it is of the cluster: only the cluster's nodes open a key's sealed record), and the node's
 * signature, when it has a node key, still proves which node. {@link #sessionSecret} is then the HMAC of the
 * transcript under the key's secret with its own label: fresh per connection (both nonces), known to both ends,
 * to nobody without the key's secret, and different from any session of another key (the id is in the
 * transcript) or of the cluster secret (the label). A recorded PROOF is useless on another connection (other
 * nonces), and a HELLO cut back to layout 3 on the way makes the node check the PROOF under the cluster
 * secret, which fails. A node that takes clients by access key only ({@link #refusingSecretClients}) refuses a
 * HELLO without a key from any address but a keyed member's (whose PROOF must then carry its signature).
 */
public final class Handshake {
    public enum Role { INITIATOR, ACCEPTOR }

    private static final String ALGORITHM = "HmacSHA256";

    private final Role role;
    private final NetAddress self;
    private final NetAddress expectedPeer;
    /** The key of both PROOFs: the cluster secret's, or an access key's ({@link #byKey}, or a keyed peer's). */
    private SecretKeySpec key;
    /** The access key id of the client end (ours as initiator, the peer's as acceptor); empty: none. */
    private String keyId = "";
    /** The access key a client proved to this acceptor; null: none. */
    private ClientKey peerKey;
    private boolean refuseSecretClients;
    private final byte[] nonce;
    private final byte[] localCert;
    private final byte[] peerCert;
    private final NodeIdentity identity;
    private SortedMap<Integer, VersionRange> offered = new TreeMap<>();
    private IntFunction<String> names = id -> "protocol " + id;
    private final int[] agreed = new int[256];
    /** What this end runs, named in its HELLO (null: a layout 2 HELLO, as the previous release writes). */
    private ClusterVersion release;
    private String build = "";
    /** The lowest release a peer may run (the cluster's version). */
    private ClusterVersion required = ClusterVersion.V0_2;
    private Control.Hello peerHello;
    private boolean proofSent;
    private boolean peerVerified;

    /**
     * @param expectedPeer for the initiator, the address it dialled (the peer's HELLO must name
     *     it); null for the acceptor, which learns the peer from its HELLO
     * @param nonce 16 fresh random bytes (injected so tests are deterministic)
     * @param localCert SHA-256 of our TLS certificate, or empty without TLS
     * @param peerCert SHA-256 of the peer's TLS certificate, or empty without TLS
     */
    public Handshake(Role role, NetAddress self, NetAddress expectedPeer, byte[] secret, byte[] nonce,
            byte[] localCert, byte[] peerCert) {
        this(role, self, expectedPeer, secret, nonce, localCert, peerCert, NodeIdentity.NONE);
    }

    /** As above, with the cluster's node keys and this side's own ({@code identity}). */
    public Handshake(Role role, NetAddress self, NetAddress expectedPeer, byte[] secret, byte[] nonce,
            byte[] localCert, byte[] peerCert, NodeIdentity identity) {
        if (nonce.length != Control.NONCE_BYTES) {
            throw new IllegalArgumentException("nonce must be " + Control.NONCE_BYTES + " bytes, was " + nonce.length);
        }
        if (secret.length < 16) {
            throw new IllegalArgumentException("cluster secret must be at least 16 bytes, was " + secret.length);
        }
        if ((role == Role.INITIATOR) != (expectedPeer != null)) {
            throw new IllegalArgumentException("the initiator (only) names the peer it dialled");
        }
        this.role = role;
        this.self = self;
        this.expectedPeer = expectedPeer;
        this.key = new SecretKeySpec(secret, ALGORITHM);
        this.nonce = nonce.clone();
        this.localCert = localCert.clone();
        this.peerCert = peerCert.clone();
        this.identity = identity;
    }

    /**
     * Offers the versions of each message family this end carries (codec id to range; {@code names}
     * names a family in refusals). Before {@link #hello}; none offered by default.
     */
    public Handshake offering(SortedMap<Integer, VersionRange> protocols, IntFunction<String> names) {
        if (protocols.containsKey(0)) {
            throw new IllegalArgumentException("protocol id 0 is the transport's own");
        }
        this.offered = new TreeMap<>(protocols);
        this.names = names;
        return this;
    }

    /**
     * Names what this end runs in its HELLO: its release line and build ("0.3.0 (commit 1a2b3c4d5e6f)"), which the
     * peer shows and checks against the cluster's version. Null {@code release}: a HELLO of layout 2, naming none
     * (what the previous release writes; an upgrade test's stand-in for it). Before {@link #hello}.
     */
    public Handshake releasing(ClusterVersion release, String build) {
        this.release = release;
        this.build = release == null ? "" : build;
        return this;
    }

    /**
     * Refuses a peer whose release line is below {@code version} (the cluster's version: what it switched on is
     * more than an older build reads). A layout 2 HELLO runs 0.2. Before the peer's HELLO.
     */
    public Handshake requiring(ClusterVersion version) {
        this.required = version;
        return this;
    }

    /**
     * This client authenticates by access key {@code id} and its {@code secret} instead of the cluster secret
     * (initiator only, naming a release; before {@link #hello}).
     */
    public Handshake byKey(String id, byte[] secret) {
        if (role != Role.INITIATOR) {
            throw new IllegalStateException("only the initiator, a client, presents an access key");
        }
        if (id.isEmpty()) {
            throw new IllegalArgumentException("an access key id is not empty");
        }
        if (secret.length < 16) {
            throw new IllegalArgumentException("an access key's secret has at least 16 bytes, was " + secret.length);
        }
        this.keyId = id;
        this.key = new SecretKeySpec(secret, ALGORITHM);
        return this;
    }

    /**
     * Whether this acceptor refuses a peer that proves the cluster secret at an address no keyed member has: true
     * when the node takes clients by access key only (geoblocks.network.clients). Before the peer's HELLO.
     */
    public Handshake refusingSecretClients(boolean refuse) {
        this.refuseSecretClients = refuse;
        return this;
    }

    /** Our HELLO: send it first. */
    public Control.Hello hello() {
        if (!keyId.isEmpty() && role == Role.INITIATOR) {
            if (release == null) {
                throw new IllegalStateException("a HELLO with an access key names its release (layout 4)");
            }
            return new Control.Hello(Control.LAYOUT_KEY, self, nonce.clone(), Control.TRANSPORT, offered, release, build,
                    keyId);
        }
        return new Control.Hello(release == null ? Control.LAYOUT_RANGES : Control.VERSION, self, nonce.clone(),
                Control.TRANSPORT, offered, release, build);
    }

    /** What the peer's HELLO said it runs: its release line (0.2 for layout 2) and build ("" when it named none). */
    public PeerVersions.Release peerRelease() {
        if (peerHello == null) {
            throw new IllegalStateException("no HELLO from the peer yet");
        }
        return new PeerVersions.Release(peerHello.releaseLine(), peerHello.build());
    }

    /** The peer's HELLO arrived, naming no access key: check it and return our PROOF to send. */
    public Control.Proof onHello(Control.Hello h) throws HandshakeException {
        return onHello(h, null);
    }

    /**
     * The peer's HELLO arrived: check it and return our PROOF to send. {@code client}: the access key it names, as
     * this node looked it up (null: none named, or the node knows no such key or it was revoked: refused).
     */
    public Control.Proof onHello(Control.Hello h, ClientKey client) throws HandshakeException {
        if (!h.keyId().isEmpty()) {
            if (role == Role.INITIATOR) {
                throw new HandshakeException(h.address() + " presented an access key: a node presents none");
            }
            if (client == null) {
                throw new HandshakeException(h.address() + " presented access key " + h.keyId() + ", which this node"
                        + " does not know or which was revoked");
            }
            if (!client.id().equals(h.keyId())) {
                throw new IllegalArgumentException("looked up key " + client.id() + " for a HELLO naming " + h.keyId());
            }
        } else if (client != null) {
            throw new IllegalArgumentException("a key for a HELLO that names none");
        } else if (role == Role.ACCEPTOR && refuseSecretClients && identity.keyOf(h.address()) == null) {
            throw new HandshakeException(h.address() + " proves the cluster secret at an address no keyed member has:"
                    + " this node takes clients by access key only (geoblocks.network.clients = keys); give the client"
                    + " an access key (GEOBLOCKS_ACCESS_KEY, GEOBLOCKS_SECRET_KEY)");
        }
        if (peerHello != null) {
            throw new HandshakeException("second HELLO from " + h.address());
        }
        if (h.address().equals(self)) {
            throw new HandshakeException("peer claims our own address " + self);
        }
        if (expectedPeer != null && !expectedPeer.equals(h.address())) {
            throw new HandshakeException("dialled " + expectedPeer + " but the peer says it is " + h.address());
        }
        if (Arrays.equals(h.nonce(), nonce)) {
            throw new HandshakeException("peer echoed our nonce");
        }
        agree(h);
        if (h.releaseLine().compareTo(required) < 0) {
            throw new HandshakeException(h.address() + " runs geoblocks " + (h.build().isEmpty() ? h.releaseLine() + ".x"
                    : h.build()) + ", below the cluster's version " + required + " (raised by `cluster finalize`: what it"
                    + " switched on is more than release " + h.releaseLine() + " reads); upgrade it to " + required
                    + " or later (see docs/upgrading.md)");
        }
        if (client != null) {
            keyId = client.id();
            peerKey = client;
            key = new SecretKeySpec(client.secret(), ALGORITHM);
        }
        peerHello = h;
        proofSent = true;
        return new Control.Proof(mac(role), identity.signs() ? identity.sign(signed(role)) : new byte[0]);
    }

    /** Agrees every version both HELLOs offer (see the class comment), or refuses naming both ranges. */
    private void agree(Control.Hello h) throws HandshakeException {
        Arrays.fill(agreed, -1);
        agreed[0] = Control.TRANSPORT.highestShared(h.transport());
        if (agreed[0] < 0) {
            throw new HandshakeException(h.address() + ": " + VersionRange.mismatch("transport", Control.TRANSPORT,
                    h.transport()));
        }
        for (var e : offered.entrySet()) {
            VersionRange theirs = h.protocols().get(e.getKey());
            if (theirs != null) {
                agreed[e.getKey()] = e.getValue().highestShared(theirs);
                if (agreed[e.getKey()] < 0) {
                    throw new HandshakeException(h.address() + ": " + VersionRange.mismatch(names.apply(e.getKey()),
                            e.getValue(), theirs));
                }
            }
        }
    }

    /**
     * The versions agreed with the peer, by protocol id: 0 the transport, 1..255 the message families
     * both offered; -1 where none was agreed. Known once the peer's HELLO arrived.
     */
    public int[] agreed() {
        if (peerHello == null) {
            throw new IllegalStateException("no HELLO from the peer yet");
        }
        return agreed.clone();
    }

    /** The peer's PROOF arrived: true when the handshake is now complete. */
    public boolean onProof(Control.Proof p) throws HandshakeException {
        if (peerHello == null) {
            throw new HandshakeException("PROOF before HELLO");
        }
        if (peerVerified) {
            throw new HandshakeException("second PROOF from " + peerHello.address());
        }
        Role peerRole = role == Role.INITIATOR ? Role.ACCEPTOR : Role.INITIATOR;
        if (!MessageDigest.isEqual(mac(peerRole), p.mac())) {
            if (!keyId.isEmpty()) {
                throw new HandshakeException(peerHello.address() + " failed the proof of access key " + keyId
                        + " (bad proof): not that key's secret");
            }
            throw new HandshakeException(peerHello.address() + " failed the cluster-secret proof (bad proof): both ends"
                    + " need the same cluster secret (geoblocks.cluster.secret)");
        }
        if (!identity.accepts(peerHello.address(), signed(peerRole), p.signature())) {
            throw new HandshakeException(peerHello.address() + " claims the address of a cluster member but did not"
                    + (p.signature().length == 0 ? " sign with" : " prove") + " that member's node key"
                    + " (geoblocks.cluster.regions[].key): the cluster secret alone makes nobody a node");
        }
        peerVerified = true;
        return complete();
    }

    public boolean complete() {
        return proofSent && peerVerified;
    }

    /** The peer's listening address, known once its HELLO arrived. */
    public NetAddress peer() {
        if (peerHello == null) {
            throw new IllegalStateException("no HELLO from the peer yet");
        }
        return peerHello.address();
    }

    public Role role() {
        return role;
    }

    /** Key material shared by both ends of this connection; only after {@link #complete}. */
    public byte[] sessionSecret() {
        if (!complete()) {
            throw new IllegalStateException("handshake not complete");
        }
        return hmac(keyId.isEmpty() ? "geoblocks-session-v1" : "geoblocks-key-session-v1", 0);
    }

    /** The access key the peer proved (this end accepted a client by access key), or null. */
    public ClientKey peerKey() {
        if (!complete()) {
            throw new IllegalStateException("handshake not complete");
        }
        return peerKey;
    }

    /** What a node signs with its key: the label, the prover's role and the transcript. */
    private byte[] signed(Role prover) {
        byte[] label = "geoblocks-node-key-v1".getBytes(StandardCharsets.US_ASCII);
        byte[] t = transcript();
        ByteBuffer b = ByteBuffer.allocate(label.length + 1 + t.length);
        b.put(label).put((byte) (prover == Role.INITIATOR ? 1 : 2)).put(t);
        return b.array();
    }

    private byte[] mac(Role prover) {
        return hmac("geoblocks-proof-v1", prover == Role.INITIATOR ? 1 : 2);
    }

    private byte[] hmac(String label, int roleByte) {
        try {
            Mac m = Mac.getInstance(ALGORITHM);
            m.init(key);
            m.update(label.getBytes(StandardCharsets.US_ASCII));
            m.update((byte) roleByte);
            m.update(transcript());
            return m.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private byte[] transcript() {
        boolean initiator = role == Role.INITIATOR;
        NetAddress i = initiator ? self : peerHello.address();
        NetAddress a = initiator ? peerHello.address() : self;
        byte[] ni = initiator ? nonce : peerHello.nonce();
        byte[] na = initiator ? peerHello.nonce() : nonce;
        byte[] ci = initiator ? localCert : peerCert;
        byte[] ca = initiator ? peerCert : localCert;
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        for (NetAddress addr : new NetAddress[] {i, a}) {
            ByteBuffer b = ByteBuffer.allocate(Wire.addressSize(addr));
            Wire.writeAddress(addr, b);
            out.writeBytes(b.array());
        }
        for (byte[] part : new byte[][] {ni, na, ci, ca}) {
            out.write(part.length);
            out.writeBytes(part);
        }
        Control.Hello ours = hello();
        for (Control.Hello h : initiator ? new Control.Hello[] {ours, peerHello} : new Control.Hello[] {peerHello, ours}) {
            out.write(h.transport().min());
            out.write(h.transport().max());
            out.write(h.protocols().size());
            h.protocols().forEach((id, r) -> {
                out.write(id);
                out.write(r.min());
                out.write(r.max());
            });
        }
        if (ours.release() != null && peerHello.release() != null) {
            // both HELLOs name their releases (layout 3 on): so does the transcript, and a HELLO cut back to
            // layout 2 on the way (to hide a release below the cluster's version) fails the proofs
            for (Control.Hello h : initiator ? new Control.Hello[] {ours, peerHello} : new Control.Hello[] {peerHello, ours}) {
                out.write(h.release().major());
                out.write(h.release().minor());
                out.write(h.build().length());
                out.writeBytes(h.build().getBytes(StandardCharsets.US_ASCII));
            }
        }
        if (!keyId.isEmpty()) {
            // a client by access key (layout 4): its key's id, so that no proof of one key passes for another's
            out.write(keyId.length());
            out.writeBytes(keyId.getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }
}
