package geoblocks.blockstore.wire;

import geoblocks.blockstore.core.CorruptBlockException;
import geoblocks.blockstore.core.DiskFullException;
import geoblocks.blockstore.core.NoSuchBlockException;

/**
 * What kind of failure a {@link FileOp.Failed} reports, so that callers decide on the kind and never
 * on the words (the text is for people and may be reworded). Each code has a fixed wire value; the
 * S3 gateway and the command line map codes to their own statuses in one table each
 * ({@code S3Error.forNode}, {@code ExitCodes}).
 */
public enum FailureCode {
    /** Anything not covered below: a failure of no other kind (a bug, or a failure a peer of file protocol 3 or 4 reports). */
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
    UNSUPPORTED(10, 4, INVALID),
    /**
     * The node's storage has no room for the write (its disk keeps less than its reserve free, or its
     * capacity is reached): nothing was stored; reads go on. File protocol 4 on; written as
     * {@link #INTERNAL} (what it was before) to a peer that speaks only version 3.
     */
    INSUFFICIENT_STORAGE(11, 4, INTERNAL),
    /**
     * A block of the file is missing: every region that should hold it answered that it holds no such
     * block (none was down or silent). File protocol 5 on; written as {@link #UNAVAILABLE} (what a read
     * whose replicas all failed gave before) to a peer that speaks only version 3 or 4.
     */
    BLOCK_MISSING(12, 5, UNAVAILABLE),
    /**
     * A block of the file is corrupt: no region that answered holds it intact (its bytes fail their
     * checksum, header or length), and none was down or silent; or the bytes of a small file kept in its
     * manifest fail their checksum at the node asked. File protocol 5 on; written as
     * {@link #UNAVAILABLE} to a peer that speaks only version 3 or 4.
     */
    BLOCK_CORRUPT(13, 5, UNAVAILABLE),
    /**
     * The node's disk failed a block's read or write (an I/O error that is neither a full disk, a
     * missing block nor a corrupt one). File protocol 5 on; written as {@link #INTERNAL} (what it was
     * before) to a peer that speaks only version 3 or 4.
     */
    IO_ERROR(14, 5, INTERNAL);

    private final int wire;
    /** The first file protocol version that has this code. */
    private final int since;
    /** What a message of a version before {@link #since} carries instead (null: every version has it). */
    private final FailureCode before;

    FailureCode(int wire) {
        this(wire, 3, null);
    }

    FailureCode(int wire, int since, FailureCode before) {
        this.wire = wire;
        this.since = since;
        this.before = before;
    }

    /** The first file protocol version that has this code (3 for the codes every version has). */
    public int since() {
        return since;
    }

    /**
     * This code as a message of file protocol {@code version} carries it: itself from {@link #since} on,
     * before that the older code that the failure had then (UNSUPPORTED as INVALID, INSUFFICIENT_STORAGE
     * and IO_ERROR as INTERNAL, BLOCK_MISSING and BLOCK_CORRUPT as UNAVAILABLE).
     */
    public FailureCode atVersion(int version) {
        FailureCode c = this;
        while (version < c.since) {
            c = c.before;
        }
        return c;
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

    /**
     * {@code e}'s code by its type, never its words: a {@link FailureException}'s own code; a full disk
     * ({@code DiskFullException}) INSUFFICIENT_STORAGE; a block the store does not hold
     * ({@code NoSuchBlockException}) BLOCK_MISSING; a block that fails its checks ({@code CorruptBlockException})
     * BLOCK_CORRUPT; anything else {@code otherwise}, which the catching site picks for what it caught
     * (IO_ERROR for a disk's other I/O errors, INVALID for a bad argument, INTERNAL for a bug).
     */
    public static FailureCode of(Throwable e, FailureCode otherwise) {
        if (e instanceof FailureException f) {
            return f.code();
        }
        if (e instanceof DiskFullException) {
            return INSUFFICIENT_STORAGE;
        }
        if (e instanceof NoSuchBlockException) {
            return BLOCK_MISSING;
        }
        if (e instanceof CorruptBlockException) {
            return BLOCK_CORRUPT;
        }
        return otherwise;
    }
}
