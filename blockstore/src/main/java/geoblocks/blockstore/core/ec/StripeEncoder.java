package geoblocks.blockstore.core.ec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Encodes blocks as they stream in, one stripe at a time ({@link StripeLayout}): block bytes are
 * copied straight into k reusable cell buffers; each full stripe is encoded into m reusable parity
 * buffers and handed to a {@link Sink}; {@link #finish} encodes the last, shorter stripe and starts
 * the next block. Memory is k + m cells (plus one stripe of scratch for the last stripe of a block,
 * made once); no block is ever held whole. Not thread-safe.
 */
public final class StripeEncoder {
    /** Takes one stripe's k + m cells, {@code cellLength} bytes each: the encoder's buffers, valid only during the call. */
    public interface Sink {
        void stripe(int index, byte[][] cells, int cellLength) throws IOException;
    }

    private final ErasureCoder coder;
    private final int cellSize;
    private final int k;
    private final byte[][] cells;
    private final byte[][] data;
    private final byte[][] parity;
    private byte[] scratch;
    private int filled;
    private int stripe;
    private long total;

    /** An encoder of {@code code} with the chosen library's coder. */
    public StripeEncoder(ErasureCode code, int cellSize) {
        this(code.newCoder(), cellSize);
    }

    public StripeEncoder(ErasureCoder coder, int cellSize) {
        ErasureCode code = coder.code();
        if (cellSize < 1 || (long) code.data() * cellSize > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("cell size must be >= 1 byte and a stripe (k * cell) < 2 GiB, was "
                    + cellSize + " with k = " + code.data());
        }
        this.coder = coder;
        this.cellSize = cellSize;
        this.k = code.data();
        this.cells = new byte[code.fragments()][cellSize];
        this.data = new byte[k][];
        this.parity = new byte[code.parity()][];
        for (int i = 0; i < cells.length; i++) {
            if (i < k) {
                data[i] = cells[i];
            } else {
                parity[i - k] = cells[i];
            }
        }
    }

    public ErasureCode code() {
        return coder.code();
    }

    public int cellSize() {
        return cellSize;
    }

    /** Takes {@code len} more block bytes; every stripe they complete goes to {@code sink}. */
    public void write(byte[] b, int off, int len, Sink sink) throws IOException {
        if (off < 0 || len < 0 || off + len > b.length) {
            throw new IndexOutOfBoundsException("bytes [" + off + ", +" + len + ") of an array of " + b.length);
        }
        while (len > 0) {
            int n = Math.min(len, cellSize - filled % cellSize);
            System.arraycopy(b, off, cells[filled / cellSize], filled % cellSize, n);
            off += n;
            len -= n;
            advance(n, sink);
        }
    }

    /** Takes the remaining bytes of {@code src}; every stripe they complete goes to {@code sink}. */
    public void write(ByteBuffer src, Sink sink) throws IOException {
        while (src.hasRemaining()) {
            int n = Math.min(src.remaining(), cellSize - filled % cellSize);
            src.get(cells[filled / cellSize], filled % cellSize, n);
            advance(n, sink);
        }
    }

    /**
     * Ends the block: encodes its last, shorter stripe (if any) into {@code sink}, returns the block's
     * layout and makes the encoder ready for the next block.
     */
    public StripeLayout finish(Sink sink) throws IOException {
        StripeLayout layout = new StripeLayout(coder.code(), cellSize, total);
        try {
            if (filled > 0) {
                int tail = layout.tailCell();
                relayout(filled, tail);
                coder.encode(data, parity, tail);
                sink.stripe(stripe, cells, tail);
            }
        } finally {
            filled = 0;
            stripe = 0;
            total = 0;
        }
        return layout;
    }

    private void advance(int n, Sink sink) throws IOException {
        filled += n;
        total += n;
        if (filled == k * cellSize) {
            coder.encode(data, parity, cellSize);
            filled = 0;
            sink.stripe(stripe++, cells, cellSize);
        }
    }

    /** Moves the {@code bytes} of a partial stripe from cells of cellSize to cells of {@code tail}, zero-padded. */
    private void relayout(int bytes, int tail) {
        if (scratch == null) {
            scratch = new byte[k * cellSize];
        }
        for (int q = 0; q < bytes; q += cellSize) {
            System.arraycopy(cells[q / cellSize], 0, scratch, q, Math.min(cellSize, bytes - q));
        }
        for (int i = 0; i < k; i++) {
            int from = i * tail;
            int n = Math.max(0, Math.min(tail, bytes - from));
            System.arraycopy(scratch, from, cells[i], 0, n);
            Arrays.fill(cells[i], n, tail, (byte) 0);
        }
    }
}
