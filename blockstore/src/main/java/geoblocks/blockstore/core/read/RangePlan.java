package geoblocks.blockstore.core.read;

import geoblocks.blockstore.core.Manifest;

/**
 * Which blocks of a version a read of its original bytes {@code first..last} (inclusive) needs, and
 * where they sit in the stored byte stream a download carries. Every block but the last holds
 * {@code blockSize} original bytes, so block {@code i} covers original bytes
 * {@code i*blockSize ..}; a compressed block is shorter as stored, so stored offsets are the sum of
 * the stored lengths before it. Blocks travel whole (each is checked against its CRC32C as a
 * whole); the reader then keeps only the range's bytes of them ({@link #keepFrom}, {@link #keepTo}).
 * A whole-file read is the range {@code 0..size-1}; an empty file needs no block, and neither does
 * an inline one ({@link Manifest#isInline}: its bytes come with the manifest, original offset 0).
 * Invariant: {@code 0 <= firstBlock <= endBlock <= blocks}, {@code storedStart <= storedEnd}.
 *
 * @param first first original byte wanted
 * @param last last original byte wanted (inclusive; {@code first - 1} when nothing is wanted)
 * @param firstBlock index of the first block needed
 * @param endBlock one past the last block needed ({@code firstBlock} when none)
 * @param rawStart original offset of {@code firstBlock}'s first byte
 * @param storedStart stored-stream offset of {@code firstBlock}'s first byte
 * @param storedEnd stored-stream offset one past {@code endBlock - 1}'s last byte
 */
public record RangePlan(long first, long last, int firstBlock, int endBlock, long rawStart, long storedStart,
        long storedEnd) {

    /** Every byte of {@code m}. */
    public static RangePlan whole(Manifest m) {
        if (m.size() == 0) {
            return new RangePlan(0, -1, 0, 0, 0, 0, 0);
        }
        return of(m, 0, m.size() - 1);
    }

    /**
     * Original bytes {@code first..last} of {@code m}; {@code last} beyond the end means up to the
     * last byte (as HTTP ranges do). Fails when {@code first} is negative, {@code last < first}, or
     * {@code first} lies beyond the file's last byte.
     */
    public static RangePlan of(Manifest m, long first, long last) {
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("byte range " + first + "-" + last
                    + " is not valid: it needs 0 <= first <= last");
        }
        if (first >= m.size()) {
            throw new IllegalArgumentException("byte range " + first + "-" + last + " starts beyond the last byte of '"
                    + m.name() + "' (" + m.size() + " bytes)");
        }
        long end = Math.min(last, m.size() - 1);
        if (m.isInline()) {
            return new RangePlan(first, end, 0, 0, 0, 0, 0);
        }
        int firstBlock = (int) (first / m.blockSize());
        int lastBlock = (int) (end / m.blockSize());
        long storedStart = 0;
        for (int i = 0; i < firstBlock; i++) {
            storedStart += m.blocks().get(i).length();
        }
        long storedEnd = storedStart;
        for (int i = firstBlock; i <= lastBlock; i++) {
            storedEnd += m.blocks().get(i).length();
        }
        return new RangePlan(first, end, firstBlock, lastBlock + 1, (long) firstBlock * m.blockSize(), storedStart,
                storedEnd);
    }

    /** Number of original bytes in the range. */
    public long length() {
        return last - first + 1;
    }

    /** Number of blocks to fetch. */
    public int blockCount() {
        return endBlock - firstBlock;
    }

    /** Stored bytes the download carries: the needed blocks whole. */
    public long storedLength() {
        return storedEnd - storedStart;
    }

    /**
     * Where to start keeping original bytes {@code offset .. offset+length-1} of the file (a block
     * or part of one): the index into them of the first byte in the range, {@code length} when none is.
     */
    public int keepFrom(long offset, int length) {
        return (int) Math.min(length, Math.max(0, first - offset));
    }

    /** One past the index into original bytes {@code offset .. offset+length-1} of the last byte in the range. */
    public int keepTo(long offset, int length) {
        return (int) Math.max(keepFrom(offset, length), Math.min(length, last + 1 - offset));
    }
}
