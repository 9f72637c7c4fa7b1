package geoblocks.blockstore.core;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether the background flow to each peer is stalled: it has bytes waiting (queued or in flight) and
 * the peer acknowledged fewer than {@code minBytes} of them over the last {@code windowMicros} (a whole
 * window of waiting bytes is needed first, so a flow that just started is never stalled). A stalled flow
 * flows again once a window shows progress, or after a whole window with nothing waiting (a moment
 * with nothing waiting, between two blocks, does not end a stall). A path whose
 * MTU drops its datagrams, or a peer that stopped reading, stalls; a flow that yields to foreground
 * traffic at LEDBAT's smallest window still moves a few kilobytes a second, which the defaults
 * ({@link #DEFAULT_WINDOW_MICROS}, {@link #DEFAULT_MIN_BYTES}) do not call a stall. Pure: the caller
 * gives each sample's time (the transport's clock). Not thread-safe.
 *
 * @param <K> the peer's key
 */
public final class FlowStallWatch<K> {
    /** 30 s. */
    public static final long DEFAULT_WINDOW_MICROS = 30_000_000L;
    /** 128 KiB in a window: 4.4 KB/s over 30 s. LEDBAT's smallest window (2 packets an RTT) moves 9 KB/s at 300 ms. */
    public static final long DEFAULT_MIN_BYTES = 128 * 1024;

    /** A change of a peer's state: {@code stalled} (since {@code sinceMicros}) or flowing again. */
    public record Change<K>(K peer, boolean stalled, long sinceMicros, long waitingBytes, long ackedInWindow) {}

    private record Sample(long timeMicros, long ackedBytes) {}

    private static final class Flow {
        final ArrayDeque<Sample> samples = new ArrayDeque<>();
        long stalledSinceMicros = -1;
        /** While stalled: since when nothing has been waiting (-1: bytes are waiting). */
        long idleSinceMicros = -1;
    }

    private final long windowMicros;
    private final long minBytes;
    private final Map<K, Flow> flows = new HashMap<>();

    public FlowStallWatch(long windowMicros, long minBytes) {
        if (windowMicros <= 0 || minBytes <= 0) {
            throw new IllegalArgumentException("window and minimum bytes must be positive, were " + windowMicros + " us and "
                    + minBytes);
        }
        this.windowMicros = windowMicros;
        this.minBytes = minBytes;
    }

    public FlowStallWatch() {
        this(DEFAULT_WINDOW_MICROS, DEFAULT_MIN_BYTES);
    }

    /**
     * One sample of {@code peer}'s flow at {@code timeMicros}: {@code waitingBytes} not yet acknowledged (queued
     * or in flight) and {@code ackedBytes}, the total the peer ever acknowledged. The change it makes, or null.
     */
    public Change<K> sample(K peer, long timeMicros, long waitingBytes, long ackedBytes) {
        Flow f = flows.computeIfAbsent(peer, k -> new Flow());
        if (waitingBytes <= 0) {
            if (f.stalledSinceMicros >= 0) {
                // a stalled flow between two blocks (one given up, the next not offered yet) is still stalled;
                // only a whole window with nothing waiting ends it
                f.idleSinceMicros = f.idleSinceMicros < 0 ? timeMicros : f.idleSinceMicros;
                if (timeMicros - f.idleSinceMicros < windowMicros) {
                    return null;
                }
            }
            f.samples.clear();
            f.samples.add(new Sample(timeMicros, ackedBytes));
            return f.stalledSinceMicros < 0 ? null : resumed(peer, f, 0, 0);
        }
        f.idleSinceMicros = -1;
        f.samples.add(new Sample(timeMicros, ackedBytes));
        long start = timeMicros - windowMicros;
        while (f.samples.size() > 1 && secondOldest(f).timeMicros() <= start) {
            f.samples.poll(); // keep exactly one sample at or before the window's start
        }
        Sample oldest = f.samples.peek();
        if (oldest.timeMicros() > start) {
            return null; // not a whole window of waiting bytes yet
        }
        long acked = ackedBytes - oldest.ackedBytes();
        if (acked < minBytes) {
            if (f.stalledSinceMicros < 0) {
                f.stalledSinceMicros = oldest.timeMicros();
                return new Change<>(peer, true, f.stalledSinceMicros, waitingBytes, acked);
            }
            return null;
        }
        return f.stalledSinceMicros < 0 ? null : resumed(peer, f, waitingBytes, acked);
    }

    private Change<K> resumed(K peer, Flow f, long waiting, long acked) {
        Change<K> c = new Change<>(peer, false, f.stalledSinceMicros, waiting, acked);
        f.stalledSinceMicros = -1;
        f.idleSinceMicros = -1;
        return c;
    }

    private static Sample secondOldest(Flow f) {
        var it = f.samples.iterator();
        it.next();
        return it.next();
    }

    /** Since when {@code peer}'s flow has been stalled (the transport's clock, microseconds), or -1 when it is not. */
    public long stalledSinceMicros(K peer) {
        Flow f = flows.get(peer);
        return f == null ? -1 : f.stalledSinceMicros;
    }
}
