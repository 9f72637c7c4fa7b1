package geoblocks.network.frame;

import geoblocks.net.NetMsg;
import geoblocks.network.CodecRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;

/**
 * Builds outgoing TCP frames (layout in {@link FrameDecoder}) in one pooled direct buffer each:
 * the codec writes straight into the buffer that goes to the socket, so a message's bytes are
 * copied once on the way out (codec into the frame). Frames over the configured maximum are
 * refused here, before they reach the wire.
 */
public final class Frames {
    public static final int CONTROL = 0;
    public static final int LENGTH_BYTES = 4;

    private Frames() {}

    /** One data frame for {@code msg}; IllegalArgumentException if it would exceed {@code maxFrameBytes}. */
    public static ByteBuf data(ByteBufAllocator alloc, CodecRegistry codecs, NetMsg msg, int maxFrameBytes) {
        int id = codecs.idOf(msg);
        return data(alloc, codecs, msg, id, codecs.encodedSize(id, msg), maxFrameBytes);
    }

    /** As above, for a message whose codec id and encoded size the caller already knows. */
    public static ByteBuf data(ByteBufAllocator alloc, CodecRegistry codecs, NetMsg msg, int id, int size,
            int maxFrameBytes) {
        checkFits(msg, size, maxFrameBytes);
        ByteBuf buf = alloc.ioBuffer(LENGTH_BYTES + 1 + size);
        try {
            buf.writeInt(1 + size).writeByte(id);
            ByteBuffer out = buf.nioBuffer(buf.writerIndex(), size);
            codecs.encode(id, msg, size, out);
            buf.writerIndex(buf.writerIndex() + size);
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** IllegalArgumentException naming both sizes when a message of {@code size} bytes needs a frame over the limit. */
    public static void checkFits(NetMsg msg, int size, int maxFrameBytes) {
        if (size + 1L > maxFrameBytes) {
            throw new IllegalArgumentException(msg.getClass().getSimpleName() + " of " + size
                    + " bytes exceeds the frame limit of " + maxFrameBytes + " bytes (geoblocks.network.max-frame)");
        }
    }

    /** One control frame. */
    public static ByteBuf control(ByteBufAllocator alloc, Control c) {
        int size = Control.size(c);
        ByteBuf buf = alloc.ioBuffer(LENGTH_BYTES + 1 + size);
        buf.writeInt(1 + size).writeByte(CONTROL);
        ByteBuffer out = buf.nioBuffer(buf.writerIndex(), size);
        Control.write(c, out);
        buf.writerIndex(buf.writerIndex() + size);
        return buf;
    }
}
