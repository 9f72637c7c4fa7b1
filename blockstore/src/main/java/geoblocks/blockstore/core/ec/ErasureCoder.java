package geoblocks.blockstore.core.ec;

/**
 * Our small interface to a Reed-Solomon library, so the library can be swapped: one stripe's cells
 * in, parity or lost cells out. A cell is the bytes {@code [0, len)} of an array (longer arrays are
 * reused buffers). Fragments 0..k-1 are the data, k..k+m-1 the parity: the code is systematic, so a
 * data cell is the block's own bytes. Not thread-safe: one coder per thread.
 *
 * <p>Callers check their arguments against these rules first ({@link StripeEncoder}, {@link StripeDecoder});
 * an implementation throws IllegalArgumentException for a broken one, naming it.
 */
public interface ErasureCoder {
    ErasureCode code();

    /** Computes {@code parity[0..m)} from {@code data[0..k)}, {@code len} bytes of each. */
    void encode(byte[][] data, byte[][] parity, int len);

    /**
     * Computes the cells of the fragments {@code wanted} into {@code out} (same order) from
     * {@code cells}: k+m entries, null where a fragment is absent, at least k present. A wanted
     * fragment's entry is ignored (it may be present, e.g. when checking it).
     */
    void reconstruct(byte[][] cells, int[] wanted, byte[][] out, int len);
}
