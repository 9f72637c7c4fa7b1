package geoblocks.node.s3;

import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.wire.FailureCode;

/**
 * Whether a CreateBucket the node refused is tried again instead of answered: while the node is
 * {@link #settling} after its start, a refusal coded {@link FailureCode#UNAVAILABLE} (the name's owner
 * cannot decide creates yet, as after a start with no manifests until its first anti-entropy exchange
 * with every peer that is up, or the owner or the regions placement needs look down, as while the
 * node's first probes settle) is asked again every {@link #RETRY_NANOS} up to
 * {@code geoblocks.s3.create-wait} from the request's start. Once it has settled, an owner it calls
 * down (the failure detector's verdict, or a refused connection) is down, not settling: the 503 is
 * answered at once, naming the owner. Other refusals (the name exists, bad input) are answered at once.
 * Pure: time and the node's state are passed in.
 */
final class CreateWait {
    /** How often a waiting create asks again. */
    static final long RETRY_NANOS = 250_000_000L;
    private final long deadlineNanos;

    /** A create that started at {@code startNanos} and may wait {@code waitNanos} (>= 0). */
    CreateWait(long startNanos, long waitNanos) {
        if (waitNanos < 0) {
            throw new IllegalArgumentException("create wait must be >= 0 ns, was " + waitNanos);
        }
        this.deadlineNanos = startNanos + waitNanos;
    }

    /**
     * Whether the node whose snapshot is {@code s} (null: none yet) is still settling after its start: it cannot
     * decide the creates of the names it owns yet, or some peer's first RTT probes have not settled (neither measured
     * up nor past down-after), so a region it calls down may only not have answered yet.
     */
    static boolean settling(NodeSnapshot s) {
        return s == null || s.createsNotReady() != null || !s.unsettledPeers().isEmpty();
    }

    /**
     * True when the refusal {@code e} at {@code nowNanos} is tried again after {@link #RETRY_NANOS}; {@code settling}:
     * what {@link #settling} says of the node now.
     */
    boolean retry(NodeStore.StoreException e, long nowNanos, boolean settling) {
        return e.code() == FailureCode.UNAVAILABLE && settling && nowNanos + RETRY_NANOS - deadlineNanos <= 0;
    }
}
