package geoblocks.blockstore.core.read;

import java.util.Locale;

/**
 * How one download reads its blocks from their replicas ({@code get --read S --rank R}).
 * Strategies: {@code first} asks the first replica and the next one only when it fails (the
 * default); {@code parallel} asks every replica at once, keeps the first complete block and cancels
 * the others; {@code hedged} asks the first replica, and a second one if the block has not arrived
 * after 1.25 times the first replica's median fetch time for blocks of its size ("The Tail at Scale", Dean and
 * Barroso, 2013, the delay from the fast mode: ServiceLatency#hedgeDelayNanos),
 * cancelling the loser. Ranks: {@code rtt} orders replicas this node first, then by RTT; {@code load}
 * by measured service latency ({@link ServiceLatency}).
 */
public record ReadOptions(Strategy strategy, boolean loadAware) {
    /** {@code first} by RTT: what a download did before read strategies existed. */
    public static final ReadOptions DEFAULT = new ReadOptions(Strategy.FIRST, false);

    public enum Strategy {
        FIRST, PARALLEL, HEDGED;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ReadOptions {
        if (strategy == null) {
            throw new IllegalArgumentException("a read needs a strategy");
        }
    }

    /** Parses {@code --read} (first, parallel, hedged) and {@code --rank} (rtt, load); empty means the default. */
    public static ReadOptions parse(String strategy, String rank) {
        String s = strategy == null || strategy.isBlank() ? "first" : strategy.trim().toLowerCase(Locale.ROOT);
        String r = rank == null || rank.isBlank() ? "rtt" : rank.trim().toLowerCase(Locale.ROOT);
        Strategy st = null;
        for (Strategy x : Strategy.values()) {
            if (x.id().equals(s)) {
                st = x;
            }
        }
        if (st == null) {
            throw new IllegalArgumentException("unknown read strategy '" + strategy + "'; choose first, parallel or hedged");
        }
        if (!r.equals("rtt") && !r.equals("load")) {
            throw new IllegalArgumentException("unknown replica rank '" + rank + "'; choose rtt or load");
        }
        return new ReadOptions(st, r.equals("load"));
    }

    /**
     * The options of a download that asked for {@code strategy} and {@code rank}, where an empty (or
     * null) one means this node's default for it ({@code geoblocks.node.read}, {@code nodeDefault}).
     * Null when neither was asked and the node's default is {@link #DEFAULT}: the download then takes
     * the plain nearest-first path, as before read strategies existed.
     *
     * @throws IllegalArgumentException for a strategy or rank that is not known
     */
    public static ReadOptions resolve(String strategy, String rank, ReadOptions nodeDefault) {
        boolean noStrategy = strategy == null || strategy.isBlank();
        boolean noRank = rank == null || rank.isBlank();
        if (noStrategy && noRank) {
            return nodeDefault.equals(DEFAULT) ? null : nodeDefault;
        }
        return parse(noStrategy ? nodeDefault.strategy().id() : strategy, noRank ? nodeDefault.rank() : rank);
    }

    public String rank() {
        return loadAware ? "load" : "rtt";
    }

    @Override
    public String toString() {
        return strategy.id() + "/" + rank();
    }
}
