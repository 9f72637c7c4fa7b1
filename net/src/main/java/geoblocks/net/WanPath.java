package geoblocks.net;

import java.util.Random;

/**
 * One direction of one emulated WAN path (toward one peer, over one transport): decides when a
 * message handed to it now is delivered, or that it is lost. Pure: time is passed in, randomness
 * comes from the caller's seeded {@link Random}. Invariant: deliveries leave in the order they were
 * handed in (release times never decrease), as on one TCP connection or one FIFO route.
 *
 * <p>Every message waits the one-way delay (RTT / 2). With a loss rate {@code p} > 0 between two
 * different regions:
 * <ul>
 *   <li>a datagram (unreliable transport: UDP, LEDBAT) is dropped with probability {@code p}, so
 *       the protocol above sees the loss and recovers from it itself;</li>
 *   <li>a message on a reliable transport (TCP) is never dropped, since the kernel's TCP retransmits
 *       lost segments; instead the path carries its bytes no faster than a TCP connection sustains
 *       at that loss rate, the steady-state rate of Mathis, Semke, Mahdavi and Ott, "The macroscopic
 *       behavior of the TCP congestion avoidance algorithm" (CCR 1997): {@code MSS / RTT * sqrt(3 /
 *       (2 p))}, {@link #MSS} = 1448 bytes. Messages queue behind each other at that rate
 *       (head-of-line, as on one connection) and then take the one-way delay. Deterministic.</li>
 * </ul>
 * Without loss, or within one region, nothing is dropped or paced: the emulated WAN adds delay only.
 */
public final class WanPath {
    /** TCP payload per segment assumed by the loss-limited rate (Ethernet MTU minus IP, TCP and timestamp headers). */
    public static final int MSS = 1448;

    private final long oneWayNanos;
    private final double lossRate;
    private final boolean reliable;
    private final double nanosPerByte;
    private final Random random;
    private long busyUntilNanos = Long.MIN_VALUE;
    private long lastReleaseNanos = Long.MIN_VALUE;
    private long dropped;
    private long delivered;

    /**
     * A path of round-trip time {@code rttMs} (0: within one region) and loss rate {@code lossRate}
     * in [0, 1); {@code reliable}: TCP (paced, never dropped) rather than datagrams (dropped).
     */
    public WanPath(double rttMs, double lossRate, boolean reliable, Random random) {
        if (!(rttMs >= 0) || Double.isInfinite(rttMs)) {
            throw new IllegalArgumentException("rtt must be >= 0 ms, was " + rttMs);
        }
        if (!(lossRate >= 0 && lossRate < 1)) {
            throw new IllegalArgumentException("loss rate must be in [0, 1), was " + lossRate);
        }
        this.oneWayNanos = Math.round(rttMs * 1_000_000 / 2);
        this.lossRate = rttMs > 0 ? lossRate : 0;
        this.reliable = reliable;
        this.nanosPerByte = reliable && this.lossRate > 0 ? 1e9 / tcpBytesPerSecond(rttMs, this.lossRate) : 0;
        this.random = random;
    }

    /** Mathis et al.'s steady-state TCP rate in bytes/s for a path of {@code rttMs} and loss rate {@code p} > 0. */
    public static double tcpBytesPerSecond(double rttMs, double p) {
        if (!(rttMs > 0) || !(p > 0 && p < 1)) {
            throw new IllegalArgumentException("need rtt > 0 and loss in (0, 1), were " + rttMs + " ms and " + p);
        }
        return MSS / (rttMs / 1000) * Math.sqrt(1.5 / p);
    }

    /**
     * When a message of {@code bytes} handed in at {@code nowNanos} is delivered, or -1 when it is
     * lost. Release times never decrease from one delivered message to the next.
     */
    public long releaseNanos(long nowNanos, int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("message size must be >= 0 bytes, was " + bytes);
        }
        if (!reliable && lossRate > 0 && random.nextDouble() < lossRate) {
            dropped++;
            return -1;
        }
        long sent = nowNanos;
        if (nanosPerByte > 0) {
            long start = Math.max(nowNanos, busyUntilNanos);
            busyUntilNanos = start + Math.round(bytes * nanosPerByte);
            sent = busyUntilNanos;
        }
        long release = Math.max(sent + oneWayNanos, lastReleaseNanos);
        lastReleaseNanos = release;
        delivered++;
        return release;
    }

    /** True when every message is delivered at once: no delay, no pacing, no loss. */
    public boolean transparent() {
        return oneWayNanos == 0 && nanosPerByte == 0 && lossRate == 0;
    }

    /** Messages dropped so far. */
    public long dropped() {
        return dropped;
    }

    /** Messages given a release time so far. */
    public long delivered() {
        return delivered;
    }
}
