package geoblocks.net;

import java.nio.ByteBuffer;

/**
 * Encodes and decodes one message family to and from bytes, with no dependency on Netty: the
 * application adapts it to a Netty serializer, tests use it directly. Decoding validates every
 * tag and length and throws {@link MalformedMessageException} naming the offending value; it never
 * returns null.
 */
public interface WireCodec<M extends NetMsg> {

    /** The message class this codec handles (registered with the serializer registry). */
    Class<M> messageClass();

    /** Exact number of bytes {@link #encode} will write for {@code msg}, header included. */
    int encodedSize(M msg);

    /** Writes {@code msg} at the buffer's position; the buffer has {@link #encodedSize} bytes left. */
    void encode(M msg, ByteBuffer out);

    /**
     * The versions of this family's format that this codec reads and writes, which the transport's
     * handshake offers the peer (see {@link PeerVersions}); null (the default) for a family without a
     * version of its own, which the handshake leaves out.
     */
    default VersionRange versions() {
        return null;
    }

    /** Reads one message from the buffer's position, leaving the position after it. */
    M decode(ByteBuffer in) throws MalformedMessageException;

    /**
     * The {@link Bytes} that end {@code msg}'s encoding, which a transport may send from where they
     * are instead of copying them ({@link #encodeHead} writes everything before them), or null (the
     * default: the message carries none). The message owns them (see {@link Bytes}).
     */
    default Bytes tail(M msg) {
        return null;
    }

    /**
     * Writes {@code msg} without the bytes of its {@link #tail}: {@link #encodedSize} less the tail's
     * length. Only called for a message with a tail.
     */
    default void encodeHead(M msg, ByteBuffer out) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no message tails");
    }

    /**
     * As {@link #decode(ByteBuffer)}, where the message may keep bytes of {@code in} as {@link Bytes}
     * that {@code keeper} makes (views of the received memory, released by the message's consumer)
     * instead of copying them. The default copies, as {@link #decode(ByteBuffer)} does.
     */
    default M decode(ByteBuffer in, Keeper keeper) throws MalformedMessageException {
        return decode(in);
    }

    /** Makes {@link Bytes} over a stretch of the buffer being decoded, valid after the decode returns. */
    @FunctionalInterface
    interface Keeper {
        /** The {@code length} bytes at {@code position} of the buffer being decoded. */
        Bytes keep(int position, int length);
    }
}
