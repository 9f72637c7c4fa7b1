package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sequence numbers, cumulative and selective ACKs, loss detection, retransmission, and streams multiplexed on the flow. */
class SendWindowTest {
    static final int MSS = 100;
    static final double BIG = 1e12;

    static List<Segment> sendAll(SendWindow w, long now, double cwnd) {
        List<Segment> out = new ArrayList<>();
        Segment s;
        while ((s = w.nextToSend(now, cwnd)) != null) {
            out.add(s);
        }
        return out;
    }

    static byte[] sack(int... bits) {
        byte[] b = new byte[4];
        for (int i : bits) {
            b[i >> 3] |= (byte) (1 << (i & 7));
        }
        return b;
    }

    @Test
    void smallerMss_cutsTheNextSegmentsSmaller_andLoseLargerThan_resendsOnlyTheLongOnesInFlight() {
        SendWindow w = new SendWindow(MSS, false);
        w.largeAbove(60);
        SendStream st = w.open(1);
        w.offer(st, new byte[350]);
        assertEquals(List.of(100, 100), sendAll(w, 0, 200).stream().map(Segment::length).toList());
        w.mss(80);   // the path's MTU went down
        assertEquals(List.of(80, 70), sendAll(w, 1, BIG).stream().map(Segment::length).toList());
        assertEquals(2, w.loseLargerThan(80), "the two 100-byte segments cannot pass");
        assertEquals(150, w.flightBytes());
        assertEquals(2, w.largeLost());
        List<Segment> again = sendAll(w, 2, BIG);
        assertEquals(List.of(0L, 1L), again.stream().map(Segment::seq).toList(), "only they go again (in parts)");
        assertTrue(again.get(0).isRetransmission());
    }

