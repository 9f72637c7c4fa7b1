package geoblocks.blockstore.core;

/**
 * Paces a UDP bench sender, without I/O: {@code rateBps} bits per second in datagrams of
 * {@code payload} bytes from {@code startNanos} for {@code durationNanos}. At each timer tick it
 * says how many datagrams are due so that the sent count follows the rate line; at most
 * {@code maxBurst} at once (a late tick does not dump a whole backlog into the socket, so the
 * offered rate can fall short of the target under a slow timer; the result reports what was sent).
 */
public final class UdpPacer {
    private final double packetsPerNano;
    private final long startNanos;
    private final long durationNanos;
    private final int maxBurst;
    private long sent;

    public UdpPacer(long rateBps, int payload, long startNanos, long durationNanos, int maxBurst) {
        if (rateBps <= 0 || payload <= 0 || durationNanos <= 0 || maxBurst <= 0) {
            throw new IllegalArgumentException("rate, payload, duration and burst must be > 0, were " + rateBps + ", "
                    + payload + ", " + durationNanos + ", " + maxBurst);
        }
        this.packetsPerNano = rateBps / 8.0 / payload / 1e9;
        this.startNanos = startNanos;
        this.durationNanos = durationNanos;
        this.maxBurst = maxBurst;
    }

    /** Datagrams to send now (counted as sent). */
    public int due(long nowNanos) {
        long elapsed = Math.min(durationNanos, Math.max(0, nowNanos - startNanos));
        long target = (long) Math.floor(elapsed * packetsPerNano);
        int n = (int) Math.min(maxBurst, Math.max(0, target - sent));
        sent += n;
        return n;
    }

    /** The sending time is over. */
    public boolean finished(long nowNanos) {
        return nowNanos - startNanos >= durationNanos;
    }

    public long sent() {
        return sent;
    }
}
