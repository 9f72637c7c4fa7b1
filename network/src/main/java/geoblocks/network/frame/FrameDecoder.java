package geoblocks.network.frame;

import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Splits a TCP byte stream into frames:
 *
 * <pre>
 * +----------------+---------+-------------------------------+
 * | length u32 BE  | kind u8 | body (length - 1 bytes)       |
 * +----------------+---------+-------------------------------+
 * kind 0: control frame ({@link Control}); kind 1..255: codec id, body = codec bytes
 * </pre>
 *
 * A length field above {@code maxFrameBytes} raises Netty's {@code TooLongFrameException} as soon
 * as the length field is read (fail-fast), before any buffer for the body is allocated; the
 * session then closes the connection. {@code maxFrameBytes} bounds the length field (kind + body),
 * the bound {@link Frames#data} enforces when sending; Netty's limit also counts the length field
 * itself, hence the {@code + LENGTH_BYTES}. The frame handed on is a slice of the cumulation
 * buffer (no copy); the length field is stripped.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    public FrameDecoder(int maxFrameBytes) {
        super(maxFrameBytes + Frames.LENGTH_BYTES, 0, Frames.LENGTH_BYTES, 0, Frames.LENGTH_BYTES, true);
    }
}
