package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Output commit: nothing leaves before the writes it follows are synced; order kept; one sync at a time. */
class OutputGateTest {
    final List<String> out = new ArrayList<>();
    final OutputGate<String> gate = new OutputGate<>(out::add);

    @Test
    void noUnsyncedWrite_sendsAtOnce() {
        assertFalse(gate.offer("a", 0));
        assertEquals(List.of("a"), out);
        assertEquals(0, gate.held());
    }

    @Test
    void afterAWrite_heldUntilASyncCoversIt_andOneSyncCoversManyWrites() {
        assertTrue(gate.offer("ack-1", 1), "the first held event starts a sync covering write 1");
        assertFalse(gate.offer("ack-2", 2), "a sync is running: no second one");
        assertFalse(gate.offer("ack-3", 3));
        assertEquals(List.of(), out);
        assertEquals(1, gate.syncCovers());
        // the sync for write 1 ends: ack-1 leaves; writes 2 and 3 need the next sync, which covers both
        assertEquals(3, gate.synced(true, 3));
        assertEquals(List.of("ack-1"), out);
        assertEquals(-1, gate.synced(true, 3));
        assertEquals(List.of("ack-1", "ack-2", "ack-3"), out);
        assertEquals(2, gate.syncs());
        assertFalse(gate.offer("later", 3), "everything synced: straight out");
        assertEquals("later", out.get(3));
    }

    @Test
    void anEventWithNoNewWrite_stillWaitsBehindHeldOnes() {
        gate.offer("ack", 1);
        gate.synced(true, 1);
        gate.offer("x", 2);
        gate.offer("read-answer", 1); // its writes are synced, but it must not overtake "x"
        assertEquals(List.of("ack"), out);
        gate.synced(true, 2);
        assertEquals(List.of("ack", "x", "read-answer"), out);
    }

    @Test
    void failedSync_releasesNothing_andAsksForAnother() {
        gate.offer("a", 1);
        assertEquals(1, gate.synced(false, 1));
        assertEquals(List.of(), out);
        assertEquals(-1, gate.synced(true, 1));
        assertEquals(List.of("a"), out);
    }

    @Test
    void randomInterleavings_neverSendBeforeTheSync_andKeepOrder() {
        Random rnd = new Random(5);
        for (int round = 0; round < 200; round++) {
            List<long[]> sent = new ArrayList<>(); // {order, seq}
            long[] synced = {0};
            OutputGate<long[]> g = new OutputGate<>(e -> {
                assertTrue(e[1] <= synced[0], "event " + e[0] + " of write " + e[1] + " left before sync " + synced[0]);
                sent.add(e);
            });
            long writes = 0;
            long running = -1;
            int offered = 0;
            for (int step = 0; step < 100; step++) {
                int what = rnd.nextInt(3);
                if (what == 0) {
                    writes++;
                } else if (what == 1) {
                    if (g.offer(new long[] {offered++, writes}, writes)) {
                        running = g.syncCovers();
                    }
                } else if (running >= 0) {
                    synced[0] = running;
                    long next = g.synced(true, writes);
                    running = next;
                }
            }
            while (running >= 0) {
                synced[0] = running;
                running = g.synced(true, writes);
            }
            assertEquals(offered, sent.size(), "everything leaves once the syncs end");
            for (int i = 0; i < sent.size(); i++) {
                assertEquals(i, sent.get(i)[0], "in order");
            }
        }
    }
}
