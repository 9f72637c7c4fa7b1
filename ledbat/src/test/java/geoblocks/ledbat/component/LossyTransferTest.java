package geoblocks.ledbat.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real UDP on loopback with a shim under the sender that drops 5 %, duplicates 2 % and reorders 5 %
 * of the packets in both directions (data and ACKs): the data still arrives intact and in order. The
 * sender hands its data packets down as NetBursts (the shim unpacks them); the packets a shim held
 * back reach both LEDBAT components in NetBursts (ACKs at the sender, data at the receiver, whose
 * shim only reorders).
 */
class LossyTransferTest {

    @Test
    void transfer_withLossDuplicationAndReordering_arrivesIntactAndInOrder() throws Exception {
        long bytes = 6L << 20;
        TransferResult r = Loopback.run(Loopback.addresses(), new LossyShim.ShimInit(7, 0.05, 0.02, 0.05), 2, bytes,
                100, Map.of("min-cto-ms", 50));
        assertEquals(0, r.done.getCount(), "streams still open; failure: " + r.firstFailure);
        assertEquals(0, r.failures.get());
        assertEquals(0, r.corruptBytes.get());
        assertEquals(0, r.outOfOrderDeliveries.get());
        for (long received : r.receivedBytes.values()) {
            assertEquals(bytes, received);
        }
        assertTrue(LossyShim.dropped > 100, "the shim must really drop packets: " + LossyShim.dropped);
        assertTrue(LossyShim.duplicated > 10 && LossyShim.reordered > 10);
        assertTrue(LossyShim.bursts > 10, "the sender must have sent NetBursts: " + LossyShim.bursts);
        assertTrue(LossyShim.burstsUp > 10, "the sender must have received NetBursts: " + LossyShim.burstsUp);
    }
}
