package geoblocks.blockstore.core;

import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Decides whether a block on this node's disk is garbage (mark and sweep over the metadata engine,
 * one block at a time, with a grace period as in Garage's {@code BLOCK_GC_DELAY}). A block is kept
 * when any of these holds, checked in this order:
 * <ol>
 *   <li>{@link Verdict#YOUNG}: it was written less than {@code grace} ago, or this node has been
 *       settled (started, and every peer up without a break) for less than {@code grace}: what a
 *       restart forgot about work in flight, and manifests that a partition or a peer's absence
 *       held back and anti-entropy has yet to bring, get a whole grace period after every start
 *       and every reconnection;
 *   <li>{@link Verdict#FOREIGN}: its id is not {@code b-FILEID-INDEX}, so no manifest could name it;
 *   <li>{@link Verdict#REFERENCED}: a version this node keeps (any, superseded ones and those under
 *       a tombstone included) names that block and places it at this node's region;
 *   <li>{@link Verdict#UNREADABLE}: a version naming the file is stored here but cannot be read (never
 *       collect what a damaged record might name);
 *   <li>{@link Verdict#IN_FLIGHT}: the file is in flight here ({@link InFlightFiles}: an upload or a
 *       move under way, a copy stored for one recently, a copy the replication queue owes).
 * </ol>
 * Otherwise it is {@link Verdict#COLLECT}: no kept version names it here (a failed, refused or
 * abandoned upload, an abandoned move's copy, a copy a move or re-replication moved away, i.e. a
 * superseded location epoch) and nothing under way will. Pure: the lookups and the clock (epoch ms)
 * are injected; tests move the clock.
 */
public final class BlockCollector {
    /** What {@link #decide} says about one block. */
    public enum Verdict {
        YOUNG, FOREIGN, REFERENCED, UNREADABLE, IN_FLIGHT, COLLECT;

        public boolean collect() {
            return this == COLLECT;
        }
    }

    /** Whether the versions kept here name block {@code INDEX} of a file, and where. */
    public enum Reference {
        /** A kept version places the block at this node's region. */
        HERE,
        /** Kept versions name the file, none places this block here. */
        ELSEWHERE,
        /** No kept version names the file. */
        NONE,
        /** A kept record naming the file cannot be read. */
        UNREADABLE
    }

    /** What the collector asks the node about a block's file. */
    public interface Lookups {
        Reference reference(String fileId, int index);

        boolean inFlight(String fileId);
    }

    /** The file id and block index a block id names ({@link BlockId#ofFileBlock}). */
    public record FileBlock(String fileId, int index) {
        /** Parses {@code b-FILEID-INDEX}; empty for any other id. */
        public static Optional<FileBlock> of(BlockId id) {
            String v = id.value();
            int dash = v.lastIndexOf('-');
            if (!v.startsWith("b-") || dash <= 2 || dash == v.length() - 1 || v.length() - dash > 10) {
                return Optional.empty();
            }
            for (int i = dash + 1; i < v.length(); i++) {
                if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                    return Optional.empty();
                }
            }
            return Optional.of(new FileBlock(v.substring(2, dash), Integer.parseInt(v.substring(dash + 1))));
        }
    }

    /** {@code settledSinceMillis} of a node that is not settled (a peer is down): nothing is collected. */
    public static final long UNSETTLED = Long.MAX_VALUE;

    private final long graceMillis;
    private final LongSupplier clockMillis;

    /**
     * @param graceMillis how long an unreferenced block is kept (at least 1 ms)
     * @param clockMillis the wall clock, epoch ms (file modification times are on it)
     */
    public BlockCollector(long graceMillis, LongSupplier clockMillis) {
        if (graceMillis < 1) {
            throw new IllegalArgumentException("gc grace must be >= 1 ms, was " + graceMillis);
        }
        this.graceMillis = graceMillis;
        this.clockMillis = clockMillis;
    }

    public long graceMillis() {
        return graceMillis;
    }

    /**
     * Blocks written after this time (epoch ms) are young whatever else holds, so a sweep need not
     * list them; {@link Long#MIN_VALUE} (none is old enough) while the node has been settled for
     * less than a grace ({@code settledSinceMillis}: since when it has run with every peer up, or
     * {@link #UNSETTLED}).
     */
    public long cutoffMillis(long settledSinceMillis) {
        long now = clockMillis.getAsLong();
        return settledSinceMillis == UNSETTLED || now - settledSinceMillis < graceMillis ? Long.MIN_VALUE : now - graceMillis;
    }

    /**
     * The verdict on block {@code f} now, for a node settled since {@code settledSinceMillis} (see
     * {@link #cutoffMillis}); the lookups are asked only when its age does not decide.
     */
    public Verdict decide(BlockFile f, long settledSinceMillis, Lookups lookups) {
        long now = clockMillis.getAsLong();
        if (settledSinceMillis == UNSETTLED || now - Math.max(f.modifiedMillis(), settledSinceMillis) < graceMillis) {
            return Verdict.YOUNG;
        }
        Optional<FileBlock> fb = FileBlock.of(f.id());
        if (fb.isEmpty()) {
            return Verdict.FOREIGN;
        }
        Reference r = lookups.reference(fb.get().fileId(), fb.get().index());
        if (r == Reference.HERE) {
            return Verdict.REFERENCED;
        }
        if (r == Reference.UNREADABLE) {
            return Verdict.UNREADABLE;
        }
        return lookups.inFlight(fb.get().fileId()) ? Verdict.IN_FLIGHT : Verdict.COLLECT;
    }
}
