package geoblocks.sim.tcp;

/**
 * A TCP congestion-control algorithm: owns cwnd and ssthresh (bytes) and reacts to acknowledged
 * bytes, a loss detected by duplicate ACKs, and a retransmission timeout. Loss recovery itself
 * (which segment to resend) belongs to {@link TcpSenderCore}.
 */
interface CongestionControl {
    long cwnd();

    long ssthresh();

    /** Sets cwnd directly (fast-recovery inflation and deflation, RFC 6582). */
    void setCwnd(long bytes);

    /**
     * An RTT sample from an ACK of new data (the echoed timestamp of the newest segment it covers),
     * with the sender's sequence state after the ACK; called before {@link #onAck}. Linux's CUBIC
     * uses it for HyStart.
     */
    default void onRttSample(long nowNs, long rttNs, long sndUna, long sndNxt) {}

    /** New data acknowledged outside fast recovery. */
    void onAck(long nowNs, long ackedBytes, long srttNs);

    /** Loss detected by three duplicate ACKs with {@code flight} bytes outstanding: sets ssthresh. */
    void onFastRetransmit(long nowNs, long flight);

    /** Retransmission timeout: sets ssthresh and collapses cwnd to one segment. */
    void onTimeout(long nowNs, long flight);

    String name();

    static CongestionControl of(String name, int mss, int initialWindowSegments) {
        return switch (name) {
            case "reno" -> new Reno(mss, initialWindowSegments);
            case "cubic" -> new Cubic(mss, initialWindowSegments);
            case "linux-cubic" -> new LinuxCubic(mss, initialWindowSegments);
            default -> throw new IllegalArgumentException("congestion control must be reno, cubic or linux-cubic, was '"
                    + name + "'");
        };
    }
}
