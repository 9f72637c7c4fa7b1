package geoblocks.ledbat.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SegmentPartsTest {
    static byte[] segment(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 3);
        }
        return b;
    }

    @Test
    void parts_inAnyOrder_giveTheWholeSegment_onlyWhenEveryByteArrived() {
        byte[] whole = segment(1400);
        SegmentParts p = new SegmentParts();
        assertNull(p.add(9, 1, 1000, 1400, Arrays.copyOfRange(whole, 1000, 1400), true));
        assertNull(p.add(9, 1, 0, 1400, Arrays.copyOfRange(whole, 0, 500), false));
        assertEquals(1, p.waiting());
        assertArrayEquals(whole, p.add(9, 1, 500, 1400, Arrays.copyOfRange(whole, 500, 1000), false));
        assertEquals(0, p.waiting());
    }

    @Test
    void overlappingParts_ofTwoRetransmissionsCutAtDifferentSizes_join() {
        byte[] whole = segment(1400);
        SegmentParts p = new SegmentParts();
        assertNull(p.add(3, 1, 0, 1400, Arrays.copyOfRange(whole, 0, 1100), false));   // first cut: 1,100 + 300
        assertNull(p.add(3, 1, 0, 1400, Arrays.copyOfRange(whole, 0, 1000), false));   // second cut: 1,000 + 400
        assertArrayEquals(whole, p.add(3, 1, 1000, 1400, Arrays.copyOfRange(whole, 1000, 1400), false));
    }

    @Test
    void aPartThatDisagreesOnTheSegmentsLength_startsItOver() {
        SegmentParts p = new SegmentParts();
        assertNull(p.add(3, 1, 0, 1400, new byte[700], false));
        assertNull(p.add(3, 1, 700, 1300, new byte[500], false), "a different length: the 700 bytes before are dropped");
        assertEquals(1, p.waiting());
    }

    @Test
    void forgetBelow_dropsDeliveredSegments_andTheOldestIsEvictedBeyondTheLimit() {
        SegmentParts p = new SegmentParts();
        for (long s = 0; s < SegmentParts.MAX_SEGMENTS + 5; s++) {
            p.add(s, 1, 0, 100, new byte[10], false);
        }
        assertEquals(SegmentParts.MAX_SEGMENTS, p.waiting());
        p.forgetBelow(SegmentParts.MAX_SEGMENTS);
        assertEquals(5, p.waiting());
    }

    @Test
    void aPartOutsideItsSegment_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SegmentParts().add(1, 1, 1300, 1400, new byte[101], false));
    }
}
