package geoblocks.blockstore.core.ec;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where the bytes of one block of {@code blockLength} bytes go in the k + m fragments of a code, in
 * stripes of k cells of {@code cellSize} bytes (pure arithmetic, immutable):
 *
 * <pre>
 *   block:    | stripe 0: k * cell bytes        | stripe 1 ...        | last stripe (tail) |
 *   stripe s: | cell 0 -> fragment 0 | cell 1 -> fragment 1 | ... | cell k-1 | + m parity cells
 *   fragment i = cell i of stripe 0, cell i of stripe 1, ...   (fragment offset of stripe s = s * cell)
 * </pre>
 *
 * Every stripe but the last is full: k cells of {@code cellSize}. The last holds the remaining r
 * bytes (0 < r < k * cellSize) in k cells of {@code ceil(r / k)} bytes, its data followed by
 * {@code k * ceil(r / k) - r} zero bytes of padding (fewer than k); so every fragment, data or parity,
 * is {@link #fragmentLength()} bytes, and the padding costs under k bytes per block. An empty block
 * has no stripe and empty fragments. A byte range of the block needs only the stripes it covers
 * ({@link #covering}), and from healthy data fragments only the bytes it names ({@link #pieces}).
 */
public record StripeLayout(ErasureCode code, int cellSize, long blockLength) {
    /**
     * The cell size the write path is to use: 64 KiB, so a stripe of a 3+1 code is 192 KiB and a range
     * read decodes at most two partial stripes; {@code bench ec} measured cells of 4 KiB to 1 MiB alike
     * within the noise of a shared machine (docs/benchmarks.md).
     */
    public static final int DEFAULT_CELL = 64 << 10;

    public StripeLayout {
        Objects.requireNonNull(code, "code");
        if (cellSize < 1) {
            throw new IllegalArgumentException("cell size must be >= 1 byte, was " + cellSize);
        }
        if (blockLength < 0) {
            throw new IllegalArgumentException("block length must be >= 0 bytes, was " + blockLength);
        }
        if ((blockLength / stripeWidth(code, cellSize)) >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a block of " + blockLength + " bytes has too many stripes of "
                    + stripeWidth(code, cellSize) + " bytes");
        }
    }

    /** One range of fragment bytes {@code [from, to)}, the same in every fragment: stripes {@code [firstStripe, endStripe)}. */
    public record FragmentRange(int firstStripe, int endStripe, long from, long to) {
        public long length() {
            return to - from;
        }
    }

    /** {@code length} block bytes from {@code blockOffset} are bytes {@code fragmentOffset...} of data fragment {@code fragment}. */
    public record Piece(int fragment, long fragmentOffset, int length, long blockOffset) {}

    private static long stripeWidth(ErasureCode code, int cellSize) {
        return (long) code.data() * cellSize;
    }

    /** Block bytes per full stripe: k * cell size. */
    public long stripeWidth() {
        return stripeWidth(code, cellSize);
    }

    /** Full stripes of k cells of {@link #cellSize()}. */
    public int fullStripes() {
        return (int) (blockLength / stripeWidth());
    }

    /** Bytes of the last, shorter stripe (0 when the block is a whole number of stripes). */
    public int tailBytes() {
        return (int) (blockLength % stripeWidth());
    }

    /** Cell length of the last, shorter stripe: ceil(tail / k), 0 without one. */
    public int tailCell() {
        return (tailBytes() + code.data() - 1) / code.data();
    }

    public int stripes() {
        return fullStripes() + (tailBytes() > 0 ? 1 : 0);
    }

    /** Bytes of every fragment, data or parity. */
    public long fragmentLength() {
        return (long) fullStripes() * cellSize + tailCell();
    }

    /** Zero bytes after the data in the last stripe's cells. */
    public int paddingBytes() {
        return code.data() * tailCell() - tailBytes();
    }

    /** Cell length of stripe {@code s}. */
    public int cellLength(int s) {
        checkStripe(s);
        return s < fullStripes() ? cellSize : tailCell();
    }

    /** Block bytes in stripe {@code s} (the padding not counted). */
    public int stripeBytes(int s) {
        checkStripe(s);
        return s < fullStripes() ? (int) stripeWidth() : tailBytes();
    }

    public long blockOffset(int s) {
        checkStripe(s);
        return s * stripeWidth();
    }

    public long fragmentOffset(int s) {
        checkStripe(s);
        return (long) s * cellSize;
    }

    /** The stripes holding block bytes {@code [offset, offset + length)}: what to read of each fragment to decode them. */
    public FragmentRange covering(long offset, long length) {
        checkRange(offset, length);
        if (length == 0) {
            return new FragmentRange(0, 0, 0, 0);
        }
        int first = (int) (offset / stripeWidth());
        int last = (int) ((offset + length - 1) / stripeWidth());
        return new FragmentRange(first, last + 1, fragmentOffset(first), fragmentOffset(last) + cellLength(last));
    }

    /** Block bytes {@code [offset, offset + length)} as pieces of the data fragments, in block order. */
    public List<Piece> pieces(long offset, long length) {
        FragmentRange r = covering(offset, length);
        List<Piece> out = new ArrayList<>();
        long end = offset + length;
        for (int s = r.firstStripe(); s < r.endStripe(); s++) {
            int cell = cellLength(s);
            long base = blockOffset(s);
            long stripeEnd = base + stripeBytes(s);
            for (int i = 0; i < code.data(); i++) {
                long from = Math.max(offset, base + (long) i * cell);
                long to = Math.min(Math.min(end, stripeEnd), base + (long) (i + 1) * cell);
                if (from < to) {
                    out.add(new Piece(i, fragmentOffset(s) + (from - base - (long) i * cell), (int) (to - from), from));
                }
            }
        }
        return out;
    }

    private void checkStripe(int s) {
        if (s < 0 || s >= stripes()) {
            throw new IllegalArgumentException("stripe " + s + " is not in 0.." + (stripes() - 1));
        }
    }

    private void checkRange(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > blockLength || offset + length < 0) {
            throw new IllegalArgumentException("range [" + offset + ", +" + length + ") is not inside the block of "
                    + blockLength + " bytes");
        }
    }
}
