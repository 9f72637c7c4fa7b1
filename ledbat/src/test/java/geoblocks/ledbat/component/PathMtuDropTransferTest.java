package geoblocks.ledbat.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real UDP on loopback under a shim whose path narrows mid-transfer: after 3,000 datagrams every one
 * above 1,252 bytes of UDP payload is dropped silently (a route change onto a 1280 link whose narrow
 * hop sends no error). The search finds the black hole and falls back, the segments cut at the old
 * size are sent again in parts that fit, and the transfer still arrives intact.
 */
class PathMtuDropTransferTest {

    @Test
    void transfer_whoseSilentPathNarrowsMidway_fallsBack_andArrivesIntact() throws Exception {
        long bytes = 16L << 20;
        TransferResult r = Loopback.run(Loopback.addresses(), new LossyShim.ShimInit(17, 1280 - 28, false, 3000), 1,
                bytes, 100, Map.of());
        assertEquals(0, r.done.getCount(), "streams still open; failure: " + r.firstFailure);
        assertEquals(0, r.failures.get());
        assertEquals(0, r.corruptBytes.get());
        assertEquals(0, r.outOfOrderDeliveries.get());
        for (long received : r.receivedBytes.values()) {
            assertEquals(bytes, received);
        }
        assertTrue(LossyShim.oversizeData > 0, "full-size data must have met the narrowed path");
        assertTrue(LossyShim.parts > 0, "segments cut before the drop must have been sent again in parts");
        assertTrue(r.pathMtu.get() >= 1200 && r.pathMtu.get() <= 1252, "path MTU " + r.pathMtu.get());
    }
}
