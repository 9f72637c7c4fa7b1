package geoblocks.blockstore.core.read;

import geoblocks.blockstore.core.BlockId;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The failures of one block's replicas, each with its region, and what they add up to once every
 * replica failed ({@link #all}). Pure: no I/O, no clock.
 *
 * <p>The code of a read whose replicas all failed: when every replica answered with a storage failure
 * (its store does not hold the block, holds it corrupt, or failed to read it), the block is lost as far
 * as the replicas know, and the code says how: BLOCK_CORRUPT when any copy was found corrupt (no replica
 * holds it intact), else IO_ERROR when any store failed to read it, else BLOCK_MISSING (no replica holds
 * it). When any replica failed otherwise (down, silent, busy, or a peer that answers without these codes),
 * a later read may find it: UNAVAILABLE, what every such read was before the storage codes.
 */
public final class ReplicaFailures {
    private final List<String> texts = new ArrayList<>();
    private final List<FailureCode> codes = new ArrayList<>();

    /** Replica {@code region} failed with {@code why}. */
    public void add(String region, Failure why) {
        texts.add(region + ": " + why.text());
        codes.add(why.code());
    }

    /** How many replicas failed so far. */
    public int size() {
        return codes.size();
    }

    /** The failure of a read of block {@code id} whose replicas all failed: its code per {@link #combined}, every replica's words. */
    public Failure all(BlockId id) {
        return new Failure(combined(codes), "block " + id + ": every replica failed: " + words());
    }

    /** The failures so far as one: their code per {@link #combined}, every replica's words joined. */
    public Failure joined() {
        return new Failure(combined(codes), words());
    }

    private String words() {
        return String.join("; ", texts);
    }

    /** The code of a read whose replicas failed with {@code codes} (see the class comment); UNAVAILABLE for none. */
    public static FailureCode combined(List<FailureCode> codes) {
        if (codes.isEmpty()) {
            return FailureCode.UNAVAILABLE;
        }
        boolean corrupt = false;
        boolean io = false;
        for (FailureCode c : codes) {
            switch (c) {
                case BLOCK_CORRUPT -> corrupt = true;
                case IO_ERROR -> io = true;
                case BLOCK_MISSING -> { }
                default -> {
                    return FailureCode.UNAVAILABLE;
                }
            }
        }
        return corrupt ? FailureCode.BLOCK_CORRUPT : io ? FailureCode.IO_ERROR : FailureCode.BLOCK_MISSING;
    }
}
