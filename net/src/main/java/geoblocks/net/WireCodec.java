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

    /** Reads one message from the buffer's position, leaving the position after it. */
    M decode(ByteBuffer in) throws MalformedMessageException;
}
