package geoblocks.blockstore.core.ec;

import java.io.IOException;

/**
 * The fragments given cannot give the block back: too few of them, one of the wrong length, or
 * fragments that disagree (one is corrupt). {@link #reason()} says which, for callers and tests;
 * the message names the numbers.
 */
public final class FragmentException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the fragments did not serve. */
    public enum Reason {
        /** Fewer than k fragments are present. */
        TOO_FEW,
        /** A fragment is not the length the layout gives every fragment. */
        WRONG_LENGTH,
        /** The parity does not match the data: some fragment is corrupt. */
        MISMATCH,
        /** A fragment index outside 0..k+m-1, or the same fragment twice. */
        BAD_INDEX
    }

    private final Reason reason;

    public FragmentException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
