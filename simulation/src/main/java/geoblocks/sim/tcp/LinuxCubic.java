package geoblocks.sim.tcp;

/**
 * CUBIC as Linux 6.x implements it (net/ipv4/tcp_cubic.c), in segments, which is where it differs
 * from RFC 8312 in ways that matter on a long path:
 * <ul>
 *   <li><b>HyStart</b> ends slow start before the first loss: by the <i>ACK train</i> (ACKs no more
 *       than 2 ms apart spanning more than half the minimum RTT since the round began: cwnd has
 *       reached about the path's BDP) or by <i>delay increase</i> (the minimum RTT of a round's
 *       first 8 samples exceeds the minimum RTT seen by clamp(minRTT / 8, 4 ms, 16 ms): a queue is
 *       building, for instance behind another flow). Checked from cwnd 16 on; ssthresh = cwnd.</li>
 *   <li>Until the first loss ({@code lastMaxCwnd == 0}) the window grows by at least 5 % per RTT.</li>
 *   <li>Growth per RTT is capped at cwnd / 2 ({@code cnt >= 2}); the TCP-friendly window counts
 *       acked segments against {@code cwnd * beta_scale / 8}; the window is recomputed at most
 *       every 1/32 s (jiffies granularity, HZ = 1000 here) unless cwnd changed.</li>
 *   <li>Loss: {@code ssthresh = cwnd * 717 / 1024}, fast convergence; a timeout resets the state
 *       (bictcp_reset and a new HyStart round, as on entering TCP_CA_Loss).</li>
 *   <li>Slow start adds every newly acknowledged segment (no per-ACK limit), so delayed ACKs do
 *       not slow it down.</li>
 * </ul>
 * No pacing: Linux paces CUBIC only under the fq qdisc, which the real link does not have.
 */
final class LinuxCubic implements CongestionControl {
    private static final double BETA = 717.0 / 1024;
    private static final double C = 0.4;          // bic_scale 41 * 10 / 1024
    private static final double BETA_SCALE = 15;  // 8 * (1024 + 717) / 3 / (1024 - 717), integer in the kernel
    private static final long JIFFY_NS = 1_000_000;
    private static final int LOW_WINDOW = 16;
    private static final long ACK_DELTA_NS = 2_000_000;
    private static final int MIN_SAMPLES = 8;
    private static final long DELAY_MIN_NS = 4_000_000;
    private static final long DELAY_MAX_NS = 16_000_000;
    /** hystart_ack_delay(): min(1 ms, 4 GSO frames at the pacing rate), 1 ms at these rates. */
    private static final long ACK_DELAY_NS = 1_000_000;

    private final int mss;
    private long cwnd;          // segments
    private double cwndCnt;     // snd_cwnd_cnt
    private long ssthresh = Integer.MAX_VALUE;
    // bictcp state
    private double cnt;
    private long lastMaxCwnd;
    private long lastCwnd;
    private long lastTimeNs = Long.MIN_VALUE;
    private double originPoint;
    private double k;
    private long delayMinNs;
    private long epochStartNs = -1;
    private double ackCnt;
    private long tcpCwnd;
    // HyStart
    private boolean found;
    private long roundStartNs = -1;
    private long lastAckNs;
    private long endSeq;
    private long currRttNs;
    private int sampleCnt;
    private String exitReason = "";

    LinuxCubic(int mss, int initialWindowSegments) {
        this.mss = mss;
        this.cwnd = initialWindowSegments;
    }

    @Override
    public long cwnd() {
        return cwnd * mss;
    }

    @Override
    public long ssthresh() {
        return ssthresh >= Integer.MAX_VALUE ? Long.MAX_VALUE / 4 : ssthresh * mss;
    }

    @Override
    public void setCwnd(long bytes) {
        cwnd = Math.max(1, bytes / mss);
    }

    /** How HyStart ended slow start ("ack-train", "delay"), or "" if it has not. */
    String hystartExit() {
        return exitReason;
    }

    private boolean inSlowStart() {
        return cwnd < ssthresh;
    }

    @Override
    public void onRttSample(long nowNs, long rttNs, long sndUna, long sndNxt) {
        if (roundStartNs < 0) {
            resetRound(nowNs, sndNxt);
        }
        // discard delay samples for a second after a loss (the queue is draining)
        if (epochStartNs >= 0 && nowNs - epochStartNs < 1_000_000_000L) {
            return;
        }
        long delay = Math.max(1_000, rttNs);
        if (delayMinNs == 0 || delayMinNs > delay) {
            delayMinNs = delay;
        }
        if (!found && inSlowStart() && cwnd >= LOW_WINDOW) {
            hystartUpdate(nowNs, delay, sndUna, sndNxt);
        }
    }

