package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * One flow per peer: streams multiplexed on one {@link SenderFlow} share one congestion window, one
 * controller and one retransmission timer. Driven by a fake clock (µs), without processes; the
 * end-to-end cases run the sender and receiver cores through {@link FlowPair}.
 */
class SenderFlowTest {
    static final int MSS = 1400;
    static final long OWD = 40_000;   // one-way delay, µs (RTT 80 ms)

    static LedbatSettings settings(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return LedbatSettings.defaults(m);
    }

    static SenderFlow flow(LedbatSettings s) {
        return new SenderFlow(1, s, new BaseDelayHistory(s.baseHistoryMinutes));
    }

    static List<Segment> pump(SenderFlow f, long now) {
        List<Segment> out = new ArrayList<>();
        Segment s;
        while ((s = f.nextToSend(now)) != null) {
            out.add(s);
        }
        f.armTimer(now);
        return out;
    }

    static byte[] pattern(int stream, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (stream * 31 + i * 7 + (i >> 9));
        }
        return b;
    }

    @Test
    void fourStreams_shareOneInitialWindow() {
        SenderFlow f = flow(settings());
        for (int i = 0; i < 4; i++) {
            f.offer(f.open(i), new byte[100_000]);
        }
        List<Segment> first = pump(f, 0);
        // INIT_CWND = 2 MSS for the flow: two segments in all, not two per stream
        assertEquals(2, first.size());
        assertEquals(List.of(0, 0), first.stream().map(Segment::streamId).toList(), "fifo: the oldest stream first");
        assertEquals(4, f.streams().size());
        SenderFlow rr = flow(settings("stream-scheduling", "round-robin"));
        for (int i = 0; i < 4; i++) {
            rr.offer(rr.open(i), new byte[100_000]);
        }
        assertEquals(List.of(0, 1), pump(rr, 0).stream().map(Segment::streamId).toList(), "round robin: in turn");
    }

    @Test
    void lastSegmentOfABurst_asksForAnImmediateAck() {
        SenderFlow f = flow(settings());
        SendStream s = f.open(1);
        f.offer(s, new byte[10 * MSS]);
        Segment a = f.nextToSend(0);
        assertFalse(f.ackNow(a, 0));
        Segment b = f.nextToSend(0);
        assertTrue(f.ackNow(b, 0), "the window is full after the second segment");
        assertNull(f.nextToSend(0));
    }

    @Test
    void timeout_reactsOnceForTheWholeFlow_thenFailsEveryStreamAfterMaxTimeouts() {
        LedbatSettings s = settings("max-timeouts", 2);
        SenderFlow f = flow(s);
        for (int i = 0; i < 3; i++) {
            f.offer(f.open(i), new byte[5 * MSS]);
        }
        pump(f, 0);
        long cto = f.controller().rto().cto();
        assertEquals(SenderFlow.Tick.NOTHING, f.onTick(cto - 1));
        assertEquals(SenderFlow.Tick.RETRANSMIT, f.onTick(cto));
        assertEquals(2 * cto, f.controller().rto().cto(), "the CTO doubled once, not once per stream");
        assertEquals(MSS, f.controller().cwndBytes());
        List<Segment> resent = pump(f, cto);
        assertEquals(1, resent.size());
        assertTrue(resent.get(0).isRetransmission());
        assertEquals(SenderFlow.Tick.RETRANSMIT, f.onTick(3 * cto));
        pump(f, 3 * cto);
        assertEquals(SenderFlow.Tick.FAILED, f.onTick(7 * cto));
        assertEquals(3, f.streams().size(), "every open stream fails with the flow");
        assertEquals(3, f.timeouts());
    }

    @Test
    void aPathThatReorders_costsFewRetransmissions_onceTheReorderWindowIsOn() {
        // every segment held 0-5 ms more (uniform): with 1,400-byte segments sent back to back, many
        // arrive after later ones, as over the delay line with JITTER_MS=5
        FlowPair p = new FlowPair(settings(), OWD);
        p.reorder = new Random(11);
        p.reorderSpreadMicros = 5000;
        p.reorderAcks = true;
        SendStream s = p.sender.open(1);
        byte[] b = pattern(1, 4_000_000);
        p.sender.offer(s, b);
        p.sender.close(s);
        p.pump();
        p.runUntil(120_000_000);
        assertTrue(p.sender.isFinished());
        assertArrayEquals(b, p.received.get(1).toByteArray());
        assertTrue(p.sender.window().reorderingSeen());
        long resent = p.sender.window().resentPackets();
        long sent = p.sender.window().sentPackets();
        // nothing is lost on this path: every retransmission is spurious. The reorder window
        // (a quarter of the 80 ms minimum RTT) leaves the few before reordering was first seen.
        System.out.println("reordering path: resent " + resent + " of " + sent + ", lost " + p.sender.window().lostPackets()
                + ", done at " + p.now / 1000 + " ms, cwnd " + (long) p.sender.controller().cwnd());
        assertTrue(resent * 100 < sent, "resent " + resent + " of " + sent);
        assertTrue(p.now < 10_000_000, "4 MB took " + p.now / 1000 + " ms");
    }

    @Test
    void streamsToOnePeer_arriveIntactInOrder_despiteLossAndReordering() {
        FlowPair p = new FlowPair(settings(), OWD);
        Random loss = new Random(42);
        p.drop = tx -> loss.nextInt(100) < 3;      // 3 % of transmissions, retransmissions too
        p.reorder = new Random(7);
        int[] sizes = {300_000, 1, 0, 123_457, 64 * 1024};
        Map<Integer, byte[]> data = new HashMap<>();
        for (int i = 0; i < sizes.length; i++) {
            SendStream s = p.sender.open(100 + i);
            byte[] b = pattern(i, sizes[i]);
            data.put(100 + i, b);
            // offered in two parts where possible, to cut segments across chunks
            int half = b.length / 3;
            p.sender.offer(s, Arrays.copyOfRange(b, 0, half));
            p.sender.offer(s, Arrays.copyOfRange(b, half, b.length));
            p.sender.close(s);
        }
        p.pump();
        p.runUntil(120_000_000);
        assertTrue(p.sender.isFinished(), "every stream finished at the sender");
        assertEquals(sizes.length, p.senderDone.size());
        for (Map.Entry<Integer, byte[]> e : data.entrySet()) {
            byte[] got = p.received.containsKey(e.getKey()) ? p.received.get(e.getKey()).toByteArray() : new byte[0];
            assertArrayEquals(e.getValue(), got, "stream " + e.getKey());
            assertEquals(e.getValue().length, p.receiverClosed.get(e.getKey()), "stream " + e.getKey() + " closed");
        }
        System.out.println("resent " + p.sender.window().resentPackets() + " of " + p.transmissions + " transmissions");
        assertTrue(p.sender.window().resentPackets() > 0, "the loss was repaired by retransmissions");
        assertTrue(p.receiver.isQuiet());
    }

    @Test
    void roundRobin_streamsShareTheBandwidthInTurn() {
        FlowPair p = new FlowPair(settings("stream-scheduling", "round-robin"), OWD);
        List<SendStream> streams = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            SendStream s = p.sender.open(i);
            p.sender.offer(s, new byte[400_000]);
            streams.add(s);
        }
        p.pump();
        p.runUntil(2_000_000);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (SendStream s : streams) {
            min = Math.min(min, s.sentBytes());
            max = Math.max(max, s.sentBytes());
        }
        assertTrue(min > 0);
        assertTrue(max - min <= MSS, "round robin: sent bytes per stream differ by at most one segment, were "
                + min + ".." + max);
    }

    @Test
    void fifo_theOldestStreamSendsToItsEnd_soStreamsFinishOneAfterAnother() {
        FlowPair p = new FlowPair(settings("stream-scheduling", "fifo"), OWD);
        List<SendStream> streams = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SendStream s = p.sender.open(i);
            p.sender.offer(s, new byte[100_000]);
            p.sender.close(s);
            streams.add(s);
        }
        p.pump();
        p.runUntil(400_000);
        long first = streams.get(0).sentBytes();
        long second = streams.get(1).sentBytes();
        long third = streams.get(2).sentBytes();
        assertTrue(first > 0, "the oldest stream sends first");
        assertTrue(second == 0 || first >= 100_000, "the second starts only once the first has sent everything: "
                + first + " / " + second);
        assertTrue(third == 0 || second >= 100_000, "the third only after the second: " + second + " / " + third);
        p.runUntil(60_000_000);
        for (SendStream s : streams) {
            assertEquals(100_000, s.sentBytes(), "every stream is sent whole");
        }
    }

    @Test
    void aStreamJoiningARunningFlow_usesItsWindow_withoutASlowStartOfItsOwn() {
        FlowPair p = new FlowPair(settings("max-cwnd-bytes", 1 << 20, "stream-scheduling", "round-robin"), OWD);
        SendStream a = p.sender.open(1);
        p.sender.offer(a, new byte[50_000_000]);
        p.pump();
        p.runUntil(1_000_000);
        double cwnd = p.sender.controller().cwnd();
        assertTrue(cwnd >= 40 * MSS, "the flow's window grew: " + cwnd);
        SendStream b = p.sender.open(2);
        p.sender.offer(b, new byte[4_000_000]);
        p.pump();
        long start = p.now;
        p.runUntil(start + 2 * OWD + 1000);        // one RTT
        System.out.printf("flow cwnd %.0f bytes; the joining stream sent %d bytes in its first RTT%n", cwnd, b.sentBytes());
        // alone, a new flow would send INIT_CWND (2 MSS) in its first RTT, 4 in its second
        assertTrue(b.sentBytes() >= 10 * MSS, "the new stream sent " + b.sentBytes() + " bytes in its first RTT");
    }

    @Test
    void queuingDelayAboveTarget_shrinksTheOneSharedWindow() {
        FlowPair p = new FlowPair(settings("max-cwnd-bytes", 1 << 20), OWD);
        for (int i = 0; i < 4; i++) {
            p.sender.offer(p.sender.open(i), new byte[50_000_000]);
        }
        p.pump();
        p.runUntil(3_000_000);
        double before = p.sender.controller().cwnd();
        p.extraDelayMicros = 150_000;              // a queue of 150 ms: 1.5 x TARGET
        p.runUntil(6_000_000);
        double after = p.sender.controller().cwnd();
        System.out.printf("cwnd %.0f -> %.0f bytes with a 150 ms queue%n", before, after);
        assertTrue(p.sender.controller().queuingDelay() >= 140_000, "queuing delay seen: "
                + p.sender.controller().queuingDelay());
        assertTrue(after < before / 2, "the flow's cwnd " + before + " -> " + after);
        long flight = p.sender.window().flightBytes();
        assertTrue(flight <= after + MSS, "all four streams stay within the one window: flight " + flight
                + ", cwnd " + after);
    }
}
