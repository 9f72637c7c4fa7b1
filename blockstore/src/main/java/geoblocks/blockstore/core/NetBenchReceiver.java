package geoblocks.blockstore.core;

import java.util.HashMap;
import java.util.Map;

/**
 * What a peer counts of one bench test, without I/O: packets and bytes, each stream's cumulative
 * bytes (what a TCP bench acknowledges), the span from the first to the last arrival, and the
 * interarrival jitter of RFC 3550 section 6.4.1: for consecutive arrivals i-1, i with send times S
 * and arrival times R, D = (R_i - R_{i-1}) - (S_i - S_{i-1}) and J += (|D| - J) / 16. The
 * sender's and receiver's clocks need not agree: only differences enter. Not thread-safe.
 */
public final class NetBenchReceiver {
    private final Map<Integer, Long> streamBytes = new HashMap<>();
    private long packets;
    private long bytes;
    private long firstNanos;
    private long lastNanos;
    private long lastSent;
    private double jitter;

    /** A packet of {@code length} bytes of {@code stream}, sent at {@code sentNanos}, arrived at {@code nowNanos}; returns the stream's bytes so far. */
    public long arrived(int stream, int length, long sentNanos, long nowNanos) {
        if (packets == 0) {
            firstNanos = nowNanos;
        } else {
            long d = (nowNanos - lastNanos) - (sentNanos - lastSent);
            jitter += (Math.abs((double) d) - jitter) / 16.0;
        }
        packets++;
        bytes += length;
        lastNanos = nowNanos;
        lastSent = sentNanos;
        return streamBytes.merge(stream, (long) length, Long::sum);
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    public long jitterNanos() {
        return Math.round(jitter);
    }

    /** From the first arrival to the last; 0 before two arrivals. */
    public long spanNanos() {
        return packets < 2 ? 0 : lastNanos - firstNanos;
    }
}