    private void resetRound(long nowNs, long sndNxt) {
        roundStartNs = nowNs;
        lastAckNs = nowNs;
        endSeq = sndNxt;
        currRttNs = Long.MAX_VALUE;
        sampleCnt = 0;
    }

    private void hystartUpdate(long nowNs, long delay, long sndUna, long sndNxt) {
        if (sndUna > endSeq) {
            resetRound(nowNs, sndNxt);
        }
        if (nowNs - lastAckNs <= ACK_DELTA_NS) {
            lastAckNs = nowNs;
            long threshold = (delayMinNs + ACK_DELAY_NS) >> 1;   // no pacing: half
            if (nowNs - roundStartNs > threshold) {
                found = true;
                exitReason = "ack-train";
                ssthresh = cwnd;
            }
        }
        if (currRttNs > delay) {
            currRttNs = delay;
        }
        if (sampleCnt < MIN_SAMPLES) {
            sampleCnt++;
        } else if (currRttNs > delayMinNs + Math.max(DELAY_MIN_NS, Math.min(DELAY_MAX_NS, delayMinNs >> 3))) {
            found = true;
            if (exitReason.isEmpty()) {
                exitReason = "delay";
            }
            ssthresh = cwnd;
        }
    }

    @Override
    public void onAck(long nowNs, long ackedBytes, long srttNs) {
        double acked = (double) ackedBytes / mss;
        if (inSlowStart()) {
            long before = cwnd;
            cwnd = Math.min(cwnd + Math.round(acked), ssthresh);
            acked -= cwnd - before;
            if (acked <= 0) {
                return;
            }
        }
        update(nowNs, acked);
        // tcp_cong_avoid_ai(tp, cnt, acked)
        if (cwndCnt >= cnt) {
            cwndCnt = 0;
            cwnd++;
        }
        cwndCnt += acked;
        if (cwndCnt >= cnt) {
            long delta = (long) (cwndCnt / cnt);
            cwndCnt -= delta * cnt;
            cwnd += delta;
        }
    }

    /** bictcp_update: the next cnt (ACKed segments per cwnd increment). */
    private void update(long nowNs, double acked) {
        ackCnt += acked;
        if (lastCwnd == cwnd && nowNs - lastTimeNs <= 1_000_000_000L / 32) {
            return;
        }
        boolean sameJiffy = epochStartNs >= 0 && nowNs / JIFFY_NS == lastTimeNs / JIFFY_NS;
        if (!sameJiffy) {
            lastCwnd = cwnd;
            lastTimeNs = nowNs;
            if (epochStartNs < 0) {
                epochStartNs = nowNs;
                ackCnt = acked;
                tcpCwnd = cwnd;
                if (lastMaxCwnd <= cwnd) {
                    k = 0;
                    originPoint = cwnd;
                } else {
                    k = Math.cbrt((lastMaxCwnd - cwnd) / C);
                    originPoint = lastMaxCwnd;
                }
            }
            double t = (nowNs - epochStartNs + delayMinNs) / 1e9;
            double target = originPoint + C * Math.pow(t - k, 3);
            cnt = target > cwnd ? cwnd / (target - cwnd) : 100.0 * cwnd;
            if (lastMaxCwnd == 0 && cnt > 20) {
                cnt = 20;   // 5 % per RTT while the capacity is unknown
            }
        }
        // TCP friendliness
        double delta = cwnd * BETA_SCALE / 8;
        while (ackCnt > delta) {
            ackCnt -= delta;
            tcpCwnd++;
        }
        if (tcpCwnd > cwnd) {
            double maxCnt = (double) cwnd / (tcpCwnd - cwnd);
            if (cnt > maxCnt) {
                cnt = maxCnt;
            }
        }
        cnt = Math.max(cnt, 2);
    }

    @Override
    public void onFastRetransmit(long nowNs, long flight) {
        epochStartNs = -1;
        lastMaxCwnd = cwnd < lastMaxCwnd ? (long) (cwnd * (1 + BETA) / 2) : cwnd;
        ssthresh = Math.max((long) (cwnd * BETA), 2);
    }

    @Override
    public void onTimeout(long nowNs, long flight) {
        long newSsthresh = Math.max((long) (cwnd * BETA), 2);
        cnt = 0;
        lastMaxCwnd = 0;
        lastCwnd = 0;
        lastTimeNs = Long.MIN_VALUE;
        originPoint = 0;
        k = 0;
        delayMinNs = 0;
        epochStartNs = -1;
        ackCnt = 0;
        tcpCwnd = 0;
        found = false;
        roundStartNs = -1;
        ssthresh = newSsthresh;
        cwnd = 1;
        cwndCnt = 0;
    }

    @Override
    public String name() {
        return "linux-cubic";
    }
}
