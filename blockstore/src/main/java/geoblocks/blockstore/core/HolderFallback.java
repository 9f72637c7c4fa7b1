package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Which holder of a block to ask next: the holders in the given order, each once; a failed ask
 * moves to the next and keeps its reason, and when none is left the reasons together say why the
 * block could not be had. Pure: no clock, no I/O.
 *
 * @param <H> a holder (an address)
 */
public final class HolderFallback<H> {
    private final List<H> holders;
    private final List<String> problems = new ArrayList<>();
    private int next;

    public HolderFallback(List<H> holders) {
        this.holders = List.copyOf(holders);
    }

    /** The next holder to ask, or null when every one was asked. */
    public H next() {
        return next < holders.size() ? holders.get(next++) : null;
    }

    /** Asking {@code holder} failed for {@code why}. */
    public void failed(H holder, String why) {
        problems.add(holder + ": " + why);
    }

    /** Why no holder gave the block: every failed ask's reason, or that there was none to ask. */
    public String why() {
        return problems.isEmpty() ? "no replica to ask" : String.join("; ", problems);
    }
}
