package geoblocks.blockstore.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Client requests a node has finished, counted by operation and result, with a latency histogram
 * per operation and the most recent requests. Latencies go into fixed cumulative-free buckets
 * ({@link #BOUNDS_SECONDS}, upper bounds in seconds, plus +Inf) so a snapshot can be exposed as a
 * Prometheus histogram. Invariant: for every operation, the bucket counts add up to the number of
 * requests recorded for it. Time is passed in; not thread-safe (one component owns it, readers get
 * immutable {@link Snapshot}s).
 */
public final class RequestStats {
    /** Upper bounds of the latency buckets, in seconds; the last bucket (+Inf) is implicit. */
    public static final List<Double> BOUNDS_SECONDS = List.of(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
            2.5, 5.0, 10.0, 30.0, 60.0);
    private final int recentLimit;
    private final Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
    private final Map<String, long[]> buckets = new LinkedHashMap<>();
    private final Map<String, Double> sums = new LinkedHashMap<>();
    private final ArrayDeque<Recent> recent = new ArrayDeque<>();

    public RequestStats(int recentLimit) {
        if (recentLimit < 0) {
            throw new IllegalArgumentException("recent limit must not be negative: " + recentLimit);
        }
        this.recentLimit = recentLimit;
    }

    /**
     * Records one finished request: {@code op} (e.g. "get"), {@code result} ("ok", "error", "busy",
     * "abandoned"), how long it took, when it ended (epoch ms, for the recent list), the file name
     * it named ("" for none) and the error text ("" on success).
     */
    public void record(String op, String result, long latencyNanos, long endMillis, String name, String error) {
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("latency must not be negative: " + latencyNanos);
        }
        counts.computeIfAbsent(op, o -> new LinkedHashMap<>()).merge(result, 1L, Long::sum);
        double seconds = latencyNanos / 1e9;
        long[] b = buckets.computeIfAbsent(op, o -> new long[BOUNDS_SECONDS.size() + 1]);
        b[bucketOf(seconds)]++;
        sums.merge(op, seconds, Double::sum);
        if (recentLimit > 0) {
            if (recent.size() == recentLimit) {
                recent.removeFirst();
            }
            recent.addLast(new Recent(endMillis, op, name, result, latencyNanos / 1_000_000.0, error));
        }
    }

    /** Index of the bucket holding {@code seconds}: the first bound it does not exceed, or +Inf. */
    static int bucketOf(double seconds) {
        for (int i = 0; i < BOUNDS_SECONDS.size(); i++) {
            if (seconds <= BOUNDS_SECONDS.get(i)) {
                return i;
            }
        }
        return BOUNDS_SECONDS.size();
    }

    public Snapshot snapshot() {
        Map<String, Map<String, Long>> c = new LinkedHashMap<>();
        counts.forEach((op, m) -> c.put(op, Map.copyOf(m)));
        Map<String, Histogram> h = new LinkedHashMap<>();
        buckets.forEach((op, b) -> h.put(op, new Histogram(toList(b), sums.get(op))));
        return new Snapshot(Map.copyOf(c), Map.copyOf(h), List.copyOf(new ArrayList<>(recent)));
    }

    private static List<Long> toList(long[] b) {
        List<Long> l = new ArrayList<>(b.length);
        for (long x : b) {
            l.add(x);
        }
        return List.copyOf(l);
    }

    /** One finished request, newest last in {@link Snapshot#recent()}; latency in ms. */
    public record Recent(long endMillis, String op, String name, String result, double latencyMs, String error) {}

    /** Per-bucket (not cumulative) counts, one more than {@link #BOUNDS_SECONDS} (+Inf last), and the sum in seconds. */
    public record Histogram(List<Long> counts, double sumSeconds) {
        public long count() {
            return counts.stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Requests by operation then result; latency per operation; the recent requests, oldest first. */
    public record Snapshot(Map<String, Map<String, Long>> counts, Map<String, Histogram> latency, List<Recent> recent) {
        public static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of(), List.of());
    }
}
