package geoblocks.blockstore.core.ec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.ec.StripeLayout.FragmentRange;
import geoblocks.blockstore.core.ec.StripeLayout.Piece;
import java.util.List;
import org.junit.jupiter.api.Test;

class StripeLayoutTest {
    private static final ErasureCode C31 = new ErasureCode(3, 1);

    @Test
    void wholeStripes_needNoPadding() {
        StripeLayout l = new StripeLayout(C31, 4, 24);
        assertEquals(2, l.stripes());
        assertEquals(8, l.fragmentLength());
        assertEquals(0, l.paddingBytes());
        assertEquals(4, l.cellLength(1));
    }

    @Test
    void lastStripe_hasCellsOfCeilTailOverK_paddedWithFewerThanKBytes() {
        StripeLayout l = new StripeLayout(C31, 4, 12 + 7);
        assertEquals(2, l.stripes());
        assertEquals(7, l.tailBytes());
        assertEquals(3, l.tailCell());
        assertEquals(4 + 3, l.fragmentLength());
        assertEquals(2, l.paddingBytes());
        assertEquals(7, l.stripeBytes(1));
        assertEquals(12, l.blockOffset(1));
        assertEquals(4, l.fragmentOffset(1));
    }

    @Test
    void emptyAndOneByteBlocks() {
        StripeLayout empty = new StripeLayout(C31, 4, 0);
        assertEquals(0, empty.stripes());
        assertEquals(0, empty.fragmentLength());
        StripeLayout one = new StripeLayout(C31, 4, 1);
        assertEquals(1, one.stripes());
        assertEquals(1, one.fragmentLength());
        assertEquals(2, one.paddingBytes());
    }

    @Test
    void covering_readsOnlyTheStripesOfTheRange() {
        StripeLayout l = new StripeLayout(C31, 4, 12 * 5 + 7); // 5 full stripes, a tail of 7 bytes
        assertEquals(new FragmentRange(1, 2, 4, 8), l.covering(12, 12));
        assertEquals(new FragmentRange(0, 2, 0, 8), l.covering(11, 2));
        assertEquals(new FragmentRange(5, 6, 20, 23), l.covering(60, 7));
        assertEquals(0, l.covering(30, 0).length());
    }

    @Test
    void pieces_nameTheDataFragmentBytesOfTheRange() {
        StripeLayout l = new StripeLayout(C31, 4, 12 + 7); // tail cells of 3
        // bytes 2..13: stripe 0 cells 0 (2..4), 1 (4..8), 2 (8..12); stripe 1 cell 0 (12..14)
        assertEquals(List.of(new Piece(0, 2, 2, 2), new Piece(1, 0, 4, 4), new Piece(2, 0, 4, 8), new Piece(0, 4, 2, 12)),
                l.pieces(2, 12));
        // the tail: bytes 15..19 are cell 1 byte 0..2 (15, 16, 17) and cell 2 byte 0 (18)
        assertEquals(List.of(new Piece(1, 4, 3, 15), new Piece(2, 4, 1, 18)), l.pieces(15, 4));
    }

    @Test
    void rangesOutsideTheBlock_andBadSizes_areRefused() {
        StripeLayout l = new StripeLayout(C31, 4, 19);
        assertThrows(IllegalArgumentException.class, () -> l.covering(10, 10));
        assertThrows(IllegalArgumentException.class, () -> l.covering(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> l.pieces(0, -1));
        assertThrows(IllegalArgumentException.class, () -> l.cellLength(2));
        assertThrows(IllegalArgumentException.class, () -> new StripeLayout(C31, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new StripeLayout(C31, 4, -1));
    }
}
