package geoblocks.blockstore.core;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Output commit for writes that share one sync (group commit): nothing that could reveal a write
 * (a message, a block deletion) leaves before the write is durable. Each write has a sequence
 * number; an event offered while writes up to {@code n} are not yet synced is held, in order
 * behind every event held before it, and released once a sync covering {@code n} completes. At
 * most one sync runs at a time; the next one covers every write made while it ran. Pure: the
 * owner runs the syncs and says when they end. Not thread-safe: one component owns it.
 */
public final class OutputGate<E> {
    private record Held<E>(long seq, E event) {}

    private final ArrayDeque<Held<E>> held = new ArrayDeque<>();
    private final Consumer<E> out;
    private long synced;
    /** The write count a running sync will cover, or -1 when none runs. */
    private long syncing = -1;
    private long syncs;
    private long maxHeld;

    public OutputGate(Consumer<E> out) {
        this.out = out;
    }

    /**
     * Sends {@code event} now when every write up to {@code writes} is durable and nothing is held,
     * else holds it. Returns true when the owner must start a sync covering {@code writes} now
     * (then it calls {@link #synced} when it ends).
     */
    public boolean offer(E event, long writes) {
        if (held.isEmpty() && writes <= synced) {
            out.accept(event);
            return false;
        }
        held.add(new Held<>(writes, event));
        maxHeld = Math.max(maxHeld, held.size());
        if (syncing < 0) {
            syncing = writes;
            return true;
        }
        return false;
    }

    /**
     * The sync started for {@link #syncCovers()} ended ({@code ok}); releases what it covers.
     * Returns the write count the owner must sync next (a new sync is due because events wait on
     * later writes), or -1 when none is due. After a failed sync nothing is released: the same
     * writes are synced again.
     */
    public long synced(boolean ok, long writesNow) {
        if (ok) {
            synced = Math.max(synced, syncing);
            syncs++;
            while (!held.isEmpty() && held.peek().seq() <= synced) {
                out.accept(held.poll().event());
            }
        }
        if (held.isEmpty()) {
            syncing = -1;
            return -1;
        }
        syncing = writesNow;
        return writesNow;
    }

    /** Every write up to this count is durable (covered by a sync that ended). */
    public long synced() {
        return synced;
    }

    /** The write count the running sync covers, or -1. */
    public long syncCovers() {
        return syncing;
    }

    /** Events waiting for a sync. */
    public int held() {
        return held.size();
    }

    /** Syncs completed (each covered every write made before it started). */
    public long syncs() {
        return syncs;
    }

    /** The most events ever held at once. */
    public long maxHeld() {
        return maxHeld;
    }
}
