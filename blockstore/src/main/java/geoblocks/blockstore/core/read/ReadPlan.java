package geoblocks.blockstore.core.read;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The decisions of one block fetch over its replicas, without I/O: whom to ask, when to hedge and
 * whom to cancel. The caller sends a request to every region a method returns (or, from
 * {@link #onSucceeded}, a cancel), and calls {@link #onTimer} once the clock reaches {@link #hedgeAt()}.
 * <ul>
 *   <li>{@code first}: the first replica of {@code order}; after a failure, the next.
 *   <li>{@code parallel}: every replica at once; the first complete block wins, the rest are cancelled.
 *   <li>{@code hedged}: the first replica; if it has not answered {@code hedgeDelay(region)} later,
 *       one more request to the next replica (one hedge per block, as in "The Tail at Scale"); a
 *       failure asks the next replica at once and re-arms the hedge for it; the first complete
 *       block wins and the other request is cancelled.
 * </ul>
 * The fetch has failed when every replica has failed. Time is passed in (nanoseconds). Not
 * thread-safe: one component owns it.
 */
public final class ReadPlan {
    /** {@link #hedgeAt()}: no hedge is due. */
    public static final long NEVER = Long.MAX_VALUE;

    private final ReadOptions.Strategy strategy;
    private final List<String> order;
    private final ToLongFunction<String> hedgeDelay;
    private final Set<String> asked = new LinkedHashSet<>();
    private final Set<String> failed = new LinkedHashSet<>();
    private boolean hedged;
    private long hedgeAt = NEVER;
    private String winner;

    /**
     * @param order the replicas, best first
     * @param hedgeDelay nanoseconds to wait on a replica before hedging (used by {@code hedged} only)
     */
    public ReadPlan(ReadOptions.Strategy strategy, List<String> order, ToLongFunction<String> hedgeDelay) {
        if (order.isEmpty()) {
            throw new IllegalArgumentException("a block fetch needs at least one replica");
        }
        this.strategy = strategy;
        this.order = List.copyOf(order);
        this.hedgeDelay = hedgeDelay;
    }

    /** The regions to ask first. */
    public List<String> start(long now) {
        if (strategy == ReadOptions.Strategy.PARALLEL) {
            asked.addAll(order);
            return order;
        }
        return askNext(now);
    }

    /** When {@link #onTimer} has a hedge to send, or {@link #NEVER}. */
    public long hedgeAt() {
        return hedgeAt;
    }

    /** The clock reached {@code now}: the hedge, if it is due and still useful. */
    public List<String> onTimer(long now) {
        if (winner != null || hedgeAt == NEVER || now < hedgeAt) {
            return List.of();
        }
        hedgeAt = NEVER;
        hedged = true;
        return askNext(now);
    }

    /** {@code region} failed (error, timeout or bad checksum): who to ask instead, if anyone. */
    public List<String> onFailed(String region, long now) {
        if (winner != null || !asked.contains(region) || !failed.add(region)) {
            return List.of();
        }
        if (strategy == ReadOptions.Strategy.PARALLEL || outstanding().size() > 0) {
            return List.of(); // the other requests may still deliver
        }
        return askNext(now);
    }

    /** {@code region} delivered the block: the regions whose requests to cancel. */
    public List<String> onSucceeded(String region) {
        if (winner != null || !asked.contains(region) || failed.contains(region)) {
            return List.of();
        }
        winner = region;
        hedgeAt = NEVER;
        List<String> losers = outstanding();
        losers.remove(region);
        return losers;
    }

    /** Every replica failed: the fetch is over without a block. */
    public boolean failedAll() {
        return winner == null && failed.size() == order.size();
    }

    /** The region that delivered the block, or null. */
    public String winner() {
        return winner;
    }

    /** Regions asked so far, in order. */
    public List<String> asked() {
        return List.copyOf(asked);
    }

    /** Asked regions that have neither failed nor won. */
    private List<String> outstanding() {
        List<String> out = new ArrayList<>(asked);
        out.removeAll(failed);
        return out;
    }

    private List<String> askNext(long now) {
        for (String r : order) {
            if (!asked.contains(r)) {
                asked.add(r);
                if (strategy == ReadOptions.Strategy.HEDGED && !hedged && asked.size() < order.size()) {
                    hedgeAt = now + Math.max(0, hedgeDelay.applyAsLong(r));
                } else {
                    hedgeAt = NEVER;
                }
                return List.of(r);
            }
        }
        return List.of();
    }
}
