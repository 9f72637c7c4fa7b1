package geoblocks.network.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;

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
 * as the length field is read, before any buffer for the body is allocated; the session then
 * closes the connection, and this decoder drops whatever else arrives. The frame handed on (the
 * length field stripped) is either a slice of the bytes read from the socket, when a whole frame
 * came in one read (no copy), or, when it spans reads, one buffer of exactly its length that each
 * read's bytes are copied into once. (Netty's {@code LengthFieldBasedFrameDecoder} gathers a
 * spanning frame in a cumulation buffer that grows by doubling, copying what it holds at every
 * step: about three copies of a 1 MiB block arriving in 64 KiB reads, against one here.)
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter {
    private final int maxFrameBytes;
    /** Bytes of a length field split across reads (0..3 of them so far). */
    private int header;
    private int headerBytes;
    /** The frame being gathered across reads, allocated at its exact length; null between frames. */
    private ByteBuf body;
    private boolean failed;

    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            while (!failed && in.isReadable()) {
                if (body != null) {
                    int n = Math.min(in.readableBytes(), body.writableBytes());
                    body.writeBytes(in, n);
                    if (!body.isWritable()) {
                        ByteBuf frame = body;
                        body = null;
                        ctx.fireChannelRead(frame);
                    }
                    continue;
                }
                long length;
                if (headerBytes == 0 && in.readableBytes() >= Frames.LENGTH_BYTES) {
                    length = in.readUnsignedInt();
                } else {
                    header = header << 8 | in.readUnsignedByte();
                    if (++headerBytes < Frames.LENGTH_BYTES) {
                        continue;
                    }
                    length = header & 0xFFFF_FFFFL;
                    header = 0;
                    headerBytes = 0;
                }
                if (length > maxFrameBytes) {
                    failed = true;
                    // Netty's wording and count (the frame with its length field), as its decoder had it
                    throw new TooLongFrameException("Adjusted frame length exceeds " + (maxFrameBytes + Frames.LENGTH_BYTES)
                            + ": " + (length + Frames.LENGTH_BYTES) + " - discarded");
                }
                if (in.readableBytes() >= length) {
                    ctx.fireChannelRead(in.readRetainedSlice((int) length));
                } else {
                    body = ctx.alloc().ioBuffer((int) length, (int) length);
                }
            }
        } finally {
            in.release();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        release();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        release();
        super.channelInactive(ctx);
    }

    private void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
