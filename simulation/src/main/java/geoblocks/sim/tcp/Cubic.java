package geoblocks.sim.tcp;

/**
 * CUBIC congestion control (RFC 8312): after a loss the window follows
 * W(t) = C (t - K)^3 + W_max with C = 0.4 and K = cbrt(W_max (1 - beta) / C), beta = 0.7, never
 * below the Reno-friendly estimate; slow start as in Reno. Windows in segments internally.
 */
final class Cubic implements CongestionControl {
    private static final double C = 0.4;
    private static final double BETA = 0.7;

    private final int mss;
    private double cwndSeg;
    private double ssthreshSeg = Double.MAX_VALUE / 4;
    private double wMax;
    private double k;
    private long epochStartNs = -1;
    private double wEst;

    Cubic(int mss, int initialWindowSegments) {
        this.mss = mss;
        this.cwndSeg = initialWindowSegments;
    }

    @Override
    public long cwnd() {
        return (long) (cwndSeg * mss);
    }

    @Override
    public long ssthresh() {
        return ssthreshSeg > Long.MAX_VALUE / 8.0 / mss ? Long.MAX_VALUE / 4 : (long) (ssthreshSeg * mss);
    }

    @Override
    public void setCwnd(long bytes) {
        cwndSeg = Math.max(1, (double) bytes / mss);
    }

    @Override
    public void onAck(long nowNs, long ackedBytes, long srttNs) {
        double acked = Math.min(ackedBytes, mss) / (double) mss;
        if (cwndSeg < ssthreshSeg) {
            cwndSeg += acked;
            return;
        }
        if (epochStartNs < 0) {
            epochStartNs = nowNs;
            if (cwndSeg < wMax) {
                k = Math.cbrt((wMax - cwndSeg) / C);
            } else {
                k = 0;
                wMax = cwndSeg;
            }
            wEst = cwndSeg;
        }
        double rtt = Math.max(srttNs, 1_000_000) / 1e9;
        double t = (nowNs - epochStartNs) / 1e9 + rtt;
        double target = C * Math.pow(t - k, 3) + wMax;
        // RFC 8312 section 4.2: the Reno-friendly estimate
        wEst += 3 * (1 - BETA) / (1 + BETA) * acked / cwndSeg;
        if (target < wEst) {
            target = wEst;
        }
        if (target > cwndSeg) {
            cwndSeg += Math.min(target - cwndSeg, cwndSeg / 2) * acked / cwndSeg;
        } else {
            cwndSeg += 0.01 * acked / cwndSeg;
        }
    }

    @Override
    public void onFastRetransmit(long nowNs, long flight) {
        reduce();
    }

    @Override
    public void onTimeout(long nowNs, long flight) {
        epochStartNs = -1;
        double flightSeg = (double) flight / mss;
        wMax = Math.max(wMax, flightSeg);
        ssthreshSeg = Math.max(2, flightSeg * BETA);
        cwndSeg = 1;
    }

    private void reduce() {
        epochStartNs = -1;
        // fast convergence (RFC 8312 section 4.6)
        wMax = cwndSeg < wMax ? cwndSeg * (1 + BETA) / 2 : cwndSeg;
        ssthreshSeg = Math.max(2, cwndSeg * BETA);
        cwndSeg = ssthreshSeg;
    }

    @Override
    public String name() {
        return "cubic";
    }
}
