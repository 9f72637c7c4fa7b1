package geoblocks.sim.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BottleneckLinkTest {
    private static final long MS = 1_000_000;

    @Test
    void offer_idleLink_departsAfterSerializationOnly() {
        BottleneckLink l = new BottleneckLink(new LinkSpec(10_000_000, 100_000));
        // 1500 bytes at 10 Mbit/s = 1.2 ms
        assertEquals(1_200_000, l.offer(0, 1500));
        assertEquals(0, l.lastQueueDelayNs());
    }

    @Test
    void offer_burst_queuesBackToBackWithSubMillisecondAccounting() {
        BottleneckLink l = new BottleneckLink(new LinkSpec(100_000_000, 1_000_000));
        long prev = 0;
        for (int i = 1; i <= 10; i++) {
            long d = l.offer(5 * MS, 1500);
            assertEquals(5 * MS + i * 120_000L, d, "packet " + i);
            assertTrue(d > prev);
            prev = d;
        }
        assertEquals(9 * 120_000L, l.lastQueueDelayNs());
        assertEquals(1_080_000L, l.backlogNs(5 * MS + 120_000));
    }

    @Test
    void offer_fullBuffer_dropsTail() {
        BottleneckLink l = new BottleneckLink(new LinkSpec(8_000_000, 4500)); // 1 byte/us
        assertTrue(l.offer(0, 1500) > 0);
        assertTrue(l.offer(0, 1500) > 0);
        assertTrue(l.offer(0, 1500) > 0);
        assertEquals(-1, l.offer(0, 1500));
        assertEquals(1, l.drops());
        // after the first packet left (1.5 ms) there is room for one more
        assertEquals(6_000_000, l.offer(1_500_000, 1500));
        assertEquals(-1, l.offer(1_500_000, 1500));
        assertEquals(2, l.drops());
        assertEquals(4, l.packets());
    }

    @Test
    void offer_spacedBelowCapacity_neverQueues() {
        BottleneckLink l = new BottleneckLink(new LinkSpec(10_000_000, 15_000));
        for (int i = 0; i < 100; i++) {
            l.offer(i * 2 * MS, 1500); // 6 Mbit/s offered
            assertEquals(0, l.lastQueueDelayNs());
        }
        assertEquals(0, l.drops());
        assertEquals(0.0, l.meanQueueDelayMs());
    }

    @Test
    void offer_overload_queueDelayGrowsToBufferThenDrops() {
        LinkSpec spec = LinkSpec.ofMbps(10, 100); // 125,000 bytes = 100 ms
        BottleneckLink l = new BottleneckLink(spec);
        long sent = 0;
        for (int ms = 0; ms < 2000; ms++) {
            for (int k = 0; k < 2; k++) { // 2 x 1500 B per ms = 24 Mbit/s
                l.offer(ms * MS, 1500);
                sent++;
            }
        }
        assertTrue(l.drops() > sent / 3, "drops " + l.drops());
        assertTrue(l.maxQueueDelayMs() <= 100.0 + 1e-9, "max " + l.maxQueueDelayMs());
        assertTrue(l.maxQueueDelayMs() > 98, "max " + l.maxQueueDelayMs());
        // delivered rate equals capacity: 2 s x 10 Mbit/s = 2.5 MB (minus what is still queued)
        assertTrue(Math.abs(l.bytes() - 2_500_000 - l.queuedBytes(2000 * MS)) <= 1500, "bytes " + l.bytes());
    }

    @Test
    void spec_rejectsBadValues() {
        assertThrows(IllegalArgumentException.class, () -> new LinkSpec(0, 10_000));
        assertThrows(IllegalArgumentException.class, () -> new LinkSpec(1_000, 100));
        assertThrows(IllegalArgumentException.class, () -> new BottleneckLink(new LinkSpec(1_000, 2_000)).offer(0, 0));
    }
}