    @Test
    void offer_cutsMssSegmentsWithConsecutiveSeqs_acrossChunks() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[250]);
        w.offer(st, new byte[70]);
        List<Segment> segs = sendAll(w, 0, BIG);
        assertEquals(List.of(0L, 1L, 2L, 3L), segs.stream().map(Segment::seq).toList());
        assertEquals(List.of(100, 100, 100, 20), segs.stream().map(Segment::length).toList());
        assertEquals(320, w.flightBytes());
    }

    @Test
    void nextToSend_respectsCwndButAlwaysAllowsOneSegment() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[1000]);
        assertEquals(1, sendAll(w, 0, 10).size());
        assertEquals(0, sendAll(w, 0, 150).size());
        assertEquals(2, sendAll(w, 0, 300).size());
    }

    @Test
    void onAck_cumulativeAndSelective_countNewBytesOnce() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[500]);
        sendAll(w, 0, BIG);
        assertEquals(100, w.onAck(1, new byte[0], 0));
        assertEquals(200, w.onAck(1, sack(1, 2), 1));  // seqs 3 and 4
        assertEquals(0, w.onAck(1, sack(1, 2), 1));    // the same ACK again
        assertEquals(200, w.onAck(3, sack(0, 1), 1));  // seqs 1, 2 by cum; 4 already counted
        assertEquals(300, w.ackedBytes());             // cumulative bytes: seqs 0..2
    }

    @Test
    void onAck_threeLaterSegmentsAcked_marksLossAndRetransmitsFirst() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[600]);
        sendAll(w, 0, BIG);                          // seqs 0..5
        w.onAck(0, sack(0, 1), 1);                   // 1, 2 received
        assertEquals(0, w.lastLosses());
        w.onAck(0, sack(0, 1, 2), 1);                // 1, 2, 3: seq 0 is 3 transmissions behind
        assertEquals(1, w.lastLosses());
        assertEquals(1, w.lostPackets());
        Segment r = w.nextToSend(10, BIG);
        assertEquals(0, r.seq());
        assertTrue(r.isRetransmission());
        assertEquals(1, w.resentPackets());
    }

    /** Seqs 0..n-1, seq i sent at i ms (µs clock). */
    static SendWindow sentOneByOne(int n) {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[n * MSS]);
        for (int i = 0; i < n; i++) {
            w.nextToSend(i * 1000L, BIG);
        }
        return w;
    }

    @Test
    void reorderWindow_aLateSegmentIsNotLost_untilTheWindowHasPassed() {
        SendWindow w = sentOneByOne(12);
        w.onAck(100_000, 0, sack(0, 1, 2), 1);       // 1, 2, 3 before 0, no reorder window
        assertEquals(1, w.lastLosses(), "the duplicate threshold alone");

        w = sentOneByOne(12);
        w.reorderWindow(20_000);                     // 20 ms
        w.onAck(100_000, 0, sack(0, 1, 2), 1);       // 1, 2, 3 (sent 1-3 ms after 0) before 0
        assertEquals(0, w.lastLosses(), "within the window from the first ACK on");
        assertFalse(w.reorderingSeen());

        w = sentOneByOne(12);
        w.reorderWindow(20_000);
        w.onAck(100_000, 0, sack(0), 1);             // 1 before 0
        w.onAck(101_000, 2, sack(), 0);              // then 0: it was late, not lost
        assertTrue(w.reorderingSeen());
        assertEquals(1, w.reorderedPackets());
        // 3, 4, 5 (sent at 3..5 ms) arrive before 2 (sent at 2 ms): within the 20 ms window, not lost
        w.onAck(106_000, 2, sack(0, 1, 2), 1);
        assertEquals(0, w.lastLosses());
        assertEquals(0, w.detectLosses(120_000), "rackRtt 101 ms + 20 ms after 2 was sent is 123 ms");
        assertEquals(1, w.detectLosses(123_000));
        assertEquals(2, w.nextToSend(123_000, BIG).seq(), "seq 2 is resent");
        assertEquals(1, w.lostPackets());
    }

    @Test
    void reorderWindow_aSegmentThatStaysMissingIsLostOnTheNextAckAfterTheWindow() {
        SendWindow w = sentOneByOne(12);
        w.reorderWindow(5_000);
        w.onAck(100_000, 0, sack(0), 1);
        w.onAck(100_500, 2, sack(), 0);              // reordering seen
        w.onAck(105_000, 2, sack(0, 1, 2), 1);       // 3, 4, 5 but not 2: 2 + 100 + 5 > 105 ms
        assertEquals(0, w.lastLosses());
        w.onAck(107_500, 2, sack(0, 1, 2, 3), 1);    // 6 too, sent 4 ms after 2: still within the window
        assertEquals(0, w.lastLosses());
        w.onAck(110_000, 2, sack(0, 1, 2, 3, 4, 5), 1); // 8, sent 6 ms after 2, acked 102 ms later: 2 + 102 + 5 <= 110
        assertEquals(1, w.lastLosses());
    }

    @Test
    void onAck_lostRetransmission_isDetectedAgain() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[1000]);
        sendAll(w, 0, 400);                          // 0..3
        w.onAck(0, sack(0, 1, 2), 1);                // 0 lost
        assertEquals(0, w.nextToSend(1, BIG).seq()); // resend 0 (tx 4)
        sendAll(w, 1, BIG);                          // 4..9 (tx 5..10)
        w.onAck(0, sack(0, 1, 2, 3, 4, 5, 6), 1);    // still no 0, later ones arrive
        assertEquals(1, w.lastLosses());
        assertEquals(0, w.nextToSend(2, BIG).seq());
    }

    @Test
    void onTimeout_everythingInFlightIsResentInOrder() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[400]);
        sendAll(w, 0, BIG);
        w.onAck(0, sack(1), 1);                       // seq 2 sacked
        assertEquals(3, w.onTimeout());
        assertEquals(0, w.flightBytes());
        assertEquals(List.of(0L, 1L, 3L), sendAll(w, 5, BIG).stream().map(Segment::seq).toList());
    }

    @Test
    void onAck_beyondWhatWasSent_isInvalid() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[100]);
        sendAll(w, 0, BIG);
        assertEquals(-1, w.onAck(5, new byte[0], 0));
        assertEquals(100, w.flightBytes());
    }

    @Test
    void close_finRidesOnTheLastDataSegment_streamDoneWhenEverySegmentAcked() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[150]);
        w.close(st);
        List<Segment> segs = sendAll(w, 0, BIG);
        assertEquals(2, segs.size());
        assertFalse(segs.get(0).fin());
        assertTrue(segs.get(1).fin());
        assertEquals(50, segs.get(1).length());
        w.onAck(0, sack(0), 1);                       // the FIN segment (seq 1) selectively
        assertFalse(st.isDone());
        assertEquals(List.of(), w.completed());
        w.onAck(2, new byte[0], 0);
        assertTrue(st.isDone());
        assertEquals(List.of(st), w.completed());
        assertEquals(150, st.ackedBytes());
        assertEquals(150, w.ackedBytes());
        assertFalse(w.hasWork());
        assertFalse(w.hasOutstanding());
    }

    @Test
    void close_afterTheDataWasCut_sendsAnEmptyFin() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.offer(st, new byte[100]);
        assertEquals(1, sendAll(w, 0, BIG).size());
        w.close(st);
        w.close(st);                                  // idempotent
        List<Segment> segs = sendAll(w, 0, BIG);
        assertEquals(1, segs.size());
        assertTrue(segs.get(0).fin());
        assertEquals(0, segs.get(0).length());
        w.onAck(2, new byte[0], 0);
        assertTrue(st.isDone());
    }

    @Test
    void offer_afterClose_isRefused() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        w.close(st);
        assertThrows(IllegalStateException.class, () -> w.offer(st, new byte[1]));
    }

    @Test
    void streams_takeTurnsOneSegmentEach_inOneSequenceSpace() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream a = w.open(10);
        SendStream b = w.open(20);
        SendStream c = w.open(30);
        w.offer(a, new byte[300]);
        w.offer(b, new byte[100]);
        w.offer(c, new byte[200]);
        w.close(b);
        List<Segment> segs = sendAll(w, 0, BIG);
        assertEquals(List.of(10, 20, 30, 10, 30, 10), segs.stream().map(Segment::streamId).toList());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), segs.stream().map(Segment::seq).toList());
        assertTrue(segs.get(1).fin());
        assertEquals(600, w.flightBytes());
        assertEquals(300, a.sentBytes());
    }

    @Test
    void cwnd_gatesTheWholeFlow_notEachStream() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream a = w.open(1);
        SendStream b = w.open(2);
        w.offer(a, new byte[1000]);
        w.offer(b, new byte[1000]);
        assertEquals(3, sendAll(w, 0, 300).size());   // three segments in all, not three per stream
        assertEquals(300, w.flightBytes());
        assertEquals(0, sendAll(w, 0, 300).size());
    }

    @Test
    void onAck_reportsProgressAndCompletionPerStream() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream a = w.open(1);
        SendStream b = w.open(2);
        w.offer(a, new byte[200]);
        w.offer(b, new byte[100]);
        w.close(b);
        sendAll(w, 0, BIG);                           // a0 b0(FIN) a1
        w.onAck(2, new byte[0], 0);
        assertEquals(List.of(a, b), w.progressed());
        assertEquals(List.of(b), w.completed());
        assertEquals(100, a.ackedBytes());
        w.onAck(3, new byte[0], 0);
        assertEquals(List.of(a), w.progressed());
        assertEquals(List.of(), w.completed());       // a is not closed
        assertFalse(a.isDone());
    }

    @Test
    void loss_isDetectedByLaterSegmentsOfOtherStreams() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream a = w.open(1);
        SendStream b = w.open(2);
        w.offer(a, new byte[100]);
        w.close(a);                                   // a's only segment, its FIN: a tail
        w.offer(b, new byte[400]);
        sendAll(w, 0, BIG);                           // seqs: a0(FIN) b0 b1 b2 b3
        w.onAck(0, sack(0, 1, 2), 1);                 // b0..b2 arrive, a0 does not
        assertEquals(1, w.lastLosses());
        Segment r = w.nextToSend(1, BIG);
        assertEquals(0, r.seq());
        assertEquals(1, r.streamId());
        assertTrue(r.isRetransmission());
    }

    @Test
    void segments_carryTheOfferedBytes() {
        SendWindow w = new SendWindow(MSS, false);
        SendStream st = w.open(1);
        byte[] a = new byte[130];
        byte[] b = new byte[90];
        Arrays.fill(a, (byte) 1);
        Arrays.fill(b, (byte) 2);
        w.offer(st, a);
        w.offer(st, b);
        List<Segment> segs = sendAll(w, 0, BIG);
        byte[] second = Arrays.copyOfRange(segs.get(1).data(), segs.get(1).offset(),
                segs.get(1).offset() + segs.get(1).length());
        byte[] expect = new byte[100];
        Arrays.fill(expect, 0, 30, (byte) 1);
        Arrays.fill(expect, 30, 100, (byte) 2);
        assertArrayEquals(expect, second);
        assertNull(w.nextToSend(0, BIG));
    }
}
