package geoblocks.blockstore.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The replica copies a coordinator still owes after a put acknowledged with {@code --ack local}:
 * one {@link Copy} per (file, block, target region). Decides what to send next: entries in the
 * order they were queued, at most {@code maxInFlight} at once, never to a target that is down,
 * and after a failure not before an exponential backoff ({@code base} doubling per failed attempt,
 * capped at {@code cap}). An entry leaves the queue only through {@link #succeeded} (the target
 * confirmed the copy durable) or {@link #remove} (the copy is no longer wanted: the file was
 * deleted or the manifest no longer names the target); a failure only delays it. Pure: time comes
 * from the injected clock (nanoseconds), nothing here does I/O.
 */
public final class ReplicationQueue {
    /** One copy owed: block {@code block} of file {@code name} (id {@code fileId}) to region {@code target}. */
    public record Copy(String name, String fileId, int block, String target) {
        public Copy {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(fileId, "fileId");
            Objects.requireNonNull(target, "target");
            if (block < 0) {
                throw new IllegalArgumentException("block index must not be negative, was " + block);
            }
        }

        public BlockId blockId() {
            return BlockId.ofFileBlock(fileId, block);
        }
    }

    private static final class State {
        int failures;
        long notBefore;
        boolean inFlight;
    }

    private final int maxInFlight;
    private final long baseBackoffNanos;
    private final long capBackoffNanos;
    private final LongSupplier clock;
    private final LinkedHashMap<Copy, State> entries = new LinkedHashMap<>();
    private int inFlight;

    public ReplicationQueue(int maxInFlight, long baseBackoffNanos, long capBackoffNanos, LongSupplier clock) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("replication in-flight limit must be >= 1, was " + maxInFlight);
        }
        if (baseBackoffNanos <= 0 || capBackoffNanos < baseBackoffNanos) {
            throw new IllegalArgumentException("replication backoff must be > 0 and its cap >= it, were "
                    + baseBackoffNanos + " and " + capBackoffNanos + " ns");
        }
        this.maxInFlight = maxInFlight;
        this.baseBackoffNanos = baseBackoffNanos;
        this.capBackoffNanos = capBackoffNanos;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Queues {@code copies} (ready at once); a copy already queued keeps its state. */
    public void add(List<Copy> copies) {
        for (Copy c : copies) {
            entries.putIfAbsent(c, new State());
        }
    }

    /**
     * The copies to start now, marked in flight: queued order, up to the in-flight limit, skipping
     * targets for which {@code up} is false and copies still backing off.
     */
    public List<Copy> next(Predicate<String> up) {
        List<Copy> out = new ArrayList<>();
        long now = clock.getAsLong();
        for (Map.Entry<Copy, State> e : entries.entrySet()) {
            if (inFlight == maxInFlight) {
                break;
            }
            State s = e.getValue();
            if (!s.inFlight && now - s.notBefore >= 0 && up.test(e.getKey().target())) {
                s.inFlight = true;
                inFlight++;
                out.add(e.getKey());
            }
        }
        return out;
    }

    /** The target confirmed {@code c} durable: it leaves the queue. */
    public void succeeded(Copy c) {
        State s = entries.remove(c);
        if (s != null && s.inFlight) {
            inFlight--;
        }
    }

    /** The attempt failed: {@code c} stays queued and waits its backoff; returns that wait in nanoseconds. */
    public long failed(Copy c) {
        State s = entries.get(c);
        if (s == null) {
            throw new IllegalStateException("copy " + c + " is not queued");
        }
        if (s.inFlight) {
            s.inFlight = false;
            inFlight--;
        }
        s.failures++;
        long wait = backoff(s.failures);
        s.notBefore = clock.getAsLong() + wait;
        return wait;
    }

    /** {@code base * 2^(failures-1)}, at most the cap. */
    long backoff(int failures) {
        int shift = Math.min(failures - 1, 40);
        long b = baseBackoffNanos << shift;
        return b <= 0 || b > capBackoffNanos || (b >> shift) != baseBackoffNanos ? capBackoffNanos : b;
    }

    /** The copy is no longer wanted (file deleted, target replaced): it leaves the queue. */
    public void remove(Copy c) {
        succeeded(c);
    }

    /** Failed attempts of {@code c} so far (0 when not queued). */
    public int failures(Copy c) {
        State s = entries.get(c);
        return s == null ? 0 : s.failures;
    }

    /** Pending target regions of file {@code name} (with id {@code fileId}), by block index. */
    public Map<Integer, List<String>> pending(String name, String fileId) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (Copy c : entries.keySet()) {
            if (c.name().equals(name) && c.fileId().equals(fileId)) {
                out.computeIfAbsent(c.block(), k -> new ArrayList<>()).add(c.target());
            }
        }
        return out;
    }

    /** True when a copy of a block of {@code fileId} is still owed (waiting or under way). */
    public boolean owes(String fileId) {
        for (Copy c : entries.keySet()) {
            if (c.fileId().equals(fileId)) {
                return true;
            }
        }
        return false;
    }

    /** Every queued copy, in queue order (what is persisted). */
    public List<Copy> copies() {
        return List.copyOf(entries.keySet());
    }

    public int size() {
        return entries.size();
    }

    public int inFlight() {
        return inFlight;
    }
}
