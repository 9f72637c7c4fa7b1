package geoblocks.blockstore.core;

import geoblocks.blockstore.wire.FailureCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Backpressure on a node's transfer memory ({@link MemoryBudget}): client work that finds no
 * memory waits here, in order, instead of being refused at once.
 * <ul>
 *   <li>Every request takes a ticket when it arrives ({@link #ticket()}). Waiting requests are
 *       admitted strictly in ticket order as memory frees ({@link #pump}): a large request at the
 *       head is never overtaken by smaller ones behind it, and a running request that must wait
 *       again (its ticket is older) goes before every newer one.
 *   <li>A request waits at most {@code maxWaitNanos}: {@link #expire} refuses it after that. At
 *       most {@code maxQueued} wait; one more, or one that needs more than the share, is refused at once.
 *   <li>Client work (uploads and downloads this node coordinates, and background work, which
 *       yields to them) may hold at most {@link #limit()}: three quarters of the budget. The last
 *       quarter is kept for work this node does for its peers (incoming replicas and manifests,
 *       reserved in the budget directly), which finishes without waiting for anything else: two
 *       nodes whose clients fill both budgets still store each other's replicas, so their uploads
 *       finish and free memory instead of waiting on each other.
 *   <li>{@link #tryReserve} (a running request that wants more, background work) succeeds only
 *       while nobody waits, so freed memory goes to the oldest waiter first.
 * </ul>
 * Every waiter hears exactly one of {@link Waiter#admitted} and {@link Waiter#refused}, unless it
 * is {@link #cancel cancelled}. Time is passed in. Not thread-safe: one component owns it.
 */
public final class AdmissionQueue implements TransferMemory {
    /** A request waiting for memory. */
    public interface Waiter {
        /** Its bytes are reserved: the request goes on (and releases them later). */
        void admitted();

        /**
         * It was refused: {@link FailureCode#BUSY} ({@code why} starts with "node busy"; retry later), or
         * {@link FailureCode#INVALID} when it needs more than client work may ever hold.
         */
        void refused(FailureCode code, String why);
    }

    /** What {@link #admit} did; the waiter has been called for ADMITTED and REFUSED. */
    public enum Outcome { ADMITTED, QUEUED, REFUSED }

    /** Counters for the operator (since start) and the queue now. */
    public record Stats(long admittedAtOnce, long admittedAfterWait, long waitedNanos, long maxWaitedNanos,
            long refusedTimeout, long refusedFull, long refusedTooLarge, int waiting, long waitingBytes) {}

    private record Entry(long bytes, long since, Waiter waiter) {}

    private final MemoryBudget budget;
    private final long limit;
    private final long maxWaitNanos;
    private final int maxQueued;
    private final TreeMap<Long, Entry> waiting = new TreeMap<>();
    private long nextTicket = 1;
    private long waitingBytes;
    private long admittedAtOnce;
    private long admittedAfterWait;
    private long waitedNanos;
    private long maxWaitedNanos;
    private long refusedTimeout;
    private long refusedFull;
    private long refusedTooLarge;

    public AdmissionQueue(MemoryBudget budget, long maxWaitNanos, int maxQueued) {
        if (maxWaitNanos < 0) {
            throw new IllegalArgumentException("admission wait must be >= 0, was " + maxWaitNanos + " ns");
        }
        if (maxQueued < 0) {
            throw new IllegalArgumentException("admission queue must hold >= 0 requests, was " + maxQueued);
        }
        this.budget = budget;
        this.limit = budget.capacity() / 4 * 3;
        this.maxWaitNanos = maxWaitNanos;
        this.maxQueued = maxQueued;
    }

    /** A new request's place in line (increasing). */
    public long ticket() {
        return nextTicket++;
    }

    /** Bytes client work may hold: three quarters of the budget. */
    public long limit() {
        return limit;
    }

    /**
     * Reserves {@code bytes} for the request holding {@code ticket} now, when no older request waits
     * and they fit, and calls {@link Waiter#admitted}; else queues it (until {@link #pump} admits it
     * or {@link #expire} refuses it), or refuses it at once (calling {@link Waiter#refused}) when
     * the queue is full or the bytes can never fit.
     */
    public Outcome admit(long ticket, long bytes, long now, Waiter waiter) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot admit " + bytes + " bytes");
        }
        if (ticket < 1 || ticket >= nextTicket || waiting.containsKey(ticket)) {
            throw new IllegalStateException("ticket " + ticket + " was not handed out or already waits");
        }
        if (bytes > limit) {
            refusedTooLarge++;
            waiter.refused(FailureCode.INVALID, "a request needing " + bytes + " bytes of transfer memory can never be admitted: client work may hold "
                    + limit + " bytes (three quarters of geoblocks.node.memory-budget)");
            return Outcome.REFUSED;
        }
        if ((waiting.isEmpty() || waiting.firstKey() > ticket) && fits(bytes)) {
            budget.tryReserve(bytes);
            admittedAtOnce++;
            waiter.admitted();
            return Outcome.ADMITTED;
        }
        if (waiting.size() >= maxQueued) {
            refusedFull++;
            waiter.refused(FailureCode.BUSY, budget.busy(bytes).replace("; retry later", "") + " and " + waiting.size()
                    + " requests already wait for it (geoblocks.node.admission.queue); retry later");
            return Outcome.REFUSED;
        }
        waiting.put(ticket, new Entry(bytes, now, waiter));
        waitingBytes += bytes;
        return Outcome.QUEUED;
    }

    /** Admits waiting requests in ticket order while the oldest one's bytes fit; returns how many. */
    public int pump(long now) {
        int admitted = 0;
        while (!waiting.isEmpty() && fits(waiting.firstEntry().getValue().bytes)) {
            Entry e = waiting.pollFirstEntry().getValue();
            waitingBytes -= e.bytes;
            budget.tryReserve(e.bytes);
            long waited = Math.max(0, now - e.since);
            admittedAfterWait++;
            waitedNanos += waited;
            maxWaitedNanos = Math.max(maxWaitedNanos, waited);
            admitted++;
            e.waiter.admitted();
        }
        return admitted;
    }

    /** Refuses every request that has waited longer than the maximum; returns how many. */
    public int expire(long now) {
        // tickets, not the map's entries: removing a TreeMap node can move another key's mapping into
        // it, so a held Map.Entry may name a different request after an earlier removal
        List<Long> late = new ArrayList<>();
        for (Map.Entry<Long, Entry> e : waiting.entrySet()) {
            if (now - e.getValue().since > maxWaitNanos) {
                late.add(e.getKey());
            }
        }
        int refused = 0;
        for (long ticket : late) {
            Entry w = waiting.remove(ticket);
            if (w == null) {
                continue; // cancelled by an earlier refusal's waiter
            }
            refused++;
            waitingBytes -= w.bytes;
            refusedTimeout++;
            waitedNanos += now - w.since;
            w.waiter.refused(FailureCode.BUSY, budget.busy(w.bytes).replace("; retry later", "") + " after waiting "
                    + (now - w.since) / 1_000_000 + " ms in the admission queue (geoblocks.node.admission.wait); retry later");
        }
        return refused;
    }

    /** Forgets the waiting request of {@code ticket}, if any (it ended otherwise); its waiter is not called. */
    public void cancel(long ticket) {
        Entry e = waiting.remove(ticket);
        if (e != null) {
            waitingBytes -= e.bytes;
        }
    }

    /** True when any request waits. */
    public boolean anyWaiting() {
        return !waiting.isEmpty();
    }

    /** True when the request of {@code ticket} waits. */
    public boolean waits(long ticket) {
        return waiting.containsKey(ticket);
    }

    /** Reserves {@code bytes} when nobody waits and they fit in the share (running or background work wanting more). */
    @Override
    public boolean tryReserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
        }
        return waiting.isEmpty() && fits(bytes) && budget.tryReserve(bytes);
    }

    @Override
    public void release(long bytes) {
        budget.release(bytes);
    }

    @Override
    public String busy(long wanted) {
        return budget.busy(wanted);
    }

    public Stats stats() {
        return new Stats(admittedAtOnce, admittedAfterWait, waitedNanos, maxWaitedNanos, refusedTimeout, refusedFull,
                refusedTooLarge, waiting.size(), waitingBytes);
    }

    private boolean fits(long bytes) {
        return bytes <= limit - budget.used();
    }
}
