package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** In-order delivery with stream and FIN, reordering, duplicates, window limit and growth, SACK bitmap. */
class ReceiveWindowTest {
    /** What the sink got: "stream:firstByte" per segment, "+fin" on a FIN. */
    final List<String> got = new ArrayList<>();
    final ReceiveWindow.Sink sink = (stream, payload, fin) ->
            got.add(stream + ":" + (payload.length == 0 ? "-" : String.valueOf(payload[0])) + (fin ? "+fin" : ""));

    static byte[] p(int v) {
        return new byte[] {(byte) v};
    }

    @Test
    void onSegment_reorderedSegments_deliveredInOrderOnce() {
        ReceiveWindow r = new ReceiveWindow(64, 0, sink);
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, r.onSegment(2, 7, p(2), false));
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, r.onSegment(1, 8, p(1), true));
        assertEquals(List.of(), got);
        assertEquals(ReceiveWindow.Outcome.FILLED_GAP, r.onSegment(0, 7, p(0), false));
        assertEquals(List.of("7:0", "8:1+fin", "7:2"), got);
        assertEquals(3, r.next());
        assertEquals(2, r.outOfOrder());
        assertEquals(3, r.deliveredBytes());
    }

    @Test
    void onSegment_fillingPartOfAGap_isFilledGap_andPlainInOrderIsNot() {
        ReceiveWindow r = new ReceiveWindow(64, 0, sink);
        assertEquals(ReceiveWindow.Outcome.IN_ORDER, r.onSegment(0, 1, p(0), false));
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, r.onSegment(3, 1, p(3), false));
        // 1 fills part of the gap before 3: acknowledged at once (RFC 5681 section 4.2)
        assertEquals(ReceiveWindow.Outcome.FILLED_GAP, r.onSegment(1, 1, p(1), false));
        assertEquals(ReceiveWindow.Outcome.FILLED_GAP, r.onSegment(2, 1, p(2), false));
        assertEquals(4, r.next());
        assertEquals(ReceiveWindow.Outcome.IN_ORDER, r.onSegment(4, 1, p(4), false));
    }

    @Test
    void onSegment_duplicates_countedNotDelivered() {
        ReceiveWindow r = new ReceiveWindow(64, 0, sink);
        r.onSegment(0, 1, p(0), false);
        r.onSegment(2, 1, p(2), false);
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, r.onSegment(0, 1, p(0), false));
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, r.onSegment(2, 1, p(2), false));
        assertEquals(2, r.duplicates());
        assertEquals(List.of("1:0"), got);
    }

    @Test
    void onSegment_tooFarAhead_dropped() {
        ReceiveWindow r = new ReceiveWindow(20, 0, sink);   // rounded up to 32 packets
        assertEquals(ReceiveWindow.Outcome.BEYOND_WINDOW, r.onSegment(1000, 1, p(1), false));
        assertEquals(ReceiveWindow.Outcome.BEYOND_WINDOW, r.onSegment(32, 1, p(1), false));
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, r.onSegment(31, 1, p(1), false));
        assertEquals(2, r.beyondWindow());
    }

    @Test
    void buffer_growsAsSegmentsArriveFurtherAhead_keepingWhatItHolds() {
        ReceiveWindow r = new ReceiveWindow(8192, 0, sink);
        assertEquals(64, r.allocatedSlots());
        r.onSegment(5, 1, p(5), false);
        r.onSegment(63, 1, p(63), false);
        r.onSegment(1000, 1, p(100), false);
        assertEquals(1024, r.allocatedSlots());
        for (int q = 0; q < 1000; q++) {
            if (q != 5 && q != 63) {
                r.onSegment(q, 1, p(q), false);
            }
        }
        assertEquals(1001, r.next());
        assertEquals(1001, got.size());
        assertEquals("1:5", got.get(5));
        assertEquals("1:63", got.get(63));
        assertEquals("1:100", got.get(1000));
    }

    @Test
    void start_canBeAnySequenceNumber() {
        ReceiveWindow r = new ReceiveWindow(64, 500, sink);
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, r.onSegment(499, 1, p(1), false));
        assertEquals(ReceiveWindow.Outcome.IN_ORDER, r.onSegment(500, 1, p(2), false));
        assertEquals(501, r.next());
    }

    @Test
    void writeSack_marksHeldPacketsAfterCumulativeAck() {
        ReceiveWindow r = new ReceiveWindow(64, 0, sink);
        r.onSegment(0, 1, p(0), false);
        r.onSegment(2, 1, p(2), false);
        r.onSegment(4, 1, p(4), false);
        r.onSegment(12, 1, p(12), false);
        assertTrue(r.holdsOutOfOrder());
        byte[] out = new byte[ReceiveWindow.MAX_SACK_BYTES];
        int len = r.writeSack(out);
        // next = 1: bit i = seq 2 + i -> seqs 2, 4, 12 are bits 0, 2, 10
        assertEquals(2, len);
        assertEquals(0b101, out[0]);
        assertEquals(0b100, out[1]);
    }

    @Test
    void writeSack_nothingHeld_isEmpty() {
        ReceiveWindow r = new ReceiveWindow(64, 0, sink);
        r.onSegment(0, 1, p(0), false);
        assertEquals(0, r.writeSack(new byte[128]));
        assertFalse(r.holdsOutOfOrder());
    }
}
