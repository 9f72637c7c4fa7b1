package geoblocks.ledbat.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real UDP on 127.0.0.1 through NettyNetwork: parallel streams of several MB arrive intact, in order,
 * multiplexed on the one flow to the peer (one cwnd, both streams counted on it).
 * The components read their settings from the Kompics config (LedbatInit without settings).
 */
class LoopbackTransferTest {

    @Test
    void transfer_twoStreamsOverLoopback_everyByteArrivesIntactAndInOrder() throws Exception {
        long bytes = 24L << 20;
        TransferResult r = Loopback.run(Loopback.addresses(), null, 2, bytes, 90, Map.of());
        assertEquals(0, r.done.getCount(), "streams still open; failure: " + r.firstFailure);
        assertEquals(0, r.failures.get());
        assertEquals(0, r.corruptBytes.get());
        assertEquals(0, r.outOfOrderDeliveries.get());
        assertEquals(2, r.receiverClosed.get());
        for (long received : r.receivedBytes.values()) {
            assertEquals(bytes, received);
        }
        for (long acked : r.senderClosedBytes.values()) {
            assertEquals(bytes, acked);
        }
        assertEquals(2, r.senderClosedBytes.size());
        // one flow to the one peer carried both streams, with one cwnd
        assertEquals(1, r.maxPeers.get());
        assertEquals(2, r.maxStreamsPerPeer.get());
        assertEquals(0, r.cwndMismatches.get());
        assertTrue(r.statsEvents.get() > 0);
    }
}
