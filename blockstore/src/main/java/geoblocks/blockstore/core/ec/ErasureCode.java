package geoblocks.blockstore.core.ec;

/**
 * A Reed-Solomon code over GF(2^8): {@code data} (k) data fragments and {@code parity} (m) parity
 * fragments, any k of the k+m enough to give the block back. Valid when 1 <= k, 1 <= m and
 * k + m <= {@link #MAX_FRAGMENTS} (the coder's Cauchy matrix takes one element of GF(2^8) per
 * fragment, and the library refuses 256). Immutable.
 */
public record ErasureCode(int data, int parity) {
    /** The most fragments (data + parity) one code may have. */
    public static final int MAX_FRAGMENTS = 255;

    public ErasureCode {
        if (data < 1) {
            throw new IllegalArgumentException("an erasure code needs data >= 1 fragments, was " + data);
        }
        if (parity < 1) {
            throw new IllegalArgumentException("an erasure code needs parity >= 1 fragments, was " + parity
                    + " (parity 0 survives no loss: use one copy instead)");
        }
        if (data + parity > MAX_FRAGMENTS) {
            throw new IllegalArgumentException("data + parity must be <= " + MAX_FRAGMENTS + " fragments (GF(2^8)), was "
                    + data + " + " + parity + " = " + (data + parity));
        }
    }

    /** k + m: the regions a block coded with it needs. */
    public int fragments() {
        return data + parity;
    }

    /** Bytes stored per byte of data, before the padding of the last stripe: (k + m) / k. */
    public double overhead() {
        return (double) fragments() / data;
    }

    /** A coder of this code from the chosen library ({@link HadoopRsCoder}); one per thread. */
    public ErasureCoder newCoder() {
        return new HadoopRsCoder(this);
    }

    /** "3+1": k data + m parity. */
    @Override
    public String toString() {
        return data + "+" + parity;
    }
}
