package geoblocks.ledbat.core;

/**
 * Measures the delivery rate during slow start: the bytes acknowledged per ACK over the last two
 * RTTs, (time, bytes). Pure: every call receives the time in microseconds.
 */
final class SlowStartDelivery {
    private final LongRing acked = new LongRing();

    /** Records {@code bytes} acknowledged at {@code now} and drops ACKs older than two RTTs. */
    void add(long now, long bytes, long rtt) {
        acked.add(now, bytes);
        long keep = 2 * rtt;
        while (now - acked.peekA() > keep) {
            acked.poll();
        }
    }

    void clear() {
        acked.clear();
    }

    /**
     * Bytes per µs acknowledged over the last {@code window} µs (or since the oldest ACK kept, if
     * more recent), or -1 when fewer than two ACKs are kept or none fall in that span.
     */
    double rate(long now, long window) {
        if (acked.size() < 2) {
            return -1;
        }
        long from = Math.max(now - window, acked.a(0));
        long bytes = 0;
        for (int i = acked.size() - 1; i >= 0 && acked.a(i) > from; i--) {
            bytes += acked.b(i);
        }
        if (now <= from || bytes == 0) {
            return -1;
        }
        return (double) bytes / (now - from);
    }
}
