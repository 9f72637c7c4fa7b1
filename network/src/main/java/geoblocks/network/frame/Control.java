package geoblocks.network.frame;

import geoblocks.net.MalformedMessageException;
import geoblocks.net.NetAddress;
import geoblocks.net.Wire;
import java.nio.ByteBuffer;

/**
 * The transport's own control frames (frame kind 0), pure and Netty-free. Body layouts after the
 * kind byte:
 *
 * <pre>
 * HELLO       | 1 | version u8 | address (Wire.writeAddress) | nonce (16 bytes) |
 * PROOF       | 2 | HMAC-SHA256 (32 bytes) | [Ed25519 signature (64 bytes)]    |
 * RETIRE      | 3 |   (the sender writes nothing more on this connection)       |
 * RETIRE_ACK  | 4 |   (every frame before the peer's RETIRE has been delivered) |
 * </pre>
 *
 * A PROOF carries the signature only when its sender is a node with a key (see NodeIdentity); a
 * client's PROOF is the 32-byte MAC alone, as every PROOF was before node keys.
 */
public sealed interface Control {
    int HELLO = 1;
    int PROOF = 2;
    int RETIRE = 3;
    int RETIRE_ACK = 4;
    int VERSION = 1;
    int NONCE_BYTES = 16;
    int MAC_BYTES = 32;
    int SIGNATURE_BYTES = 64;

    /** First frame each side sends: who it is (its listening address) and a fresh nonce. */
    record Hello(int version, NetAddress address, byte[] nonce) implements Control {}

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
            return 1 + 1 + Wire.addressSize(h.address()) + NONCE_BYTES;
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
        } else if (c instanceof Proof p) {
            out.put((byte) PROOF).put(p.mac()).put(p.signature());
        } else if (c instanceof Retire) {
            out.put((byte) RETIRE);
        } else {
            out.put((byte) RETIRE_ACK);
        }
    }

    /** Reads one control body (everything in {@code in}); typed errors name the bad value. */
    static Control read(ByteBuffer in) throws MalformedMessageException {
        int type = Wire.readU8(in, "control type");
        Control c;
        switch (type) {
            case HELLO -> {
                int version = Wire.readU8(in, "hello version");
                if (version != VERSION) {
                    throw new MalformedMessageException("hello version " + version + ", this node speaks " + VERSION);
                }
                NetAddress a = Wire.readAddress(in);
                Wire.need(in, NONCE_BYTES, "hello nonce");
                byte[] nonce = new byte[NONCE_BYTES];
                in.get(nonce);
                c = new Hello(version, a, nonce);
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
            default -> throw new MalformedMessageException("unknown control frame type " + type);
        }
        if (in.hasRemaining()) {
            throw new MalformedMessageException("control frame type " + type + " has " + in.remaining() + " extra bytes");
        }
        return c;
    }
}
