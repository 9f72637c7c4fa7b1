package geoblocks.sim.net;

import java.util.ArrayDeque;
import java.util.Objects;

/**
 * One direction of a bottleneck link: a FIFO queue with a drop-tail buffer in front of a serializer
 * of fixed capacity. Pure and clock-free: every call passes the current time in nanoseconds.
 *
 * <p>A packet offered at time {@code now} waits until the packets ahead of it have left
 * ({@code busyUntil}), then takes {@code bytes * 8 / capacity} seconds to serialize. A packet is
 * dropped when the bytes still in the system (queued or being serialized) plus its own size exceed
 * the buffer. Queuing delay and drops therefore emerge from the offered traffic: nothing is drawn
 * from a formula. State is kept in nanoseconds because the simulator's clock ticks in
 * milliseconds while a 1,500-byte packet at 100 Mbit/s takes 0.12 ms.
 *
 * <p>Invariant: departures are non-decreasing in offer order (FIFO), and {@code queuedBytes} is the
 * sum of the sizes of the packets whose departure is after the last observed time.
 */
public final class BottleneckLink {
    private final LinkSpec spec;
    private final ArrayDeque<long[]> inSystem = new ArrayDeque<>(); // {departureNs, bytes}
    private long queuedBytes;
    private long busyUntilNs;

    private long packets;
    private long bytes;
    private long drops;
    private long droppedBytes;
    private long queueDelaySumNs;
    private long maxQueueDelayNs;
    private long lastQueueDelayNs;

    public BottleneckLink(LinkSpec spec) {
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    public LinkSpec spec() {
        return spec;
    }

    /**
     * Offers a packet at {@code nowNs}. Returns the time its last bit leaves the link, or -1 when
     * the buffer is full and the packet is dropped.
     */
    public long offer(long nowNs, int sizeBytes) {
        if (sizeBytes <= 0) {
            throw new IllegalArgumentException("packet size must be > 0 bytes, was " + sizeBytes);
        }
        drain(nowNs);
        if (queuedBytes + sizeBytes > spec.bufferBytes()) {
            drops++;
            droppedBytes += sizeBytes;
            return -1;
        }
        long start = Math.max(nowNs, busyUntilNs);
        long departure = start + transmissionNs(sizeBytes);
        busyUntilNs = departure;
        inSystem.addLast(new long[] {departure, sizeBytes});
        queuedBytes += sizeBytes;
        long wait = start - nowNs;
        lastQueueDelayNs = wait;
        queueDelaySumNs += wait;
        maxQueueDelayNs = Math.max(maxQueueDelayNs, wait);
        packets++;
        bytes += sizeBytes;
        return departure;
    }

    /** Queuing delay (wait before serialization) of the last accepted packet, in ns. */
    public long lastQueueDelayNs() {
        return lastQueueDelayNs;
    }

    /** Nanoseconds a packet needs to serialize onto the link. */
    public long transmissionNs(int sizeBytes) {
        return sizeBytes * 8_000_000_000L / spec.capacityBps();
    }

    /** Time a packet arriving now would wait before its first bit is sent. */
    public long backlogNs(long nowNs) {
        return Math.max(0, busyUntilNs - nowNs);
    }

    /** Bytes queued or being serialized at {@code nowNs}. */
    public long queuedBytes(long nowNs) {
        drain(nowNs);
        return queuedBytes;
    }

    private void drain(long nowNs) {
        while (!inSystem.isEmpty() && inSystem.peekFirst()[0] <= nowNs) {
            queuedBytes -= inSystem.pollFirst()[1];
        }
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    public long drops() {
        return drops;
    }

    public long droppedBytes() {
        return droppedBytes;
    }

    /** Mean queuing delay of the accepted packets, in ms (0 when none passed). */
    public double meanQueueDelayMs() {
        return packets == 0 ? 0 : queueDelaySumNs / 1e6 / packets;
    }

    public double maxQueueDelayMs() {
        return maxQueueDelayNs / 1e6;
    }
}
