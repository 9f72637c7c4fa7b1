package geoblocks.blockstore.wire;

/**
 * What kind of failure a {@link FileOp.Failed} reports, so that callers decide on the kind and never
 * on the words (the text is for people and may be reworded). Each code has a fixed wire value; the
 * S3 gateway and the command line map codes to their own statuses in one table each
 * ({@code S3Error.forNode}, {@code ExitCodes}).
 */
public enum FailureCode {
    /** Anything not covered below: a storage or metadata write failed, or a bug. */
    INTERNAL(0),
    /** No such file, no such version, or the version asked for is a delete (a tombstone). */
    NOT_FOUND(1),
    /** {@code put --if-absent}: the name already has a live version (its owner region decided). */
    EXISTS(2),
    /** A move: the file got a newer version or was deleted meanwhile, so this move ended. */
    NEWER_EXISTS(3),
    /** A node's transfer memory or bench slots are full: nothing happened; retry later. */
    BUSY(4),
    /** A region the request needs is down, unreachable, silent or not ready yet: nothing was decided; retry later. */
    UNAVAILABLE(5),
    /** The request is not valid: a bad name, size, policy, version id, range, argument, or sender. */
    INVALID(6),
    /** An answer was lost after the request may have taken effect: it may or may not have happened. */
    OUTCOME_UNKNOWN(7),
    /** A conditional write (If-Match / If-None-Match on a tag): the name's live version does not meet it (its owner region decided). */
    PRECONDITION_FAILED(8),
    /** The sender may not ask this: an admin operation from a client, not through the admin API with a token. */
    FORBIDDEN(9),
    /**
     * The node does not know the operation (a newer peer's op): nothing happened. File protocol 4 on;
     * written as {@link #INVALID} to a peer that speaks only version 3.
     */
    UNSUPPORTED(10),
    /**
     * The node's storage has no room for the write (its disk keeps less than its reserve free, or its
     * capacity is reached): nothing was stored; reads go on. File protocol 4 on; written as
     * {@link #INTERNAL} (what it was before) to a peer that speaks only version 3.
     */
    INSUFFICIENT_STORAGE(11);

    private final int wire;

    FailureCode(int wire) {
        this.wire = wire;
    }

    /** The code's byte on the wire; stable across releases. */
    public int wire() {
        return wire;
    }

    /** The code with wire value {@code v}; throws IllegalArgumentException naming the value when none has it. */
    public static FailureCode ofWire(int v) {
        for (FailureCode c : values()) {
            if (c.wire == v) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown failure code " + v);
    }

    /** {@code e}'s code when it is a {@link FailureException}, else {@code otherwise}. */
    public static FailureCode of(Throwable e, FailureCode otherwise) {
        return e instanceof FailureException f ? f.code() : otherwise;
    }
}
