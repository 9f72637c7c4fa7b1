package geoblocks.app.s3;

import geoblocks.blockstore.wire.FailureCode;

/**
 * Whether a CreateBucket the node refused is tried again instead of answered: a refusal coded
 * {@link FailureCode#UNAVAILABLE} (the name's owner cannot decide creates yet, as after a start with
 * no manifests until its first anti-entropy exchange with every peer that is up, or the owner or the
 * regions placement needs look down, as while the node's first probes settle) is asked again every
 * {@link #RETRY_NANOS} up to {@code geoblocks.s3.create-wait} from the request's start. So a region
 * really down makes a CreateBucket wait that long before its 503. Other refusals (the name exists,
 * bad input) are answered at once. Pure: time is passed in.
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

    /** True when the refusal {@code e} at {@code nowNanos} is tried again after {@link #RETRY_NANOS}. */
    boolean retry(NodeStore.StoreException e, long nowNanos) {
        return e.code() == FailureCode.UNAVAILABLE && nowNanos + RETRY_NANOS - deadlineNanos <= 0;
    }
}
