package geoblocks.blockstore.core;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FailureException;

/**
 * Where a transfer reserves the memory of its buffers before it allocates them: the node's whole
 * {@link MemoryBudget}, or the share of it that client work may use ({@link AdmissionQueue}).
 * Every reservation that succeeded is released exactly once.
 */
public interface TransferMemory {
    /** Reserves {@code bytes} if they may be held now; false (and nothing reserved) otherwise. */
    boolean tryReserve(long bytes);

    /** Returns {@code bytes} reserved earlier. */
    void release(long bytes);

    /** Why {@code wanted} more bytes were refused: starts with "node busy". */
    String busy(long wanted);

    /** The refusal of {@code wanted} more bytes, as a {@link geoblocks.blockstore.wire.FailureCode#BUSY} exception. */
    default FailureException refusal(long wanted) {
        return new FailureException(FailureCode.BUSY, busy(wanted));
    }
}
