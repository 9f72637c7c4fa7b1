package geoblocks.app.load;

import geoblocks.blockstore.wire.FailureCode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;

/**
 * What the load threads did, thread-safe: per operation the requests that succeeded, failed or
 * returned wrong bytes, the bytes moved, and latency histograms (HdrHistogram, microseconds, 3
 * significant digits) overall and per file size. Latencies are of requests that started after the
 * warm-up; counts "in the window" only requests that ended between the warm-up and the deadline,
 * so rates divide by the measured duration exactly.
 */
final class LoadStats {
    enum Op { READ, WRITE }

    /** Counters of one operation. */
    static final class OpStats {
        final LongAdder ok = new LongAdder();
        final LongAdder failed = new LongAdder();
        /** Failed requests a node refused as busy (out of transfer memory, after its admission queue). */
        final LongAdder refused = new LongAdder();
        final LongAdder corrupt = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final LongAdder okInWindow = new LongAdder();
        final LongAdder bytesInWindow = new LongAdder();
        final LongAdder okAfterKill = new LongAdder();
        final Histogram latency = histogram();
        final Map<Long, Histogram> bySize = new LinkedHashMap<>();
    }

    /** One kind of failure: how often, and one full message as an example. */
    record Failure(String kind, long count, String example) {}

    private final Map<Op, OpStats> ops = new LinkedHashMap<>();
    private final Map<String, LongAdder> failureCounts = new ConcurrentHashMap<>();
    /** Requests sent again to another region after they failed as UNAVAILABLE (--failover). */
    final LongAdder failovers = new LongAdder();
    private final Map<String, String> failureExamples = new ConcurrentHashMap<>();
    private final AtomicLong killAtNanos = new AtomicLong(Long.MAX_VALUE);
    private volatile long windowStartNanos = Long.MIN_VALUE;
    private volatile long windowEndNanos = Long.MAX_VALUE;

    LoadStats(List<Long> sizes) {
        for (Op op : Op.values()) {
            OpStats s = new OpStats();
            sizes.stream().sorted().forEach(size -> s.bySize.put(size, histogram()));
            ops.put(op, s);
        }
    }

    private static Histogram histogram() {
        return new SynchronizedHistogram(3_600_000_000L, 3);
    }

    /** Measures from {@code startNanos} (after the warm-up) to {@code endNanos} (the deadline). */
    void window(long startNanos, long endNanos) {
        windowStartNanos = startNanos;
        windowEndNanos = endNanos;
    }

    OpStats of(Op op) {
        return ops.get(op);
    }

    /** From now on, successful requests that start count as "after the kill". */
    void killedAt(long nanos) {
        killAtNanos.set(nanos);
    }

    boolean killed() {
        return killAtNanos.get() != Long.MAX_VALUE;
    }

    /**
     * A successful request: counted always; its latency only when it started after the warm-up,
     * and into the rates only when it ended inside the measured window.
     */
    void ok(Op op, long size, long startNanos, long endNanos) {
        OpStats s = ops.get(op);
        s.ok.increment();
        s.bytes.add(size);
        if (startNanos >= windowStartNanos) {
            long micros = Math.max(1, (endNanos - startNanos) / 1000);
            s.latency.recordValue(micros);
            Histogram h = s.bySize.get(size);
            if (h != null) {
                h.recordValue(micros);
            }
        }
        if (endNanos >= windowStartNanos && endNanos <= windowEndNanos) {
            s.okInWindow.increment();
            s.bytesInWindow.add(size);
        }
        if (startNanos >= killAtNanos.get()) {
            s.okAfterKill.increment();
        }
    }

    /** A failed request; {@code code}: the node's failure code, null for a local failure (I/O, timeout). */
    void failed(Op op, String error, FailureCode code) {
        ops.get(op).failed.increment();
        if (code == FailureCode.BUSY) {
            ops.get(op).refused.increment();
        }
        String kind = op + ": " + (error == null ? "?" : error.replaceAll("load-[a-z0-9]+-\\d+", "NAME")
                .replaceAll("\\d+", "#"));
        failureCounts.computeIfAbsent(kind, k -> new LongAdder()).increment();
        failureExamples.putIfAbsent(kind, error == null ? "?" : error);
    }

    void corrupt(Op op) {
        ops.get(op).corrupt.increment();
    }

    long total(Function<OpStats, LongAdder> counter) {
        return ops.values().stream().mapToLong(s -> counter.apply(s).sum()).sum();
    }

    /** The kinds of failure seen, most frequent first. */
    List<Failure> failures() {
        return failureCounts.entrySet().stream()
                .map(e -> new Failure(e.getKey(), e.getValue().sum(), failureExamples.get(e.getKey())))
                .sorted(Comparator.comparingLong(Failure::count).reversed())
                .collect(Collectors.toList());
    }
}
