package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.PeerOp;
import org.junit.jupiter.api.Test;

class ForegroundHoldTest {
    private static final long MS = 1_000_000L;

    @Test
    void firstForegroundMessage_isToldAtOnce_thenAtMostEveryQuarterHold() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        assertEquals(0, h.onForeground("dublin", 0, 0), "told at once, rate not known yet");
        assertEquals(-1, h.onForeground("dublin", 1 * MS, 0));
        assertEquals(-1, h.onForeground("dublin", 499 * MS, 0));
        assertTrue(h.onForeground("dublin", 500 * MS, 0) >= 0);
    }

    @Test
    void eachReport_carriesTheForegroundRateSinceTheReportBefore() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        assertEquals(0, h.onForeground("mumbai", 0, 1 << 20), "the first message's bytes are over no known time");
        assertEquals(-1, h.onForeground("mumbai", 250 * MS, 1 << 20));
        assertEquals(2L * (1 << 20) * 2, h.onForeground("mumbai", 500 * MS, 1 << 20), "2 MiB over 0.5 s");
        assertEquals(-1, h.onForeground("mumbai", 600 * MS, 0));
        assertEquals(0, h.onForeground("mumbai", 1_000 * MS, 0), "no bytes since");
        assertEquals(0, h.onForeground("mumbai", 3_000 * MS, 1 << 20), "the hold had ended: a new one, rate unknown");
    }

    @Test
    void aSteadyStreamOfBlocks_keepsTheHoldWithoutGaps_andCostsFewRequests() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        long heldUntil = -1;
        int told = 0;
        long lastRate = -1;
        for (long t = 0; t <= 60_000 * MS; t += 42 * MS) { // a 64 KiB block every 42 ms for a minute
            assertTrue(t < heldUntil || heldUntil < 0, "held at " + t / MS + " ms");
            long rate = h.onForeground("mumbai", t, 65_536);
            if (rate >= 0) {
                told++;
                heldUntil = t + h.holdNanos();
                lastRate = rate;
            }
        }
        assertTrue(told <= 60_000 / 500 + 2, told + " requests in a minute");
        assertEquals(65_536 * 1000.0 / 42, lastRate, 65_536 * 1000.0 / 42 * 0.02, "the stream's rate");
    }

    @Test
    void peersAreHeldApart() {
        ForegroundHold h = new ForegroundHold(2_000 * MS);
        assertEquals(0, h.onForeground("dublin", 0, 0));
        assertEquals(0, h.onForeground("mumbai", 1 * MS, 0), "another peer: told on its own");
        assertEquals(2_000 * MS, h.holdNanos());
    }

    @Test
    void foregroundBytes_countBlockData_notBackgroundReplicas() {
        assertEquals(5, ForegroundHold.foregroundBytes(new PeerOp.BlockData(1, 0, 5, 0, new byte[5])));
        assertEquals(3, ForegroundHold.foregroundBytes(new PeerOp.ReplicaData(1, "b", 0, 3, 0, false, new byte[3])));
        assertEquals(-1, ForegroundHold.foregroundBytes(new PeerOp.ReplicaData(1, "b", 0, 3, 0, true, new byte[3])));
        assertEquals(0, ForegroundHold.foregroundBytes(new PeerOp.FetchBlock(1, "b")));
        assertEquals(0, ForegroundHold.foregroundBytes(new PeerOp.FetchMore(1, 10)));
        assertEquals(-1, ForegroundHold.foregroundBytes(new PeerOp.FetchCancel(1)));
    }

    @Test
    void rejectsANonPositiveHold() {
        assertThrows(IllegalArgumentException.class, () -> new ForegroundHold(0));
    }
}
