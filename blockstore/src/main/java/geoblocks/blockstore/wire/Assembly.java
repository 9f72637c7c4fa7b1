package geoblocks.blockstore.wire;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Reassembles a byte array sent in order as chunks (blocks, manifests), and splits one into
 * chunks. Invariant: parts arrive in order without gaps and never overrun the announced total;
 * a part that breaks it is rejected with IllegalArgumentException naming the offsets. Copies are
 * avoided where the array travels whole: a single part that is the whole array is kept as is
 * (the buffer is only allocated for a second part), and a split into one chunk hands out the array
 * itself; callers treat parts as read-only.
 */
public final class Assembly {
    private final int total;
    private byte[] buf;
    private int filled;

    public Assembly(int total, int max) {
        if (total < 0 || total > max) {
            throw new IllegalArgumentException("announced size " + total + " outside 0.." + max);
        }
        this.total = total;
    }

    /** Adds a part; returns true when the array is complete. */
    public boolean add(int offset, byte[] part) {
        if (offset != filled) {
            throw new IllegalArgumentException("part at offset " + offset + " but " + filled + " bytes received");
        }
        if (part.length > total - filled) {
            throw new IllegalArgumentException("part of " + part.length + " bytes overruns total " + total);
        }
        if (filled == 0 && part.length == total) {
            buf = part;
        } else {
            if (buf == null) {
                buf = new byte[total];
            }
            System.arraycopy(part, 0, buf, filled, part.length);
        }
        filled += part.length;
        return filled == total;
    }

    /** Bytes added so far. */
    public int received() {
        return filled;
    }

    public byte[] bytes() {
        if (buf == null) {
            buf = new byte[total];
        }
        return buf;
    }

    /** Calls {@code out(offset, part)} for each chunk of at most {@code chunk} bytes (once if empty). */
    public static void split(byte[] data, int chunk, BiConsumer<Integer, byte[]> out) {
        if (data.length <= chunk) {
            out.accept(0, data);
            return;
        }
        int off = 0;
        do {
            int n = Math.min(chunk, data.length - off);
            out.accept(off, Arrays.copyOfRange(data, off, off + n));
            off += n;
        } while (off < data.length);
    }
}
