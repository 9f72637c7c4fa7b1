package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** In-order delivery, reordering, duplicates, SACK bitmap and FIN. */
class ReceiveWindowTest {

    static byte[] p(int v) {
        return new byte[] {(byte) v};
    }

    @Test
    void onSegment_reorderedSegments_deliveredInOrderOnce() {
        ReceiveWindow r = new ReceiveWindow(64);
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, r.onSegment(2, p(2), false));
        assertEquals(ReceiveWindow.Outcome.OUT_OF_ORDER, r.onSegment(1, p(1), false));
        assertEquals(0, r.deliverableBytes());
        assertEquals(ReceiveWindow.Outcome.IN_ORDER, r.onSegment(0, p(0), false));
        assertArrayEquals(new byte[] {0, 1, 2}, r.drainDeliverable());
        assertEquals(3, r.next());
        assertEquals(2, r.outOfOrder());
    }

    @Test
    void onSegment_duplicates_countedNotDelivered() {
        ReceiveWindow r = new ReceiveWindow(64);
        r.onSegment(0, p(0), false);
        r.onSegment(2, p(2), false);
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, r.onSegment(0, p(0), false));
        assertEquals(ReceiveWindow.Outcome.DUPLICATE, r.onSegment(2, p(2), false));
        assertEquals(2, r.duplicates());
        assertArrayEquals(new byte[] {0}, r.drainDeliverable());
    }

    @Test
    void onSegment_tooFarAhead_dropped() {
        ReceiveWindow r = new ReceiveWindow(16);
        assertEquals(ReceiveWindow.Outcome.BEYOND_WINDOW, r.onSegment(1000, p(1), false));
        assertEquals(1, r.beyondWindow());
    }

    @Test
    void writeSack_marksHeldPacketsAfterCumulativeAck() {
        ReceiveWindow r = new ReceiveWindow(64);
        r.onSegment(0, p(0), false);
        r.onSegment(2, p(2), false);
        r.onSegment(4, p(4), false);
        r.onSegment(12, p(12), false);
        byte[] out = new byte[ReceiveWindow.MAX_SACK_BYTES];
        int len = r.writeSack(out);
        // next = 1: bit i = seq 2 + i -> seqs 2, 4, 12 are bits 0, 2, 10
        assertEquals(2, len);
        assertEquals(0b101, out[0]);
        assertEquals(0b100, out[1]);
    }

    @Test
    void writeSack_nothingHeld_isEmpty() {
        ReceiveWindow r = new ReceiveWindow(64);
        r.onSegment(0, p(0), false);
        assertEquals(0, r.writeSack(new byte[128]));
    }

    @Test
    void fin_completesOnlyWhenEverythingBeforeArrived() {
        ReceiveWindow r = new ReceiveWindow(64);
        r.onSegment(0, p(0), false);
        r.onSegment(2, new byte[0], true);
        assertFalse(r.isComplete());
        r.onSegment(1, p(1), false);
        assertTrue(r.isComplete());
        assertEquals(2, r.deliveredBytes());
        assertEquals(ReceiveWindow.Outcome.BEYOND_WINDOW, r.onSegment(3, p(3), false));
    }
}
