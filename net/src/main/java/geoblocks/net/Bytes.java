package geoblocks.net;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Bytes a message carries that may live outside the heap: a block read from disk into a pooled
 * network buffer, or a view of the received frame they arrived in. Either way they are read through
 * {@link #nio()} (a direct buffer for such bytes, so a file or socket write takes them without a
 * copy) or copied out with {@link #toArray()}.
 * <p>Ownership: one holder at a time. The holder of bytes that are no longer needed calls
 * {@link #release()}: sending a message hands its bytes to the network (our TCP transport releases
 * them once written; in-process delivery hands them to the receiver), and the component that
 * consumes a received message releases them after handling it. Heap bytes ({@link #wrap}) hold no
 * external memory: releasing them does nothing, and losing them is harmless. Releasing twice does
 * nothing the second time. Reading after the release is a bug the caller must not make.
 */
public abstract class Bytes {
    /** No bytes. */
    public static final Bytes EMPTY = wrap(new byte[0]);

    /** Makes bytes of a given length for the caller to fill through {@link #nio()}. */
    @FunctionalInterface
    public interface Allocator {
        Bytes allocate(int length);

        /** Heap arrays: nothing to release (the default wherever no network buffer pool is at hand). */
        Allocator HEAP = n -> wrap(new byte[n]);
    }

    /** The number of bytes. */
    public abstract int length();

    /**
     * A new NIO buffer over the bytes, position 0, limit {@link #length()}. Writing through it is
     * allowed only to fill bytes just {@linkplain Allocator#allocate allocated}.
     */
    public abstract ByteBuffer nio();

    /** Bytes {@code offset .. offset + length - 1} of these, sharing their memory: a holder of its own, to release too. */
    public abstract Bytes slice(int offset, int length);

    /** Gives the memory back (see the class comment); does nothing for heap bytes or the second time. */
    public abstract void release();

    /** The bytes in an array: the wrapped array itself for whole heap bytes, else a copy. */
    public byte[] toArray() {
        byte[] a = new byte[length()];
        nio().get(a);
        return a;
    }

    /** Heap bytes over {@code data} (not copied: the caller gives it up). */
    public static Bytes wrap(byte[] data) {
        return new Heap(Objects.requireNonNull(data, "data"), 0, data.length);
    }

    /** Checks a slice's bounds against {@code length}. */
    protected static void checkSlice(int offset, int length, int of) {
        if (offset < 0 || length < 0 || offset > of - length) {
            throw new IndexOutOfBoundsException("slice " + offset + "+" + length + " of " + of + " bytes");
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + length() + " bytes)";
    }

    private static final class Heap extends Bytes {
        private final byte[] data;
        private final int offset;
        private final int length;

        Heap(byte[] data, int offset, int length) {
            this.data = data;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public ByteBuffer nio() {
            return ByteBuffer.wrap(data, offset, length).slice();
        }

        @Override
        public Bytes slice(int offset, int length) {
            checkSlice(offset, length, this.length);
            return new Heap(data, this.offset + offset, length);
        }

        @Override
        public void release() {
            // heap memory: the garbage collector's
        }

        @Override
        public byte[] toArray() {
            return offset == 0 && length == data.length ? data : super.toArray();
        }
    }
}
