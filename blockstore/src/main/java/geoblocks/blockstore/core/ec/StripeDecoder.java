package geoblocks.blockstore.core.ec;

import geoblocks.blockstore.core.ec.FragmentException.Reason;
import java.io.IOException;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Gives a block back from any k of its k + m fragments, stripe by stripe ({@link StripeLayout}),
 * into reusable cell buffers: {@link #read} a byte range of the block (only the stripes it covers),
 * {@link #rebuild} one lost fragment whole, {@link #verify} that the parity matches the data (scrub).
 * Of the fragments present it reads the data fragments first, then parity ones, k in all: with every
 * data fragment present nothing is decoded, and a read takes only the bytes asked for. Sources are
 * given as k + m entries, null where a fragment is absent. Not thread-safe.
 *
 * <p>Erasure decoding cannot tell a corrupt fragment from a good one: with exactly k fragments a
 * corrupt one gives wrong bytes. Each fragment's own checksum catches that (the write path's job);
 * {@link #verify} finds it when all k + m are at hand.
 */
public final class StripeDecoder {
    /** Takes decoded bytes in order. */
    public interface ByteSink {
        void write(byte[] b, int off, int len) throws IOException;
    }

    private final ErasureCoder coder;
    private final ErasureCode code;
    private final int cellSize;
    private final byte[][] cells;
    private final byte[][] present;
    private byte[][] check;

    public StripeDecoder(ErasureCode code, int cellSize) {
        this(code.newCoder(), cellSize);
    }

    public StripeDecoder(ErasureCoder coder, int cellSize) {
        if (cellSize < 1) {
            throw new IllegalArgumentException("cell size must be >= 1 byte, was " + cellSize);
        }
        this.coder = coder;
        this.code = coder.code();
        this.cellSize = cellSize;
        this.cells = new byte[code.fragments()][cellSize];
        this.present = new byte[code.fragments()][];
    }

    /**
     * Writes block bytes {@code [offset, offset + length)} to {@code out}: with every data fragment
     * present, only those bytes of them ({@link StripeLayout#pieces}); else the stripes they cover of k
     * fragments, decoding the missing data cells.
     */
    public void read(StripeLayout layout, FragmentSource[] sources, long offset, long length, ByteSink out)
            throws IOException {
        check(layout, sources);
        int[] chosen = choose(sources, -1);
        int[] lostData = lostData(chosen);
        if (lostData.length == 0) {
            for (StripeLayout.Piece p : layout.pieces(offset, length)) {
                sources[p.fragment()].read(p.fragmentOffset(), cells[p.fragment()], p.length());
                out.write(cells[p.fragment()], 0, p.length());
            }
            return;
        }
        byte[][] lostCells = pick(lostData);
        StripeLayout.FragmentRange range = layout.covering(offset, length);
        long end = offset + length;
        for (int s = range.firstStripe(); s < range.endStripe(); s++) {
            int cell = layout.cellLength(s);
            load(layout, sources, chosen, s, cell);
            if (lostData.length > 0) {
                coder.reconstruct(present, lostData, lostCells, cell);
            }
            long base = layout.blockOffset(s);
            long stripeEnd = base + layout.stripeBytes(s);
            for (int i = 0; i < code.data(); i++) {
                long from = Math.max(offset, base + (long) i * cell);
                long to = Math.min(Math.min(end, stripeEnd), base + (long) (i + 1) * cell);
                if (from < to) {
                    out.write(cells[i], (int) (from - base - (long) i * cell), (int) (to - from));
                }
            }
        }
    }

    /** Writes the whole of fragment {@code lost} (data or parity) to {@code out}, from k of the others. */
    public void rebuild(StripeLayout layout, FragmentSource[] sources, int lost, ByteSink out) throws IOException {
        check(layout, sources);
        if (lost < 0 || lost >= code.fragments()) {
            throw new FragmentException(Reason.BAD_INDEX, "fragment " + lost + " is not in 0.." + (code.fragments() - 1));
        }
        int[] chosen = choose(sources, lost);
        int[] wanted = {lost};
        byte[][] outCell = {cells[lost]};
        for (int s = 0; s < layout.stripes(); s++) {
            int cell = layout.cellLength(s);
            load(layout, sources, chosen, s, cell);
            coder.reconstruct(present, wanted, outCell, cell);
            out.write(cells[lost], 0, cell);
        }
    }

    /** Checks, stripe by stripe, that the parity fragments match the data ones; all k + m must be present. */
    public void verify(StripeLayout layout, FragmentSource[] sources) throws IOException {
        check(layout, sources);
        int[] all = new int[code.fragments()];
        for (int i = 0; i < all.length; i++) {
            if (sources[i] == null) {
                throw new FragmentException(Reason.TOO_FEW, "verify needs all " + code.fragments() + " fragments; "
                        + i + " is absent");
            }
            all[i] = i;
        }
        if (check == null) {
            check = new byte[code.parity()][cellSize];
        }
        byte[][] data = Arrays.copyOf(cells, code.data());
        for (int s = 0; s < layout.stripes(); s++) {
            int cell = layout.cellLength(s);
            load(layout, sources, all, s, cell);
            coder.encode(data, check, cell);
            for (int j = 0; j < code.parity(); j++) {
                if (!Arrays.equals(check[j], 0, cell, cells[code.data() + j], 0, cell)) {
                    throw new FragmentException(Reason.MISMATCH, "stripe " + s + " (fragment bytes from "
                            + layout.fragmentOffset(s) + "): parity fragment " + (code.data() + j)
                            + " does not match the data; a fragment is corrupt");
                }
            }
        }
    }

    private void check(StripeLayout layout, FragmentSource[] sources) throws FragmentException {
        if (!layout.code().equals(code) || layout.cellSize() != cellSize) {
            throw new IllegalArgumentException("layout " + layout.code() + " with cells of " + layout.cellSize()
                    + " bytes given to a decoder of " + code + " with cells of " + cellSize);
        }
        if (sources.length != code.fragments()) {
            throw new FragmentException(Reason.BAD_INDEX, "a " + code + " code has " + code.fragments()
                    + " fragments, " + sources.length + " sources given");
        }
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != null && sources[i].length() != layout.fragmentLength()) {
                throw new FragmentException(Reason.WRONG_LENGTH, "fragment " + i + " has " + sources[i].length()
                        + " bytes; every fragment of a block of " + layout.blockLength() + " bytes has "
                        + layout.fragmentLength());
            }
        }
    }

    /** k present fragments other than {@code skip}: data ones first, then parity ones. */
    private int[] choose(FragmentSource[] sources, int skip) throws FragmentException {
        int[] chosen = new int[code.data()];
        int n = 0;
        for (int i = 0; i < sources.length && n < chosen.length; i++) {
            if (sources[i] != null && i != skip) {
                chosen[n++] = i;
            }
        }
        if (n < chosen.length) {
            throw new FragmentException(Reason.TOO_FEW, "a " + code + " code needs " + code.data()
                    + " fragments to decode, only " + n + " are present" + (skip >= 0 ? " besides " + skip : ""));
        }
        return chosen;
    }

    /** The data fragments not among {@code chosen}. */
    private int[] lostData(int[] chosen) {
        return IntStream.range(0, code.data()).filter(i -> Arrays.stream(chosen).noneMatch(c -> c == i)).toArray();
    }

    private byte[][] pick(int[] indexes) {
        byte[][] out = new byte[indexes.length][];
        for (int j = 0; j < indexes.length; j++) {
            out[j] = cells[indexes[j]];
        }
        return out;
    }

    /** Reads stripe {@code s} of the fragments {@code chosen} into their cells; {@link #present} shows only those. */
    private void load(StripeLayout layout, FragmentSource[] sources, int[] chosen, int s, int cell) throws IOException {
        Arrays.fill(present, null);
        for (int i : chosen) {
            sources[i].read(layout.fragmentOffset(s), cells[i], cell);
            present[i] = cells[i];
        }
    }
}
