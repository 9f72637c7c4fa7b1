package geoblocks.sim.tcp;

import geoblocks.ledbat.core.RtoEstimator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TcpCoreTest {
    private static final int MSS = 1000;
    private static final long MS = 1_000_000;
    private static final long[] NONE = new long[0];

    private final List<TcpSenderCore.Send> out = new ArrayList<>();

    private TcpSenderCore sender(int iw) {
        return new TcpSenderCore(MSS, new Reno(MSS, iw), Long.MAX_VALUE / 2);
    }

    @Test
    void start_sendsInitialWindow() {
        TcpSenderCore s = sender(4);
        s.start(0, out);
        assertEquals(4, out.size());
        assertEquals(new TcpSenderCore.Send(3000, MSS, false), out.get(3));
        assertEquals(4000, s.pipe());
        assertEquals(1_000 * MS, s.rtoDeadlineNs());
    }

    @Test
    void slowStart_eachAckOpensTwoSegments() {
        TcpSenderCore s = sender(2);
        s.start(0, out);
        out.clear();
        s.onAck(100 * MS, 1000, 0, NONE, out);
        assertEquals(2, out.size());
        assertEquals(3000, s.cwnd());
        assertEquals(100 * MS, s.srttNs());
    }

    @Test
    void congestionAvoidance_growsAboutOneSegmentPerWindow() {
        TcpSenderCore s = sender(10);
        s.start(0, out);
        // three dup acks then full ack: ssthresh = 5000, cwnd = 5000
        s.onAck(MS, 0, -1, new long[] {1000, 2000}, out);
        s.onAck(MS, 0, -1, new long[] {1000, 3000}, out);
        s.onAck(MS, 0, -1, new long[] {1000, 4000}, out);
        assertTrue(s.inRecovery());
        out.clear();
        long seq = s.highestSent();
        s.onAck(2 * MS, seq, -1, NONE, out);
        assertFalse(s.inRecovery());
        long before = s.cwnd();
        for (int i = 0; i < 5; i++) {
            s.onAck(3 * MS, Math.min(s.highestSent(), seq + (i + 1) * 1000L), -1, NONE, out);
        }
        // 5 acks of one segment at cwnd 4.5 segments: a little over one window, so about one segment
        long grown = s.cwnd() - before;
        assertTrue(grown >= 0.9 * MSS && grown <= 1.3 * MSS, "cwnd " + before + " -> " + s.cwnd());
    }

    @Test
    void threeDupAcks_fastRetransmitOfTheHoleAndHalvedWindow() {
        TcpSenderCore s = sender(10);
        s.start(0, out);
        out.clear();
        // segment 0 lost; 1..3 arrive
        s.onAck(MS, 0, -1, new long[] {1000, 2000}, out);
        s.onAck(MS, 0, -1, new long[] {1000, 3000}, out);
        // SACKed data leaves the pipe, so new data may go out, but nothing is resent yet
        assertTrue(out.stream().noneMatch(TcpSenderCore.Send::retransmission), out.toString());
        out.clear();
        s.onAck(MS, 0, -1, new long[] {1000, 4000}, out);
        assertEquals(new TcpSenderCore.Send(0, MSS, true), out.get(0));
        assertEquals(1, s.fastRetransmits());
        // pipe: 10 segments sent + 2 sent on the SACKs, minus 3 SACKed = 9 segments; halved
        assertEquals(4500, s.ssthresh());
    }

    @Test
    void recovery_resendsEveryHoleOnceBelowHighestSack() {
        TcpSenderCore s = sender(10);
        s.start(0, out);
        out.clear();
        // 0 and 2 lost, 1 and 3..9 SACKed
        long[] sack = {3000, 10_000, 1000, 2000};
        s.onAck(MS, 0, -1, sack, out);
        s.onAck(MS, 0, -1, sack, out);
        s.onAck(MS, 0, -1, sack, out);
        List<Long> resent = out.stream().filter(TcpSenderCore.Send::retransmission).map(TcpSenderCore.Send::seq).toList();
        assertEquals(List.of(0L, 2000L), resent);
        out.clear();
        s.onAck(2 * MS, 2000, -1, new long[] {3000, 10_000}, out);
        assertTrue(out.stream().noneMatch(TcpSenderCore.Send::retransmission), "no hole resent twice: " + out);
        s.onAck(2 * MS, 10_000, -1, NONE, out);
        assertFalse(s.inRecovery());
    }

    @Test
    void timeout_collapsesWindowBacksOffAndSkipsSackedData() {
        TcpSenderCore s = sender(4);
        s.start(0, out);
        s.onAck(MS, 0, -1, new long[] {2000, 4000}, out);
        out.clear();
        s.onTimer(500 * MS, out);
        assertTrue(out.isEmpty(), "not yet due");
        s.onTimer(1_000 * MS, out);
        assertEquals(1, s.timeouts());
        assertEquals(MSS, s.cwnd());
        assertEquals(List.of(new TcpSenderCore.Send(0, MSS, true)), out);
        assertEquals(3_000 * MS, s.rtoDeadlineNs()); // backed off to 2 s
        out.clear();
        s.onAck(1_100 * MS, 1000, -1, new long[] {2000, 4000}, out);
        // cwnd 2 segments: resend 1000..2000, skip SACKed 2000..4000, send 4000..5000
        assertEquals(List.of(1000L, 4000L), out.stream().map(TcpSenderCore.Send::seq).toList());
    }

    @Test
    void stop_endsTheFlowOnceAcked() {
        TcpSenderCore s = sender(2);
        s.start(0, out);
        s.stop();
        out.clear();
        s.onAck(MS, 2000, -1, NONE, out);
        assertTrue(out.isEmpty());
        assertTrue(s.finished());
        assertEquals(-1, s.rtoDeadlineNs());
    }

    @Test
    void ackBeyondSentData_isRejected() {
        TcpSenderCore s = sender(2);
        s.start(0, out);
        assertThrows(IllegalArgumentException.class, () -> s.onAck(MS, 5000, -1, NONE, out));
    }

    @Test
    void receiver_reassemblesAndReportsSacks() {
        TcpReceiverCore r = new TcpReceiverCore();
        assertEquals(1000, r.onSegment(0, 1000));
        assertEquals(1000, r.onSegment(2000, 1000));
        assertArrayEquals(new long[] {2000, 3000}, r.sackBlocks(2000));
        assertEquals(1000, r.onSegment(4000, 1000));
        assertArrayEquals(new long[] {4000, 5000, 2000, 3000}, r.sackBlocks(4000));
        assertEquals(3000, r.onSegment(1000, 1000));
        assertEquals(3000, r.delivered());
        assertEquals(5000, r.onSegment(3000, 1000));
        assertEquals(0, r.sackBlocks(3000).length);
        assertEquals(5000, r.onSegment(0, 1000));
        assertEquals(1, r.duplicates());
    }

    @Test
    void rto_followsRfc6298() {
        RtoEstimator e = new RtoEstimator(1_000 * MS, 200 * MS, 60_000 * MS, MS, RtoEstimator.Rule.RFC_6298);
        e.sample(100 * MS);
        assertEquals(100 * MS, e.srtt());
        assertEquals(300 * MS, e.cto()); // 100 + 4 * 50
        e.sample(100 * MS);
        assertEquals(100 * MS + 4 * 37_500_000L, e.cto());
        e.backOff();
        assertEquals(2 * (100 * MS + 4 * 37_500_000L), e.cto());
        for (int i = 0; i < 20; i++) {
            e.backOff();
        }
        assertEquals(60_000 * MS, e.cto());
        assertThrows(IllegalArgumentException.class, () -> new RtoEstimator(100, 200, 300, MS, RtoEstimator.Rule.RFC_6298));
    }

    @Test
    void scoreboard_mergesRanges() {
        Scoreboard b = new Scoreboard();
        b.add(10, 20);
        b.add(30, 40);
        b.add(20, 30);
        assertEquals(30, b.sackedIn(0, 100));
        b.add(5, 12);
        assertEquals(35, b.sackedIn(0, 100));
        b.ackedUpTo(15);
        assertEquals(25, b.sackedIn(0, 100));
        assertEquals(40, b.highest(0));
        assertEquals(40, b.sackedEnd(15));
        assertEquals(-1, b.sackedEnd(40));
    }

    @Test
    void cubic_afterLossGrowsBackTowardsWmax() {
        Cubic c = new Cubic(MSS, 10);
        c.setCwnd(100 * MSS);
        c.onFastRetransmit(0, 100 * MSS);
        assertEquals(70 * MSS, c.cwnd());
        long t = 0;
        for (int i = 0; i < 20_000 && c.cwnd() < 100 * MSS; i++) {
            t += MS;
            c.onAck(t, MSS, 100 * MS);
        }
        // K = cbrt(100 * 0.3 / 0.4) = 4.2 s
        assertTrue(t > 3_000 * MS && t < 5_000 * MS, "reached W_max after " + t / MS + " ms");
    }
}
