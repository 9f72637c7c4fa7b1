package geoblocks.blockstore.core.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import geoblocks.blockstore.core.read.ReadOptions.Strategy;
import org.junit.jupiter.api.Test;

/** How a download's read options follow from what its request names and the node's default. */
class ReadOptionsTest {
    private static final ReadOptions HEDGED_LOAD = new ReadOptions(Strategy.HEDGED, true);
    private static final ReadOptions PARALLEL_RTT = new ReadOptions(Strategy.PARALLEL, false);

    @Test
    void resolve_nothingNamed_nodeDefaultFirstByRtt_isThePlainPath() {
        assertNull(ReadOptions.resolve("", "", ReadOptions.DEFAULT));
        assertNull(ReadOptions.resolve(null, " ", ReadOptions.DEFAULT));
    }

    @Test
    void resolve_nothingNamed_takesTheNodeDefault() {
        assertEquals(HEDGED_LOAD, ReadOptions.resolve("", "", HEDGED_LOAD));
        assertEquals(PARALLEL_RTT, ReadOptions.resolve("", "", PARALLEL_RTT));
    }

    @Test
    void resolve_whatTheRequestNames_wins_theRestFromTheNodeDefault() {
        assertEquals(new ReadOptions(Strategy.FIRST, false), ReadOptions.resolve("first", "rtt", HEDGED_LOAD),
                "first/rtt asked for explicitly is read so, whatever the node's default");
        assertEquals(new ReadOptions(Strategy.PARALLEL, true), ReadOptions.resolve("parallel", "", HEDGED_LOAD));
        assertEquals(new ReadOptions(Strategy.HEDGED, false), ReadOptions.resolve("", "rtt", HEDGED_LOAD));
        assertEquals(new ReadOptions(Strategy.FIRST, true), ReadOptions.resolve("", "load", ReadOptions.DEFAULT));
    }

    @Test
    void resolve_unknownNames_areRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReadOptions.resolve("fastest", "", HEDGED_LOAD));
        assertEquals("unknown read strategy 'fastest'; choose first, parallel or hedged", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ReadOptions.resolve("", "cost", ReadOptions.DEFAULT));
        assertEquals("unknown replica rank 'cost'; choose rtt or load", e.getMessage());
    }
}
