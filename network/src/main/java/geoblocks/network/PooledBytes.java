package geoblocks.network;

import geoblocks.net.Bytes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link Bytes} in a Netty buffer: a block read into pooled direct memory ({@link #ALLOCATOR}), or
 * a view of a received frame. This holder owns one reference to {@link #buf()}, given back by the
 * first {@link #release()}. Our TCP transport sends such bytes as they are, after a frame head of
 * their own, instead of copying them into the frame ({@code Frames.data}).
 */
public final class PooledBytes extends Bytes {
    /**
     * Direct buffers from Netty's default pool (the one our network's channels use): what a node
     * reads the blocks it sends to clients into, when its network is ours.
     */
    public static final Bytes.Allocator ALLOCATOR = n -> {
        if (n == 0) {
            return Bytes.EMPTY; // Netty's empty buffer is not pooled and never freed
        }
        ByteBuf b = ByteBufAllocator.DEFAULT.directBuffer(n, n);
        b.writerIndex(n);
        return new PooledBytes(b);
    };

    private final ByteBuf buf;
    private final AtomicBoolean released = new AtomicBoolean();

    /** Takes over one reference to {@code buf}; the bytes are its readable ones. */
    public PooledBytes(ByteBuf buf) {
        this.buf = buf;
    }

    /** The buffer (its readable bytes are these); borrow it, or {@code retainedSlice} it to keep it. */
    public ByteBuf buf() {
        return buf;
    }

    @Override
    public int length() {
        return buf.readableBytes();
    }

    @Override
    public ByteBuffer nio() {
        return buf.nioBuffer(buf.readerIndex(), buf.readableBytes());
    }

    @Override
    public Bytes slice(int offset, int length) {
        checkSlice(offset, length, length());
        return new PooledBytes(buf.retainedSlice(buf.readerIndex() + offset, length));
    }

    @Override
    public void release() {
        if (released.compareAndSet(false, true)) {
            buf.release();
        }
    }

    /** Whether {@link #release()} ran (for tests). */
    public boolean released() {
        return released.get();
    }
}
