package geoblocks.blockstore.core;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FailureException;

/**
 * Bytes a node may hold in transfer buffers (blocks being uploaded, replicated or downloaded,
 * manifests in flight). Every large buffer is reserved here before it is allocated, so floods of
 * requests or huge declared sizes are refused ("node busy") instead of exhausting the heap.
 * Bytes that are in memory already ({@link #reserveHeld}: a whole block that arrived in one message)
 * are counted even beyond the capacity, since refusing them would free nothing; new reservations
 * then fail until enough is released. Invariant: 0 <= used, and used <= capacity unless held bytes
 * took it over. Thread-safe (each method holds the budget's monitor and calls nothing outside it): the
 * components of a node share one budget.
 */
public final class MemoryBudget implements TransferMemory {
    private final long capacity;
    private long used;

    public MemoryBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("memory budget must be > 0 bytes, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Reserves {@code bytes} if they fit; false (and nothing reserved) otherwise. */
    @Override
    public synchronized boolean tryReserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
        }
        if (bytes > capacity - used) {
            return false;
        }
        used += bytes;
        return true;
    }

    /**
     * Counts {@code bytes} that are in memory already (they arrived whole in one message), even
     * beyond the capacity: until they are released, {@link #tryReserve} refuses what no longer fits.
     */
    public synchronized void reserveHeld(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
        }
        used += bytes;
    }

    @Override
    public synchronized void release(long bytes) {
        if (bytes < 0 || bytes > used) {
            throw new IllegalStateException("releasing " + bytes + " bytes but only " + used + " are reserved");
        }
        used -= bytes;
    }

    public synchronized long used() {
        return used;
    }

    public long capacity() {
        return capacity;
    }

    /** The refusal a client sees, as a {@link geoblocks.blockstore.wire.FailureCode#BUSY} exception. */
    @Override
    public FailureException refusal(long wanted) {
        return new FailureException(FailureCode.BUSY, busy(wanted));
    }

    /** The refusal a client sees. */
    @Override
    public synchronized String busy(long wanted) {
        return "node busy: " + (used >> 20) + " of " + (capacity >> 20) + " MiB of transfer memory in use, "
                + wanted + " more bytes refused; retry later";
    }
}
