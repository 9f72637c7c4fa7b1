package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** Demultiplexing a flow's in-order segments into streams; acknowledgement decisions; releasing a quiet flow. */
class ReceiverFlowTest {
    final List<String> out = new ArrayList<>();
    final ReceiverFlow.Delivery delivery = new ReceiverFlow.Delivery() {
        @Override
        public void data(int stream, long offset, byte[] data) {
            out.add("data " + stream + "@" + offset + "+" + data.length);
        }

        @Override
        public void closed(int stream, long bytes) {
            out.add("closed " + stream + " " + bytes);
        }
    };

    static byte[] b(int n) {
        return new byte[n];
    }

    @Test
    void segmentInParts_isDeliveredOnceWhole_inItsPlace_andALatePartIsADuplicate() {
        ReceiverFlow f = new ReceiverFlow(1, 1024, 0);
        assertEquals(null, f.onPart(0, 0, 10, 700, 1400, b(700), false), "half a segment is no segment");
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, f.onSegment(0, 1, 10, b(1000), false));
        assertEquals(ReceiveWindow.Outcome.FILLED_GAP, f.onPart(0, 0, 10, 0, 1400, b(700), false));
        f.flush(delivery);
        assertEquals(List.of("data 10@0+2400"), out);
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, f.onPart(0, 0, 10, 0, 1400, b(700), false));
        assertEquals(2, f.next());
    }

    @Test
    void interleavedStreams_areDeliveredPerStream_withOffsets_oneDeliveryPerStreamPerFlush() {
        ReceiverFlow f = new ReceiverFlow(1, 1024, 0);
        f.onSegment(0, 0, 10, b(100), false);
        f.onSegment(0, 1, 20, b(50), false);
        f.onSegment(0, 2, 10, b(100), false);
        f.onSegment(0, 3, 20, b(0), true);
        f.flush(delivery);
        assertEquals(List.of("data 10@0+200", "data 20@0+50", "closed 20 50"), out);
        out.clear();
        f.onSegment(0, 4, 10, b(30), true);
        f.flush(delivery);
        assertEquals(List.of("data 10@200+30", "closed 10 230"), out);
        assertTrue(f.isQuiet());
    }

    @Test
    void deliveredBytes_comeOutInOrder_asOneArrayOfExactlyTheirLength_aLonePayloadAsItIs() {
        List<byte[]> got = new ArrayList<>();
        ReceiverFlow.Delivery keep = new ReceiverFlow.Delivery() {
            @Override
            public void data(int stream, long offset, byte[] data) {
                got.add(data);
            }

            @Override
            public void closed(int stream, long bytes) {
            }
        };
        ReceiverFlow f = new ReceiverFlow(1, 1024, 0);
        byte[] lone = numbered(0, 700);
        f.onSegment(0, 0, 3, lone, false);
        f.flush(keep);
        assertTrue(got.get(0) == lone, "a lone payload is handed on without a copy");
        // three in order, then a gap filled: each flush gives one array, exact, bytes in order
        for (int round = 0; round < 3; round++) {
            got.clear();
            long base = 1 + round * 5L;
            f.onSegment(0, base, 3, numbered(1, 1400), false);
            f.onSegment(0, base + 1, 3, numbered(2, 1400), false);
            f.onSegment(0, base + 3, 3, numbered(4, 10), false);      // out of order, held
            f.onSegment(0, base + 2, 3, numbered(3, 1400), false);    // fills the gap
            f.onSegment(0, base + 4, 3, numbered(5, 1), false);
            f.flush(keep);
            assertEquals(1, got.size());
            byte[] expected = concat(numbered(1, 1400), numbered(2, 1400), numbered(3, 1400), numbered(4, 10),
                    numbered(5, 1));
            Assertions.assertArrayEquals(expected, got.get(0), "round " + round);
        }
    }

    static byte[] numbered(int seed, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }

    @Test
    void ackDue_onFinReorderingDuplicatesAckNowOrEveryNth() {
        ReceiverFlow f = new ReceiverFlow(1, 1024, 0);
        ReceiveWindow.Outcome o = f.onSegment(0, 0, 1, b(10), false);
        assertFalse(f.ackDue(o, false, 3));
        assertTrue(f.ackDue(o, true, 3), "ACK-NOW");
        o = f.onSegment(0, 1, 1, b(10), false);
        assertFalse(f.ackDue(o, false, 3));
        o = f.onSegment(0, 2, 1, b(10), false);
        assertTrue(f.ackDue(o, false, 3), "every third");
        f.flush(delivery);
        o = f.onSegment(0, 4, 1, b(10), false);
        assertTrue(f.ackDue(o, false, 8), "out of order");
        o = f.onSegment(0, 1, 1, b(10), false);
        assertTrue(f.ackDue(o, false, 8), "duplicate");
        f.flush(delivery);
        o = f.onSegment(0, 3, 1, b(0), false);
        f.flush(delivery);
        o = f.onSegment(0, 5, 2, b(0), true);
        assertTrue(f.ackDue(o, false, 8), "a stream ended");
        assertEquals(1, f.duplicates());
        assertEquals(1, f.outOfOrder());
    }

    @Test
    void aQuietFlow_releasesItsWindow_stillAcknowledgesRetransmissions_andTakesANewStreamAfter() {
        ReceiverFlow f = new ReceiverFlow(1, 1024, 0);
        f.onSegment(0, 0, 7, b(10), true);
        f.flush(delivery);
        f.release();
        assertFalse(f.holdsWindow());
        assertEquals(1, f.next());
        ReceiveWindow.Outcome o = f.onSegment(5, 0, 7, b(10), true);    // the FIN again: our ACK was lost
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, o);
        assertTrue(f.ackDue(o, false, 8));
        f.flush(delivery);
        assertEquals(List.of("data 7@0+10", "closed 7 10"), out);
        out.clear();
        o = f.onSegment(6, 2, 8, b(5), false);                             // a new stream, one segment lost before it
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, o);
        assertTrue(f.holdsWindow());
        f.release();
        assertTrue(f.holdsWindow(), "not quiet: a segment is held");
        f.onSegment(6, 1, 8, b(5), false);
        f.flush(delivery);
        assertEquals(List.of("data 8@0+10"), out);
        f.release();
        assertTrue(f.holdsWindow(), "not quiet: stream 8 is open");
        assertEquals(List.of(8), f.openStreams());
        assertEquals(6, f.lastHeard());
    }
}
