package geoblocks.network.frame;

import geoblocks.net.ClusterVersion;
import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.VersionRange;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The transport's own control frames (frame kind 0), pure and Netty-free. Body layouts after the
 * kind byte:
 *
 * <pre>
 * HELLO       | 1 | layout u8 = 3 | address (Wire.writeAddress) | nonce (16 bytes) |
 *             | transport min u8 | transport max u8 | n u8 | n x (protocol id u8 | min u8 | max u8) |
 *             | release major u8 | release minor u8 | build length u8 | build (printable ASCII) |
 *             [| key id length u8 | key id (printable ASCII): layout 4 on ]
 * PROOF       | 2 | HMAC-SHA256 (32 bytes) | [Ed25519 signature (64 bytes)]    |
 * RETIRE      | 3 |   (the sender writes nothing more on this connection)       |
 * RETIRE_ACK  | 4 |   (every frame before the peer's RETIRE has been delivered) |
 * </pre>
 *
 * <p>A HELLO offers the versions its sender speaks: of the transport itself, and of each message
 * family it carries (by its codec id, see {@link geoblocks.net.WireCodec#versions}); the handshake
 * agrees the highest version both ends share of each. Layout 2 is the first with ranges, and every
 * later layout keeps its fields in this order: a later version may append fields, which this reader
 * skips. Layout 3 (release 0.3) appends the sender's release line and build, so peers know what each
 * other runs (the cluster version rises only when every member runs the new release); a layout 2
 * HELLO (release 0.2.x) names none. Layout 4 appends the access key id a client authenticates by (see
 * Handshake): a client with a key writes it, every other HELLO stays layout 3, so a peer of the previous
 * release reads them all (it skips what a later layout appends). A HELLO of layout 1 (the builds before version ranges) is refused
 * with a message that says so.
 *
 * A PROOF carries the signature only when its sender is a node with a key (see NodeIdentity); a
 * client's PROOF is the 32-byte MAC alone, as every PROOF was before node keys.
 */
public sealed interface Control {
    int HELLO = 1;
    int PROOF = 2;
    int RETIRE = 3;
    int RETIRE_ACK = 4;
    /** The HELLO layout this node writes; layouts from 2 on start alike (see above). */
    int VERSION = 3;
    /** The HELLO layout of a client that authenticates by an access key: layout 3 and the key's id. */
    int LAYOUT_KEY = 4;
    /** Most bytes of an access key id in a HELLO. */
    int MAX_KEY_ID_BYTES = 64;
    /** The first HELLO layout, the previous release's, that names its sender's release: none did before. */
    int LAYOUT_RANGES = 2;
    /** Most bytes of a HELLO's build description. */
    int MAX_BUILD_BYTES = 64;
    /** The transport versions this node speaks: 2, the first with version ranges. */
    VersionRange TRANSPORT = VersionRange.only(2);
    int NONCE_BYTES = 16;
    int MAC_BYTES = 32;
    int SIGNATURE_BYTES = 64;

    /**
     * First frame each side sends: who it is (its listening address), a fresh nonce, and the versions
     * it speaks of the transport and of each message family (codec id to range).
     */
    record Hello(int version, NetAddress address, byte[] nonce, VersionRange transport,
            SortedMap<Integer, VersionRange> protocols, ClusterVersion release, String build, String keyId)
            implements Control {
        public Hello {
            protocols = Collections.unmodifiableSortedMap(new TreeMap<>(protocols));
            if (protocols.size() > 255) {
                throw new IllegalArgumentException("at most 255 protocols in a HELLO, got " + protocols.size());
            }
            if ((version >= 3) != (release != null)) {
                throw new IllegalArgumentException("a HELLO of layout 3 on names its release, one of layout 2 none; layout "
                        + version + (release == null ? " without" : " with") + " a release");
            }
            build = build == null ? "" : build;
            if (build.length() > MAX_BUILD_BYTES || !build.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f)) {
                throw new IllegalArgumentException("a HELLO's build is at most " + MAX_BUILD_BYTES
                        + " printable ASCII characters, was '" + build + "'");
            }
            keyId = keyId == null ? "" : keyId;
            if (!keyId.isEmpty() && version < LAYOUT_KEY) {
                throw new IllegalArgumentException("a HELLO names an access key from layout " + LAYOUT_KEY + " on, not "
                        + version);
            }
            if (keyId.length() > MAX_KEY_ID_BYTES || !keyId.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f)) {
                throw new IllegalArgumentException("a HELLO's access key id is at most " + MAX_KEY_ID_BYTES
                        + " printable ASCII characters without spaces, was '" + keyId + "'");
            }
        }

        /** A HELLO naming no access key. */
        public Hello(int version, NetAddress address, byte[] nonce, VersionRange transport,
                SortedMap<Integer, VersionRange> protocols, ClusterVersion release, String build) {
            this(version, address, nonce, transport, protocols, release, build, "");
        }

        /** A layout 2 HELLO (the previous release's), which names no release. */
        public Hello(int version, NetAddress address, byte[] nonce, VersionRange transport,
                SortedMap<Integer, VersionRange> protocols) {
            this(version, address, nonce, transport, protocols, null, "");
        }

        /** A HELLO of this node's layout and transport versions naming {@code release}, with no message family offered. */
        public static Hello of(NetAddress address, byte[] nonce, ClusterVersion release) {
            return new Hello(VERSION, address, nonce, TRANSPORT, new TreeMap<>(), release, "");
        }

        /** What the sender runs: the release its HELLO names, or 0.2 (a layout 2 HELLO, which only 0.2.x writes). */
        public ClusterVersion releaseLine() {
            return release == null ? ClusterVersion.V0_2 : release;
        }
    }

    /**
     * Second frame: proof of the cluster secret over both hellos, and a node's signature of them with its
     * node key ({@code signature} empty from a client; see Handshake).
     */
    record Proof(byte[] mac, byte[] signature) implements Control {
        public Proof(byte[] mac) {
            this(mac, new byte[0]);
        }
    }

    /** Duplicate connection: the sender has written its last frame on this connection. */
    record Retire() implements Control {}

    /** Answer to RETIRE once every frame the peer sent before it was delivered. */
    record RetireAck() implements Control {}

    static int size(Control c) {
        if (c instanceof Hello h) {
            return 1 + 1 + Wire.addressSize(h.address()) + NONCE_BYTES + 3 + 3 * h.protocols().size()
                    + (h.release() == null ? 0 : 3 + h.build().length()) + (h.version() >= LAYOUT_KEY ? 1 + h.keyId().length() : 0);
        }
        if (c instanceof Proof p) {
            return 1 + MAC_BYTES + p.signature().length;
        }
        return 1;
    }

    static void write(Control c, ByteBuffer out) {
        if (c instanceof Hello h) {
            out.put((byte) HELLO).put((byte) h.version());
            Wire.writeAddress(h.address(), out);
            out.put(h.nonce());
            out.put((byte) h.transport().min()).put((byte) h.transport().max()).put((byte) h.protocols().size());
            h.protocols().forEach((id, r) -> out.put(id.byteValue()).put((byte) r.min()).put((byte) r.max()));
            if (h.release() != null) {
                out.put((byte) h.release().major()).put((byte) h.release().minor()).put((byte) h.build().length())
                        .put(h.build().getBytes(StandardCharsets.US_ASCII));
            }
            if (h.version() >= LAYOUT_KEY) {
                out.put((byte) h.keyId().length()).put(h.keyId().getBytes(StandardCharsets.US_ASCII));
            }
        } else if (c instanceof Proof p) {
            out.put((byte) PROOF).put(p.mac()).put(p.signature());
        } else if (c instanceof Retire) {
            out.put((byte) RETIRE);
        } else {
            out.put((byte) RETIRE_ACK);
        }
    }

    private static VersionRange range(ByteBuffer in, String what) throws MalformedMessageException {
        int min = Wire.readU8(in, what);
        int max = Wire.readU8(in, what);
        if (min > max) {
            throw new MalformedMessageException(what + ": min " + min + " above max " + max);
        }
        return new VersionRange(min, max);
    }

    /**
     * A control frame of a type this build does not know: a later transport version's. Its frame's
     * length delimits it, so a connection skips it instead of closing (once the handshake is done).
     */
    final class UnknownType extends MalformedMessageException {
        private static final long serialVersionUID = 1L;

        UnknownType(int type) {
            super("unknown control frame type " + type);
        }
    }

    /** Reads one control body (everything in {@code in}); typed errors name the bad value. */
    static Control read(ByteBuffer in) throws MalformedMessageException {
        int type = Wire.readU8(in, "control type");
        Control c;
        switch (type) {
            case HELLO -> {
                int version = Wire.readU8(in, "hello version");
                if (version < LAYOUT_RANGES) {
                    throw new MalformedMessageException("hello version " + version + " from a geoblocks build before"
                            + " version ranges, this node speaks " + LAYOUT_RANGES + " and later: upgrade the peer (see"
                            + " docs/upgrading.md)");
                }
                NetAddress a = Wire.readAddress(in);
                Wire.need(in, NONCE_BYTES, "hello nonce");
                byte[] nonce = new byte[NONCE_BYTES];
                in.get(nonce);
                VersionRange transport = range(in, "hello transport versions");
                int n = Wire.readU8(in, "hello protocol count");
                SortedMap<Integer, VersionRange> protocols = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    int id = Wire.readU8(in, "hello protocol id");
                    if (protocols.put(id, range(in, "hello versions of protocol " + id)) != null) {
                        throw new MalformedMessageException("hello names protocol " + id + " twice");
                    }
                }
                ClusterVersion release = null;
                String build = "";
                if (version >= 3) {
                    release = new ClusterVersion(Wire.readU8(in, "hello release major"), Wire.readU8(in, "hello release minor"));
                    int len = Wire.readU8(in, "hello build length");
                    if (len > MAX_BUILD_BYTES) {
                        throw new MalformedMessageException("hello build length " + len + " exceeds " + MAX_BUILD_BYTES);
                    }
                    Wire.need(in, len, "hello build");
                    byte[] b = new byte[len];
                    in.get(b);
                    for (byte x : b) {
                        if (x < 0x20 || x > 0x7e) {
                            throw new MalformedMessageException("hello build must be printable ASCII, has byte " + (x & 0xff));
                        }
                    }
                    build = new String(b, StandardCharsets.US_ASCII);
                }
                String keyId = "";
                if (version >= LAYOUT_KEY) {
                    int len = Wire.readU8(in, "hello key id length");
                    if (len > MAX_KEY_ID_BYTES) {
                        throw new MalformedMessageException("hello key id length " + len + " exceeds " + MAX_KEY_ID_BYTES);
                    }
                    Wire.need(in, len, "hello key id");
                    byte[] b = new byte[len];
                    in.get(b);
                    for (byte x : b) {
                        if (x <= 0x20 || x > 0x7e) {
                            throw new MalformedMessageException("hello key id must be printable ASCII, has byte " + (x & 0xff));
                        }
                    }
                    keyId = new String(b, StandardCharsets.US_ASCII);
                }
                if (version > LAYOUT_KEY) {
                    in.position(in.limit()); // a later layout's appended fields: not ours to read
                }
                c = new Hello(version, a, nonce, transport, protocols, release, build, keyId);
            }
            case PROOF -> {
                Wire.need(in, MAC_BYTES, "proof");
                byte[] mac = new byte[MAC_BYTES];
                in.get(mac);
                byte[] signature = new byte[0];
                if (in.hasRemaining()) {
                    Wire.need(in, SIGNATURE_BYTES, "proof signature");
                    signature = new byte[SIGNATURE_BYTES];
                    in.get(signature);
                }
                c = new Proof(mac, signature);
            }
            case RETIRE -> c = new Retire();
            case RETIRE_ACK -> c = new RetireAck();
            default -> throw new UnknownType(type);
        }
        if (in.hasRemaining()) {
            throw new MalformedMessageException("control frame type " + type + " has " + in.remaining() + " extra bytes");
        }
        return c;
    }
}
