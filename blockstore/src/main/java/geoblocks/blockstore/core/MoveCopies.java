package geoblocks.blockstore.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The copy schedule of one move of a file's replicas ({@code client move}, a drain): which block
 * copies start now, what a failed copy leads to, and when the client is due a progress heartbeat.
 * At most {@link #PARALLEL} copies are in flight; a failed copy goes to the back of the queue until
 * it has failed {@link #ATTEMPTS} times, then the move stops starting copies and ends once those in
 * flight have. The client hears progress after every copy and at least every
 * {@link #HEARTBEAT_NANOS}, so its deadline never passes during a long move. Pure: the caller
 * passes the time ({@code now}, nanoseconds) and makes the copies.
 *
 * @param <C> a copy (e.g. {@link MovePlan.Copy}); equal copies are the same copy
 */
public final class MoveCopies<C> {
    /** Block copies in flight per move. */
    public static final int PARALLEL = 4;
    /** Attempts per block copy before the move fails. */
    public static final int ATTEMPTS = 3;
    /** The client hears progress at least this often. */
    public static final long HEARTBEAT_NANOS = 2_000_000_000L;

    /** Where a move stands. */
    public enum State {
        /** Copies are queued or in flight. */
        RUNNING,
        /** Every copy succeeded and none is in flight: the move may commit. */
        COPIED,
        /** A copy failed its last attempt (or the move was stopped) and none is in flight: the move ends unchanged. */
        FAILED
    }

    private final ArrayDeque<C> todo;
    private final Map<C, Integer> failures = new HashMap<>();
    private final int total;
    private int inFlight;
    private int done;
    private long movedBytes;
    private long lastProgress;
    private boolean stopped;

    /** The schedule of {@code copies}, in that order, starting at {@code now}. */
    public MoveCopies(List<C> copies, long now) {
        this.todo = new ArrayDeque<>(copies);
        this.total = copies.size();
        this.lastProgress = now;
    }

    /** The copies to start now (counted in flight): up to {@link #PARALLEL} in flight, none once stopped. */
    public List<C> start() {
        List<C> out = new ArrayList<>();
        while (!stopped && inFlight < PARALLEL && !todo.isEmpty()) {
            out.add(todo.poll());
            inFlight++;
        }
        return out;
    }

    /** Copy {@code c} of {@code bytes} succeeded at {@code now}: it counts as progress, which the client hears. */
    public void succeeded(C c, long bytes, long now) {
        finish(c);
        done++;
        movedBytes += bytes;
        lastProgress = now;
    }

    /**
     * Copy {@code c} failed: true when it is queued again, false when that was its last attempt
     * (the move stops starting copies). A failure after the move stopped is not queued again.
     */
    public boolean failed(C c) {
        finish(c);
        if (stopped) {
            return false;
        }
        if (failures.merge(c, 1, Integer::sum) < ATTEMPTS) {
            todo.add(c);
            return true;
        }
        stopped = true;
        return false;
    }

    /** The move will not finish (it failed otherwise): no more copies start. */
    public void stop() {
        stopped = true;
    }

    private void finish(C c) {
        if (inFlight <= 0) {
            throw new IllegalStateException("copy " + c + " finished, but none is in flight");
        }
        inFlight--;
    }

    /** Where the move stands. */
    public State state() {
        if (inFlight > 0 || (!stopped && !todo.isEmpty())) {
            return State.RUNNING;
        }
        return stopped ? State.FAILED : State.COPIED;
    }

    /** True when the client has heard nothing for more than {@link #HEARTBEAT_NANOS} at {@code now}. */
    public boolean heartbeatDue(long now) {
        return now - lastProgress > HEARTBEAT_NANOS;
    }

    /** The client heard the progress at {@code now}. */
    public void reported(long now) {
        lastProgress = now;
    }

    /** Block bytes copied so far. */
    public long movedBytes() {
        return movedBytes;
    }

    /** Copies that succeeded. */
    public int done() {
        return done;
    }

    /** Copies the move makes in all. */
    public int total() {
        return total;
    }

    /** Copies in flight now. */
    public int inFlight() {
        return inFlight;
    }

    /** Failed attempts of {@code c} so far. */
    public int failures(C c) {
        return failures.getOrDefault(c, 0);
    }
}
