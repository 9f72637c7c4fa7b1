package geoblocks.app.s3;

/**
 * Whether a CreateBucket the node refused is tried again instead of answered: while the name's
 * owner cannot decide creates yet (it started with no manifests and its first anti-entropy exchange
 * with every peer that is up has not finished), and while this node is starting (its peers' first
 * probes have not settled, so an owner or the regions placement needs may look down although they
 * are not), the gateway waits, up to {@code geoblocks.s3.create-wait} from the request's start, and
 * asks again every {@link #RETRY_NANOS}. Other refusals (the name exists, a region really down
 * after start-up) are answered at once. Pure: time is passed in.
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
    boolean retry(NodeStore.StoreException e, boolean nodeStarting, long nowNanos) {
        boolean transient_ = e.createsNotDecidedYet() || (nodeStarting && e.regionsDown());
        return transient_ && nowNanos + RETRY_NANOS - deadlineNanos <= 0;
    }
}
