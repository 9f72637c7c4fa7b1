package geoblocks.ledbat.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real UDP on loopback under a shim that silently drops every datagram above 1,252 bytes of UDP
 * payload (a 1,280-byte path whose narrow hop sends no error back): data starts at the base size,
 * probes above the path are lost (and never counted as congestion), no data packet is ever sent above
 * what a probe confirmed, and the transfer arrives intact.
 */
class PathMtuBlackHoleTransferTest {

    @Test
    void transfer_overASilent1280Path_neverSendsDataAboveTheConfirmedSize() throws Exception {
        long bytes = 8L << 20;
        TransferResult r = Loopback.run(Loopback.addresses(), new LossyShim.ShimInit(13, 0, 0, 0, 1280 - 28, false), 1,
                bytes, 100, Map.of());
        assertEquals(0, r.done.getCount(), "streams still open; failure: " + r.firstFailure);
        assertEquals(0, r.failures.get());
        assertEquals(0, r.corruptBytes.get());
        for (long received : r.receivedBytes.values()) {
            assertEquals(bytes, received);
        }
        assertEquals(0, LossyShim.oversizeData, "a data packet above the confirmed path MTU");
        assertTrue(LossyShim.oversizeProbes > 0, "probes above the path must have been lost");
        assertTrue(r.pathMtu.get() >= 1200 && r.pathMtu.get() <= 1252, "path MTU " + r.pathMtu.get());
    }
}
