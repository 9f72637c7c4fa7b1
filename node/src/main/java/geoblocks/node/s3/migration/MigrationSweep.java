package geoblocks.node.s3.migration;

import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.wire.ClientOp.ListEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Which DataBridge migrations this node (re)starts, so that an object it stored away from its
 * bucket's home ends there whatever fails on the way. Pure: time comes from an injected clock (ms),
 * no I/O, no threads of its own; its methods are synchronized, as moves end on Kompics threads and
 * sweeps run on the common pool.
 *
 * <p>Invariants: at most one move per name is running ({@link #begin} refuses a second); only the
 * node whose region stored the object ({@code stored_at}) moves it, so two nodes never race; an
 * object is moved again only after a back-off that starts at {@code minBackoffMs} after its first
 * failure and doubles with each further one up to {@code maxBackoffMs}.
 *
 * <p>A sweep runs in two steps. {@link #toCheck} takes the node's listing (its live versions, with
 * metadata; a {@link Pass} takes it one page at a time) and names the objects worth a stat: those stored here with {@code migrate-to}, not
 * moving, past their back-off and not already known done; it forgets every name no longer listed
 * that way (deleted, or a newer version that was not stored away from home). {@link #start} then
 * takes one object's manifest (its stat) and decides whether to move it now, and where to.
 * "Done" is {@link PendingMigration#done}; a version known done is remembered by its name and
 * creation time (milliseconds), so the next sweeps do not stat it again. A sweep keeps the moves
 * running at {@link #MOVES_AT_ONCE} at most (a node restarted with many unfinished migrations starts
 * them a few at a time); an upload's own move is not held back by that.
 */
public final class MigrationSweep {
    /** Moves a sweep lets run at once (its own and uploads' together). */
    static final int MOVES_AT_ONCE = 8;
    private record Failures(int count, long lastMs) {}

    private final String region;
    private final LongSupplier clock;
    private final long minBackoffMs;
    private final long maxBackoffMs;
    private final Set<String> moving = new HashSet<>();
    private final Map<String, Failures> failures = new HashMap<>();
    private final Map<String, Long> done = new HashMap<>();
    /** Whether the next sweep must walk the listing (see {@link #walkDue}). */
    private boolean walkDue = true;

    public MigrationSweep(String region, LongSupplier clock, long minBackoffMs, long maxBackoffMs) {
        if (minBackoffMs <= 0 || maxBackoffMs < minBackoffMs) {
            throw new IllegalArgumentException("migration back-off must be 0 < min <= max, was min " + minBackoffMs
                    + " ms, max " + maxBackoffMs + " ms");
        }
        this.region = region;
        this.clock = clock;
        this.minBackoffMs = minBackoffMs;
        this.maxBackoffMs = maxBackoffMs;
    }

    /**
     * Whether a sweep has anything to find by walking the listing: the first sweep after a start
     * does (unfinished migrations of an earlier run), and later ones only while a failed move waits
     * for its retry, or the last walk (or a start) left a pending object unstarted because
     * {@link #MOVES_AT_ONCE} moves were running. Otherwise every object stored here to be moved is
     * in an upload's own move, whose end either needs nothing more or is a failure (which makes a walk
     * due): an idle node does not list every name every interval.
     */
    synchronized boolean walkDue() {
        return walkDue || !failures.isEmpty();
    }

    /** The wait after {@code n} >= 1 failed moves: min, 2 min, 4 min ... capped at max. */
    synchronized long backoffMs(int n) {
        long d = minBackoffMs;
        for (int i = 1; i < n && d < maxBackoffMs; i++) {
            d *= 2;
        }
        return Math.min(d, maxBackoffMs);
    }

    /**
     * A new version of {@code name} was stored here to be moved (the upload's own move): its failures
     * and done mark are those of an older version and are dropped. True when the caller may move it
     * now; false while a move of the name is still running (a sweep starts this one after it ends).
     */
    synchronized boolean beginNew(String name) {
        failures.remove(name);
        done.remove(name);
        return begin(name);
    }

    /** Marks a move of {@code name} running; false (and nothing changes) when one already is. */
    synchronized boolean begin(String name) {
        return moving.add(name);
    }

    /** The move of {@code name} succeeded. */
    synchronized void succeeded(String name) {
        moving.remove(name);
        failures.remove(name);
    }

    /** The move of {@code name} failed: the next one waits for the back-off. */
    synchronized void failed(String name) {
        moving.remove(name);
        Failures f = failures.get(name);
        failures.put(name, new Failures(f == null ? 1 : f.count() + 1, clock.getAsLong()));
    }

    /** The move of {@code name} ended because the version is gone (a newer one, or deleted): nothing to retry. */
    synchronized void ended(String name) {
        moving.remove(name);
        failures.remove(name);
    }

    /** Failed moves of {@code name} since its last success (0 when none). */
    synchronized int failures(String name) {
        Failures f = failures.get(name);
        return f == null ? 0 : f.count();
    }

    /** When the next move of {@code name} may start (ms; now or earlier when it may at once). */
    synchronized long nextAttemptMs(String name) {
        Failures f = failures.get(name);
        return f == null ? Long.MIN_VALUE : f.lastMs() + backoffMs(f.count());
    }

    /**
     * The names of {@code listing} (all of this node's live versions) to stat this sweep, in listing
     * order; forgets failures and done marks of names the listing no longer shows as stored here with
     * {@code migrate-to}. A sweep over a long listing uses a {@link Pass} instead, one page at a time.
     */
    synchronized List<String> toCheck(List<ListEntry> listing) {
        Pass pass = pass();
        List<String> out = pass.toCheck(listing);
        pass.end();
        return out;
    }

    /** A sweep's walk over the node's listing, page by page (so the listing is never held whole). */
    synchronized Pass pass() {
        return new Pass(clock.getAsLong());
    }

    /**
     * One sweep's walk: {@link #toCheck} per page, in listing order, the stats of one page answered
     * (and their moves started) before the next page is read; {@link #end} once the last page was
     * seen forgets the names the whole listing no longer shows as pending here (a walk that fails
     * half-way forgets nothing).
     */
    final class Pass {
        private final long now;
        private final Set<String> pending = new HashSet<>();
        /** A pending object this walk left unstarted (the cap): the next sweep walks again. */
        private boolean deferred;

        private Pass(long now) {
            this.now = now;
        }

        /** The names of {@code page} (live versions) to stat now, within {@link #MOVES_AT_ONCE} moves at once. */
        List<String> toCheck(List<ListEntry> page) {
            synchronized (MigrationSweep.this) {
                List<String> out = new ArrayList<>();
                for (ListEntry e : page) {
                    if (!e.meta().containsKey(PendingMigration.META) || !region.equals(e.uploadedAt())) {
                        continue;
                    }
                    pending.add(e.name());
                    Long doneAt = done.get(e.name());
                    if (doneAt != null && doneAt == e.createdMillis()) {
                        continue;
                    }
                    if (!moving.contains(e.name()) && now >= nextAttemptMs(e.name())) {
                        if (moving.size() + out.size() < MOVES_AT_ONCE) {
                            out.add(e.name());
                        } else {
                            deferred = true;
                        }
                    }
                }
                return out;
            }
        }

        /** The walk saw the whole listing: forget what it did not show as pending here. */
        void end() {
            synchronized (MigrationSweep.this) {
                failures.keySet().retainAll(pending);
                done.keySet().retainAll(pending);
                walkDue = deferred;
            }
        }
    }

    /**
     * Whether to move the object whose current version is {@code m} now; if so the move is marked
     * running (report its end with {@link #succeeded}, {@link #failed} or {@link #ended}) and the
     * answer is the regions to move it to.
     */
    synchronized Optional<List<String>> start(Manifest m) {
        Optional<PendingMigration> p = PendingMigration.of(m);
        if (p.isEmpty() || !p.get().storedAt().equals(region)) {
            return Optional.empty();
        }
        if (p.get().done()) {
            done.put(m.name(), m.createdMillis());
            failures.remove(m.name());
            return Optional.empty();
        }
        if (clock.getAsLong() < nextAttemptMs(m.name())) {
            return Optional.empty();
        }
        if (moving.contains(m.name())) {
            return Optional.empty(); // its move ends in success, or in a failure that makes a walk due
        }
        if (moving.size() >= MOVES_AT_ONCE) {
            walkDue = true; // pending and not started: a later walk starts it
            return Optional.empty();
        }
        begin(m.name());
        return Optional.of(p.get().to());
    }
}
