package geoblocks.network.udp;

/**
 * Anti-replay sliding window over non-negative 64-bit sequence numbers (RFC 4303 §3.4.3,
 * bitmap layout of RFC 6479); invariant: a sequence number is accepted at most once, and only if
 * it is greater than {@code highest - width}, where {@code highest} is the largest number passed
 * to {@link #update}.
 *
 * <p>Layout (RFC 6479): the bitmap is a ring of 64-bit blocks, one more block than the window
 * needs, so that sliding forward only zeroes whole blocks and never shifts bits:
 *
 * <pre>
 *  block index = (seq >>> 6) mod blocks        bit = seq &amp; 63
 *  +----------+----------+-- ... --+----------+----------+
 *  | block k  | block k+1|         | block top|  (spare) |   blocks = width/64 + 1
 *  +----------+----------+-- ... --+----------+----------+
 *       ^ highest - width + 1 lands here             highest lands in "block top"
 * </pre>
 *
 * <p>Use {@link #check} before authenticating a datagram (cheap rejection, no state change) and
 * {@link #update} only after it authenticated, so forged datagrams cannot move the window.
 * Not thread-safe.
 */
public final class ReplayWindow {

    /** Default width in sequence numbers. */
    public static final int DEFAULT_WIDTH = 4096;

    private final int width;
    private final long[] blocks;
    /** Largest sequence number passed to {@link #update}; -1 while none. */
    private long highest = -1;

    /** Creates a window of {@link #DEFAULT_WIDTH} sequence numbers. */
    public ReplayWindow() {
        this(DEFAULT_WIDTH);
    }

    /**
     * @param width how many sequence numbers, ending at the highest seen, are tracked; a power of
     *              two, at least 64
     */
    public ReplayWindow(int width) {
        if (width < 64 || Integer.bitCount(width) != 1) {
            throw new IllegalArgumentException("width must be a power of two >= 64, got " + width);
        }
        this.width = width;
        this.blocks = new long[width / 64 + 1];
    }

    /** @return the width in sequence numbers */
    public int width() {
        return width;
    }

    /** @return the highest sequence number marked by {@link #update}, or -1 if none */
    public long highest() {
        return highest;
    }

    /**
     * Tells whether {@code seq} would be accepted; does not change state.
     *
     * @return true if {@code seq} is non-negative, not yet seen, and within the window
     */
    public boolean check(long seq) {
        if (seq < 0) {
            return false;
        }
        if (seq > highest) {
            return true;
        }
        if (highest - seq >= width) {
            return false;
        }
        return (blocks[index(seq)] & (1L << seq)) == 0;
    }

    /**
     * Marks {@code seq} as seen, sliding the window forward if it is the new highest. Call only
     * after the datagram carrying {@code seq} authenticated and {@link #check} returned true.
     *
     * @throws IllegalArgumentException if {@code seq} is negative or already outside the window
     */
    public void update(long seq) {
        if (seq < 0) {
            throw new IllegalArgumentException("seq must be >= 0, got " + seq);
        }
        if (seq > highest) {
            if (highest >= 0) {
                long top = highest >>> 6;
                long diff = Math.min((seq >>> 6) - top, blocks.length);
                for (long i = 1; i <= diff; i++) {
                    blocks[block(top + i)] = 0L;
                }
            }
            highest = seq;
        } else if (highest - seq >= width) {
            throw new IllegalArgumentException("seq " + seq + " is older than the window ("
                    + "highest " + highest + ", width " + width + ")");
        }
        blocks[index(seq)] |= 1L << seq;
    }

    private int index(long seq) {
        return block(seq >>> 6);
    }

    private int block(long blockNumber) {
        return (int) (blockNumber % blocks.length);
    }
}
