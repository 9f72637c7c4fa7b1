package geoblocks.blockstore.core;

import java.util.Set;

/**
 * The bounds of a {@code bench net} request, checked by the client before it asks and by the node
 * before it runs anything (a request from the network is never trusted): mode tcp, udp or
 * ledbat; 1..{@value #MAX_STREAMS} streams; tcp and ledbat move 1 byte..{@value #MAX_BYTES}
 * bytes; udp offers 1 kbit/s..10 Gbit/s per stream for {@value #MIN_DURATION_MS}..{@value
 * #MAX_DURATION_MS} ms in datagrams of {@value #MIN_PAYLOAD}..{@value #MAX_PAYLOAD} bytes.
 */
public final class NetBenchLimits {
    public static final Set<String> MODES = Set.of("tcp", "udp", "ledbat");
    public static final int MAX_STREAMS = 16;
    public static final long MAX_BYTES = 16L << 30;
    public static final long MIN_RATE = 1_000;
    public static final long MAX_RATE = 10_000_000_000L;
    public static final int MIN_DURATION_MS = 100;
    public static final int MAX_DURATION_MS = 60_000;
    public static final int MIN_PAYLOAD = 64;
    public static final int MAX_PAYLOAD = 1400;

    private NetBenchLimits() {}

    /** Why the request is out of bounds, or null when it is fine. */
    public static String problem(String mode, int streams, long bytes, long rateBps, int durationMs, int payload) {
        if (!MODES.contains(mode)) {
            return "mode must be tcp, udp or ledbat, was '" + mode + "'";
        }
        if (streams < 1 || streams > MAX_STREAMS) {
            return "streams must be in 1.." + MAX_STREAMS + ", was " + streams;
        }
        if (mode.equals("udp")) {
            if (rateBps < MIN_RATE || rateBps > MAX_RATE) {
                return "udp rate must be in 1 kbit/s..10 Gbit/s, was " + rateBps + " bit/s";
            }
            if (durationMs < MIN_DURATION_MS || durationMs > MAX_DURATION_MS) {
                return "udp duration must be in " + MIN_DURATION_MS + ".." + MAX_DURATION_MS + " ms, was " + durationMs;
            }
            if (payload < MIN_PAYLOAD || payload > MAX_PAYLOAD) {
                return "udp payload must be in " + MIN_PAYLOAD + ".." + MAX_PAYLOAD + " bytes, was " + payload;
            }
        } else if (bytes < 1 || bytes > MAX_BYTES) {
            return mode + " bytes must be in 1.." + MAX_BYTES + ", was " + bytes;
        }
        return null;
    }
}
