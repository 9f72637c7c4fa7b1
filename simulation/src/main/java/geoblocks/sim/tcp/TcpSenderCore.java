package geoblocks.sim.tcp;

import geoblocks.ledbat.core.RtoEstimator;
import java.util.List;

/**
 * The sending half of a bulk TCP flow, without I/O or clock: sequence space, ACK processing and
 * loss recovery. Congestion control is pluggable ({@link Reno}, {@link Cubic}); loss recovery is
 * conservative SACK-based recovery (RFC 6675, simplified): three duplicate ACKs (or three
 * segments' worth of SACKed data) start fast recovery; every hole below the highest SACKed byte is
 * taken as lost and resent once, as long as the estimated bytes in flight ("pipe") stay below
 * cwnd; recovery ends when the cumulative ACK passes the recovery point. A resent first hole that
 * is still missing once data sent after it has been SACKed (three segments' worth) was lost again
 * and is resent (a simplified RACK, RFC 8985). A retransmission timeout
 * (RFC 6298) collapses cwnd, backs off the timer and resends from the first unacknowledged byte,
 * skipping SACKed ranges (the simulated receiver never reneges). RTT samples come from the timestamp echoed in every ACK (RFC 7323), so
 * retransmitted segments give valid samples.
 *
 * <p>Invariant: {@code sndUna <= sndNxt <= highestSent <= limit}; every byte below {@code sndUna}
 * is acknowledged.
 */
final class TcpSenderCore {
    /** The simulator's clock resolution, RFC 6298's G: 1 ms. */
    static final long GRANULARITY_NS = 1_000_000;
    /** A segment to (re)send: bytes [seq, seq + len). */
    record Send(long seq, int len, boolean retransmission) {}

    private static final int DUP_THRESH = 3;

    private final int mss;
    private final CongestionControl cc;
    private final RtoEstimator rto;
    private final Scoreboard sacks = new Scoreboard();
    private long limit;
    private long sndUna;
    private long sndNxt;
    private long highestSent;
    private int dupAcks;
    private boolean inRecovery;
    private long recover = -1;
    private long highRxt;
    private long firstHoleRxtMark = -1;
    private long rtoDeadlineNs = -1;

    private long retransmissions;
    private long timeouts;
    private long fastRetransmits;

    TcpSenderCore(int mss, CongestionControl cc, long limitBytes) {
        // RFC 6298 (2.4): RTO at least 1 s, at most 60 s
        this(mss, cc, limitBytes, new RtoEstimator(1_000_000_000L, 1_000_000_000L, 60_000_000_000L, GRANULARITY_NS,
                RtoEstimator.Rule.RFC_6298));
    }

    TcpSenderCore(int mss, CongestionControl cc, long limitBytes, RtoEstimator rto) {
        if (mss <= 0) {
            throw new IllegalArgumentException("mss must be > 0, was " + mss);
        }
        this.mss = mss;
        this.cc = cc;
        this.limit = limitBytes;
        this.rto = rto;
    }

    /** An RTT sample from outside the data (the SYN exchange): seeds SRTT and the RTO. */
    void handshakeRtt(long rttNs) {
        rto.sample(rttNs);
    }

    /** Sends the initial window. */
    void start(long nowNs, List<Send> out) {
        fill(nowNs, out);
    }

    /** Stops sending new data: the flow ends once what was sent is acknowledged. */
    void stop() {
        limit = Math.max(sndUna, highestSent);
    }

