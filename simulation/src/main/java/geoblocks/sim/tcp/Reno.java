package geoblocks.sim.tcp;

/**
 * Reno congestion control (RFC 5681): slow start below ssthresh (cwnd grows by the acked bytes,
 * at most one segment per ACK), congestion avoidance above it (about one segment per RTT),
 * ssthresh = max(flight / 2, 2 segments) on loss, cwnd = 1 segment after a timeout.
 */
final class Reno implements CongestionControl {
    private final int mss;
    private double cwnd;
    private long ssthresh = Long.MAX_VALUE / 4;

    Reno(int mss, int initialWindowSegments) {
        this.mss = mss;
        this.cwnd = (double) mss * initialWindowSegments;
    }

    @Override
    public long cwnd() {
        return (long) cwnd;
    }

    @Override
    public long ssthresh() {
        return ssthresh;
    }

    @Override
    public void setCwnd(long bytes) {
        cwnd = Math.max(mss, bytes);
    }

    @Override
    public void onAck(long nowNs, long ackedBytes, long srttNs) {
        if (cwnd < ssthresh) {
            cwnd += Math.min(ackedBytes, mss);
        } else {
            cwnd += (double) mss * Math.min(ackedBytes, mss) / cwnd;
        }
    }

    @Override
    public void onFastRetransmit(long nowNs, long flight) {
        ssthresh = Math.max(flight / 2, 2L * mss);
    }

    @Override
    public void onTimeout(long nowNs, long flight) {
        ssthresh = Math.max(flight / 2, 2L * mss);
        cwnd = mss;
    }

    @Override
    public String name() {
        return "reno";
    }
}
