package geoblocks.node;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Why a node cannot listen, said as it is (nothing is sent: a bind alone is tried). */
class PortsTest {
    @Test
    void anAddressOfAnotherHost_isNamedAsSuch_notAsAPortInUse() throws Exception {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): documentation only, never an address of this host
        String why = Ports.bindProblem(InetAddress.getByName("192.0.2.1"), 47100, "seoul");
        assertTrue(why != null && why.contains("192.0.2.1 is not an address of this host"), why);
    }

    @Test
    void aPortInUse_isSaidToBeInUse_andAFreeOneHasNoProblem() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket taken = new ServerSocket(0, 1, lo)) {
            String why = Ports.bindProblem(lo, taken.getLocalPort(), "seoul");
            assertTrue(why != null && why.contains("is in use: is node seoul already running?"), why);
        }
        assertNull(Ports.bindProblem(lo, Ports.freePort(lo), "seoul"));
    }
}
