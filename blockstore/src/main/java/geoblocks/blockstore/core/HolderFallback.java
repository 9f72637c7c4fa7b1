package geoblocks.blockstore.core;

import geoblocks.blockstore.core.read.ReplicaFailures;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.util.List;

/**
 * Which holder of a block to ask next: the holders in the given order, each once; a failed ask
 * moves to the next and keeps its failure, and when none is left the failures together say why the
 * block could not be had, their codes added up as a read's are ({@link ReplicaFailures#combined}).
 * Pure: no clock, no I/O.
 *
 * @param <H> a holder (an address)
 */
public final class HolderFallback<H> {
    private final List<H> holders;
    private final ReplicaFailures failures = new ReplicaFailures();
    private int next;

    public HolderFallback(List<H> holders) {
        this.holders = List.copyOf(holders);
    }

    /** The next holder to ask, or null when every one was asked. */
    public H next() {
        return next < holders.size() ? holders.get(next++) : null;
    }

    /** Asking {@code holder} failed with {@code why}. */
    public void failed(H holder, Failure why) {
        failures.add(String.valueOf(holder), why);
    }

    /**
     * Why no holder gave the block: every failed ask's reason, with their codes added up (every holder
     * without the block: BLOCK_MISSING; one down or busy: UNAVAILABLE), or that there was none to ask
     * (UNAVAILABLE).
     */
    public Failure why() {
        return failures.size() == 0 ? new Failure(FailureCode.UNAVAILABLE, "no replica to ask") : failures.joined();
    }
}
