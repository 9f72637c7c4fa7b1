package geoblocks.ledbat.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real UDP on loopback under a shim that refuses, as the kernel does with EMSGSIZE on a 1,420-byte
 * interface that does not fragment, every datagram above 1,392 bytes of UDP payload: the path MTU
 * search confirms a size above the base and at most 1,392 (PathMtuSearchTest shows it ends at 1,392),
 * no data packet is ever refused, and the transfer arrives intact.
 */
class PathMtuRefusedTransferTest {

    @Test
    void transfer_overA1420Interface_findsItsMtu_andNoDataIsRefused() throws Exception {
        long bytes = 4L << 20;
        TransferResult r = Loopback.run(Loopback.addresses(), new LossyShim.ShimInit(11, 0, 0, 0, 1420 - 28, true), 1,
                bytes, 100, Map.of());
        assertEquals(0, r.done.getCount(), "streams still open; failure: " + r.firstFailure);
        assertEquals(0, r.failures.get());
        assertEquals(0, r.corruptBytes.get());
        for (long received : r.receivedBytes.values()) {
            assertEquals(bytes, received);
        }
        assertEquals(0, LossyShim.oversizeData, "a data packet above the confirmed path MTU");
        assertTrue(LossyShim.oversizeProbes > 0, "probes above the path must have been tried");
        // how far the search got when the last statistics left depends on timing; never above the path
        assertTrue(r.pathMtu.get() > 1200 && r.pathMtu.get() <= 1392, "path MTU " + r.pathMtu.get());
    }
}
