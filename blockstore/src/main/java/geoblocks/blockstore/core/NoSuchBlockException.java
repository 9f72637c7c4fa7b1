package geoblocks.blockstore.core;

import java.io.IOException;

/** A block that this store does not hold. */
public final class NoSuchBlockException extends IOException {
    private static final long serialVersionUID = 1L;

    public NoSuchBlockException(BlockId id) {
        super("no block " + id + " here");
    }
}
