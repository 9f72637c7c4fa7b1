package geoblocks.network.component;

/**
 * How long the UDP endpoint takes to encode and seal a datagram that asks for a send stamp (an RTT
 * probe): the shortest of the last {@value #KEPT} such times. A probe's time has to be inside its
 * sealed bytes, so it is stamped before sealing; it is stamped with now plus this, the time the datagram
 * is expected to be ready for the socket, so the sealing (AES-GCM, a fraction of a millisecond while an
 * idle node's rare probes run cold code) does not count as round trip. The shortest, so a sealing
 * stretched by a pause does not push later stamps past their datagram's real departure. Pure; one
 * thread (the channel's event loop).
 */
final class SealTime {
    static final int KEPT = 4;
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

    /** The expected time from stamp to sealed, in nanoseconds: 0 before the first. */
    long expectedNanos() {
        long min = count == 0 ? 0 : Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            min = Math.min(min, recent[i]);
        }
        return min;
    }
}
