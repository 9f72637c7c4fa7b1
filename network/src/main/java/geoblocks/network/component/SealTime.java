package geoblocks.network.component;

/**
 * How long the UDP endpoint takes to encode and seal a datagram that asks for a send stamp (an RTT
 * probe): the shortest of the last {@value #KEPT} such times. A probe's time has to be inside its
 * sealed bytes, so it is stamped before sealing; it is stamped with now plus this, the time the datagram
 * is expected to be ready for the socket, so the sealing (AES-GCM, a fraction of a millisecond while an
 * idle node's rare probes run cold code) does not count as round trip. A stamp later than the datagram's
 * real departure would make a round trip look shorter than it is (even negative), so the expectation errs
 * short: the shortest of the last few (a sealing stretched by a pause does not count), nothing until
 * {@value #KEPT} were timed (the first sealings run the coldest code: 5 ms, then 0.1-0.4 ms), and never more
 * than {@value #MAX_EXPECTED_NANOS} ns. Pure; one thread (the channel's event loop).
 */
final class SealTime {
    static final int KEPT = 4;
    /** The most the expectation may be: sealing a probe takes longer only while paused. */
    static final long MAX_EXPECTED_NANOS = 1_000_000;
    private final long[] recent = new long[KEPT];
    private int count;
    private int next;

    /** One stamped datagram took {@code nanos} from its stamp to the end of its sealing. */
    void took(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a sealing cannot take " + nanos + " ns");
        }
        recent[next] = nanos;
        next = (next + 1) % KEPT;
        count = Math.min(count + 1, KEPT);
    }

    /** The expected time from stamp to sealed, in nanoseconds: 0 until {@value #KEPT} were timed. */
    long expectedNanos() {
        if (count < KEPT) {
            return 0;
        }
        long min = MAX_EXPECTED_NANOS;
        for (long r : recent) {
            min = Math.min(min, r);
        }
        return min;
    }
}
