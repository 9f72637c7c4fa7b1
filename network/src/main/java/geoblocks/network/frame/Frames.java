package geoblocks.network.frame;

import geoblocks.net.Bytes;
import geoblocks.net.NetMsg;
import geoblocks.network.CodecRegistry;
import geoblocks.network.PooledBytes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;

/**
 * Builds outgoing TCP frames (layout in {@link FrameDecoder}) in one pooled direct buffer each:
 * the codec writes straight into the buffer that goes to the socket, so a message's bytes are
 * copied once on the way out (codec into the frame). A message whose codec names a {@link
 * PooledBytes} tail of at least {@value #MIN_SENT_AS_IS} bytes (a block a node read from disk for a
 * client) is not copied at all: the frame is its head followed by the tail's own buffer. Frames over
 * the configured maximum are refused here, before they reach the wire.
 */
public final class Frames {
    public static final int CONTROL = 0;
    public static final int LENGTH_BYTES = 4;
    /** Tails this long or longer go as they are, after a head buffer; shorter ones are copied into the frame. */
    static final int MIN_SENT_AS_IS = 8 * 1024;

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
        Bytes tail = codecs.tail(id, msg);
        if (tail instanceof PooledBytes pooled && tail.length() >= MIN_SENT_AS_IS) {
            return withTail(alloc, codecs, msg, id, size, pooled);
        }
        ByteBuf buf = alloc.ioBuffer(LENGTH_BYTES + 1 + size);
        try {
            buf.writeInt(1 + size).writeByte(id);
            ByteBuffer out = buf.nioBuffer(buf.writerIndex(), size);
            codecs.encode(id, msg, size, out);
            buf.writerIndex(buf.writerIndex() + size);
            if (tail != null) {
                tail.release(); // copied into the frame; sending hands the message's bytes over
            }
            return buf;
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /**
     * The frame as the head (length, id and the message up to its tail) in a buffer of its own,
     * followed by the tail's buffer itself: the tail's bytes are not copied. The frame holds its own
     * reference to the tail's memory; the message's is released here (sending hands it over).
     */
    private static ByteBuf withTail(ByteBufAllocator alloc, CodecRegistry codecs, NetMsg msg, int id, int size,
            PooledBytes tail) {
        int head = size - tail.length();
        ByteBuf buf = alloc.ioBuffer(LENGTH_BYTES + 1 + head);
        try {
            buf.writeInt(1 + size).writeByte(id);
            ByteBuffer out = buf.nioBuffer(buf.writerIndex(), head);
            codecs.encodeHead(id, msg, size, tail, out);
            buf.writerIndex(buf.writerIndex() + head);
            ByteBuf body = tail.buf().retainedSlice();
            tail.release();
            return alloc.compositeDirectBuffer(2).addComponents(true, buf, body);
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
