package geoblocks.blockstore.core.read;

import geoblocks.blockstore.core.RttTable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What this node has measured of its block fetches, per replica region: a time-aware EWMA of the
 * time to the first byte (request sent to first block data back: the RTT plus the replica's queue
 * and read time) and the last {@code window} complete fetch times with their block sizes. Two uses:
 * <ul>
 *   <li>{@link #rank}: replicas ordered by measured service latency, in the spirit of Cassandra's
 *       dynamic snitch. A region's score is its RTT (0 for this node) plus the excess of its EWMA
 *       over the RTT, halved every {@code halfLife} since its last sample; a region never measured
 *       scores its RTT. So an overloaded near replica, whose queue delays its first byte, drops
 *       behind a farther idle one, and returns to the front once its excess has decayed below the
 *       difference in RTT, is read again and measured afresh (the snitch's reset, sooner for a
 *       mildly loaded replica than for a badly loaded one). Ties go to the lower RTT, then the id.
 *   <li>{@link #hedgeDelayNanos}: {@link #HEDGE_FACTOR} times the region's median fetch time over its last
 *       {@code window} samples of blocks of the same size class (sizes in the same (2^(k-1), 2^k] bytes): the
 *       fast mode, which a burst in a fifth of the fetches does not move (the p95 used before lay inside
 *       the burst, so the hedge went out too late to help); with fewer than
 *       {@link #MIN_SAMPLES} of them, a guess: twice the region's RTT, plus 50 ms, plus 100 ms per MB
 *       of the block (the score is not used: a loaded region's inflated score would put the hedge off
 *       exactly when it is needed).
 * </ul>
 * A cancelled fetch (another replica won) counts as a fetch time equal to the time it had taken (a
 * lower bound), so the median is not computed over the winners only. The EWMA weighs a new sample by {@code alpha}, more after a pause (the old value's weight
 * {@code 1 - alpha} halves every half-life). A failed fetch counts as a first byte after the time it
 * took (it pushes the score up). Time is passed in (nanoseconds). Not thread-safe: one component
 * owns it.
 */
public final class ServiceLatency {
    /** Samples of one size class needed before the median replaces the guess. */
    public static final int MIN_SAMPLES = 8;
    /**
     * The hedge goes out after this many medians of the region's fetch time for the block's size class (chosen with
     * {@code simulate hedged-reads}: 1.25 puts hedged's p99 below first's at every size at both think times,
     * 1.5 not at 10 MB with a 15 s think time; docs/reads.md).
     */
    static final double HEDGE_FACTOR = 1.25;
    private static final long GUESS_EXTRA_NANOS = 50_000_000L;
    /** The guess's transfer time: 100 ms per MB (10 MB/s). */
    private static final long GUESS_NANOS_PER_BYTE = 100;

    private final double alpha;
    private final int window;
    private final long halfLifeNanos;
    private final Map<String, Region> regions = new HashMap<>();

    private static final class Region {
        double ewmaNanos = Double.NaN;
        long lastNanos;
        final Deque<long[]> fetches = new ArrayDeque<>(); // {sizeClass, nanos}
    }

    /**
     * @param alpha weight of a new sample in the EWMA (0..1]
     * @param window complete fetches kept per region for the median
     * @param halfLifeNanos how fast a region's excess over its RTT (and the EWMA's memory) fades
     */
    public ServiceLatency(double alpha, int window, long halfLifeNanos) {
        if (!(alpha > 0 && alpha <= 1) || window < 1 || halfLifeNanos <= 0) {
            throw new IllegalArgumentException("service latency needs 0 < alpha <= 1, window >= 1 and half-life > 0,"
                    + " were " + alpha + ", " + window + ", " + halfLifeNanos);
        }
        this.alpha = alpha;
        this.window = window;
        this.halfLifeNanos = halfLifeNanos;
    }

    /** EWMA weight 0.25, 64 fetches per region, half-life 5 s. */
    public static ServiceLatency defaults() {
        return new ServiceLatency(0.25, 64, 5_000_000_000L);
    }

    private double fade(long age) {
        return Math.pow(0.5, Math.max(0, age) / (double) halfLifeNanos);
    }

    /** The first byte of a fetch from {@code region} came {@code nanos} after its request (at {@code now}). */
    public void firstByte(String region, long nanos, long now) {
        Region r = regions.computeIfAbsent(region, k -> new Region());
        if (Double.isNaN(r.ewmaNanos)) {
            r.ewmaNanos = nanos;
        } else {
            double keep = (1 - alpha) * fade(now - r.lastNanos);
            r.ewmaNanos = keep * r.ewmaNanos + (1 - keep) * nanos;
        }
        r.lastNanos = now;
    }

    /** A fetch of {@code bytes} from {@code region} completed {@code nanos} after its request. */
    public void completed(String region, int bytes, long nanos, long now) {
        Region r = regions.computeIfAbsent(region, k -> new Region());
        r.fetches.addLast(new long[] {sizeClass(bytes), nanos});
        while (r.fetches.size() > window) {
            r.fetches.removeFirst();
        }
    }

    /**
     * A fetch of {@code bytes} from {@code region} was cancelled {@code nanos} after its request, another
     * replica having delivered first: kept as a fetch time, a lower bound of what it would have taken.
     * Without it the p95 would be computed over the fetches that won only, and fall with every hedge.
     */
    public void cancelled(String region, int bytes, long nanos, long now) {
        completed(region, bytes, nanos, now);
    }

    /** A fetch from {@code region} failed after {@code nanos}: counted as a (late) first byte. */
    public void failed(String region, long nanos, long now) {
        firstByte(region, nanos, now);
    }

    /** The region's score in ms (see the class comment); its RTT when never measured, MAX when down. */
    public double scoreMs(String region, RttTable rtt, long now) {
        double base = rtt.rttMs(region).orElse(Double.MAX_VALUE);
        Region r = regions.get(region);
        if (r == null || Double.isNaN(r.ewmaNanos) || base == Double.MAX_VALUE) {
            return base;
        }
        return base + (r.ewmaNanos / 1e6 - base) * fade(now - r.lastNanos);
    }

    /** {@code replicas} best first by {@link #scoreMs}; ties to the lower RTT, then the id. */
    public List<String> rank(List<String> replicas, RttTable rtt, long now) {
        List<String> out = new ArrayList<>(replicas);
        Map<String, Double> score = new HashMap<>();
        out.forEach(r -> score.put(r, scoreMs(r, rtt, now)));
        out.sort(Comparator.comparingDouble((String r) -> score.get(r))
                .thenComparingDouble(r -> rtt.rttMs(r).orElse(Double.MAX_VALUE)).thenComparing(r -> r));
        return out;
    }

    /** How long to wait on {@code region} for a block of {@code bytes} before hedging (see the class comment). */
    public long hedgeDelayNanos(String region, int bytes, RttTable rtt, long now) {
        Region r = regions.get(region);
        if (r != null) {
            long cls = sizeClass(bytes);
            long[] same = r.fetches.stream().filter(f -> f[0] == cls).mapToLong(f -> f[1]).sorted().toArray();
            if (same.length >= MIN_SAMPLES) {
                // the fast mode: the median times a factor, which a burst in a fifth of the fetches does not move
                // (the p95 it replaced lay inside the burst, so the hedge went out too late to help)
                long median = same[(same.length - 1) / 2];
                return (long) (median * HEDGE_FACTOR);
            }
        }
        double rttMs = rtt.rttMs(region).orElse(1e6);
        return (long) (2e6 * Math.min(rttMs, 1e6)) + GUESS_EXTRA_NANOS + bytes * GUESS_NANOS_PER_BYTE;
    }

    /** Blocks of (2^(k-1), 2^k] bytes share class k: a full 1 MiB block and a shorter last block of over 512 KiB. */
    static long sizeClass(int bytes) {
        return 32 - Integer.numberOfLeadingZeros(Math.max(1, bytes) - 1);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ServiceLatency(");
        regions.forEach((k, v) -> s.append(k).append('=').append(Arrays.toString(new double[] {v.ewmaNanos / 1e6})));
        return s.append(')').toString();
    }
}