    /**
     * The application wrote {@code bytes} more (an application-limited stream, see
     * {@link TcpTransport}): they may be sent as the window allows.
     */
    void write(long nowNs, long bytes, List<Send> out) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("must write > 0 bytes, was " + bytes);
        }
        limit += bytes;
        fill(nowNs, out);
    }

    /**
     * Processes an ACK: cumulative {@code ackNo}, echoed timestamp ({@code echoNs}, -1 if none) and
     * SACK blocks as {start, end} pairs.
     */
    void onAck(long nowNs, long ackNo, long echoNs, long[] sackBlocks, List<Send> out) {
        if (ackNo > highestSent) {
            throw new IllegalArgumentException("ack " + ackNo + " beyond highest sent byte " + highestSent);
        }
        for (int i = 0; i + 1 < sackBlocks.length; i += 2) {
            if (sackBlocks[i] >= ackNo && sackBlocks[i + 1] <= highestSent) {
                sacks.add(sackBlocks[i], sackBlocks[i + 1]);
            }
        }
        if (ackNo > sndUna) {
            long acked = ackNo - sndUna;
            sndUna = ackNo;
            sndNxt = Math.max(sndNxt, sndUna);
            highRxt = Math.max(highRxt, sndUna);
            sacks.ackedUpTo(sndUna);
            dupAcks = 0;
            if (echoNs >= 0) {
                rto.sample(nowNs - echoNs);
                cc.onRttSample(nowNs, nowNs - echoNs, sndUna, highestSent);
            }
            firstHoleRxtMark = -1;
            if (inRecovery && ackNo >= recover) {
                inRecovery = false;
                cc.setCwnd(cc.ssthresh());
            } else if (!inRecovery) {
                cc.onAck(nowNs, acked, rto.srtt());
            }
            rtoDeadlineNs = sndUna == highestSent ? -1 : nowNs + rto.cto();
        } else if (ackNo == sndUna && highestSent > sndUna) {
            dupAcks++;
            boolean lossSignal = dupAcks >= DUP_THRESH || sacks.sackedIn(sndUna, highestSent) >= (long) DUP_THRESH * mss;
            if (!inRecovery && lossSignal && sndUna > recover) {
                fastRetransmits++;
                cc.onFastRetransmit(nowNs, pipe());
                cc.setCwnd(cc.ssthresh());
                recover = highestSent;
                inRecovery = true;
                highRxt = sndUna;
                // RFC 6675 step 4.3: the first hole goes out regardless of pipe
                sendHole(out, true);
            } else if (inRecovery && firstHoleRxtMark >= 0
                    && sacks.highest(sndUna) >= firstHoleRxtMark + (long) DUP_THRESH * mss) {
                // the retransmission of the first hole was lost too: resend the holes again
                highRxt = sndUna;
                firstHoleRxtMark = -1;
                sendHole(out, true);
            }
        }
        fill(nowNs, out);
    }

    /** The retransmission timer fired; a no-op unless its deadline has passed. */
    void onTimer(long nowNs, List<Send> out) {
        if (rtoDeadlineNs < 0 || nowNs < rtoDeadlineNs) {
            return;
        }
        timeouts++;
        cc.onTimeout(nowNs, pipe());
        rto.backOff();
        recover = highestSent;
        inRecovery = false;
        dupAcks = 0;
        sndNxt = sndUna;
        highRxt = sndUna;
        // the scoreboard is kept: the simulated receiver never reneges on SACKed data
        rtoDeadlineNs = nowNs + rto.cto();
        fill(nowNs, out);
    }

    /**
     * Bytes estimated in flight (RFC 6675 "pipe"): sent and neither acked nor SACKed, minus holes
     * below the highest SACK that are taken as lost and not yet resent.
     */
    long pipe() {
        long outstanding = sndNxt - sndUna - sacks.sackedIn(sndUna, sndNxt);
        if (inRecovery) {
            long highSack = Math.min(sacks.highest(sndUna), sndNxt);
            long from = Math.min(Math.max(highRxt, sndUna), highSack);
            long lost = (highSack - from) - sacks.sackedIn(from, highSack);
            outstanding -= lost;
        }
        return Math.max(0, outstanding);
    }

    private void fill(long nowNs, List<Send> out) {
        while (pipe() + mss <= Math.max(cc.cwnd(), mss)) {
            if (inRecovery && sendHole(out, false)) {
                continue;
            }
            if (!sendNext(out)) {
                break;
            }
        }
        if (rtoDeadlineNs < 0 && highestSent > sndUna) {
            rtoDeadlineNs = nowNs + rto.cto();
        }
    }

    /** Resends the next hole below the highest SACK, if any; returns whether one was sent. */
    private boolean sendHole(List<Send> out, boolean force) {
        long highSack = sacks.highest(sndUna);
        long seq = Math.max(highRxt, sndUna);
        long end;
        while (seq < highSack && (end = sacks.sackedEnd(seq)) >= 0) {
            seq = end;
        }
        if (seq >= highSack) {
            if (force && highestSent > sndUna) {
                firstHoleRxtMark = highestSent;
                out.add(new Send(sndUna, (int) Math.min(mss, highestSent - sndUna), true));
                retransmissions++;
                highRxt = Math.max(highRxt, sndUna + Math.min(mss, highestSent - sndUna));
                return true;
            }
            return false;
        }
        int len = (int) Math.min(mss, Math.min(sacks.nextSackedStart(seq), highSack) - seq);
        if (seq == sndUna) {
            firstHoleRxtMark = highestSent;
        }
        out.add(new Send(seq, len, true));
        retransmissions++;
        highRxt = seq + len;
        return true;
    }

    /** Sends the next unsent (or, after a timeout, un-SACKed) segment at sndNxt. */
    private boolean sendNext(List<Send> out) {
        long end;
        while ((end = sacks.sackedEnd(sndNxt)) >= 0) {
            sndNxt = end;
        }
        if (sndNxt >= limit) {
            return false;
        }
        int len = (int) Math.min(mss, Math.min(limit, sacks.nextSackedStart(sndNxt)) - sndNxt);
        boolean re = sndNxt < highestSent;
        if (re) {
            retransmissions++;
        }
        out.add(new Send(sndNxt, len, re));
        sndNxt += len;
        highestSent = Math.max(highestSent, sndNxt);
        return true;
    }

    /** When the retransmission timer must fire (ns), or -1 when nothing is outstanding. */
    long rtoDeadlineNs() {
        return rtoDeadlineNs;
    }

    /**
     * The delay (whole ms, at least 1, rounded up) to arm the retransmission timer with at
     * {@code nowNs}, or -1 when there is no deadline or a timer already due at {@code armedDueNs}
     * fires no later than it.
     */
    long rtoTimerMs(long nowNs, long armedDueNs) {
        if (rtoDeadlineNs < 0 || rtoDeadlineNs >= armedDueNs) {
            return -1;
        }
        return Math.max(1, (rtoDeadlineNs - nowNs + 999_999) / 1_000_000);
    }

    long cwnd() {
        return cc.cwnd();
    }

    long ssthresh() {
        return cc.ssthresh();
    }

    long srttNs() {
        return rto.srtt();
    }

    long rtoNs() {
        return rto.cto();
    }

    long acked() {
        return sndUna;
    }

    long highestSent() {
        return highestSent;
    }

    boolean inRecovery() {
        return inRecovery;
    }

    boolean finished() {
        return sndUna >= limit;
    }

    long retransmissions() {
        return retransmissions;
    }

    long timeouts() {
        return timeouts;
    }

    long fastRetransmits() {
        return fastRetransmits;
    }
}
