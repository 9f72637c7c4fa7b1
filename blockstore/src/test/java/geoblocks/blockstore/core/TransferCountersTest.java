package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.ClientOp;
import org.junit.jupiter.api.Test;

class TransferCountersTest {
    @Test
    void eachTransportAndDirection_countsSeparately() {
        TransferCounters c = new TransferCounters();
        c.tcpSent(1, false);
        c.tcpReceived(20, false);
        c.ledbatSent(300);
        c.ledbatReceived(4000);
        c.ledbatReceived(5);
        assertEquals(1, c.tcpSent());
        assertEquals(20, c.tcpReceived());
        assertEquals(300, c.ledbatSent());
        assertEquals(4005, c.ledbatReceived());
    }

    @Test
    void backgroundCopiesOverTcp_countInTcpAndInTheirClass() {
        TransferCounters c = new TransferCounters();
        c.tcpSent(100, false);
        c.tcpSent(30, true);
        c.tcpReceived(7, true);
        c.tcpReceived(5, false);
        assertEquals(130, c.tcpSent());
        assertEquals(30, c.tcpBackgroundSent());
        assertEquals(12, c.tcpReceived());
        assertEquals(7, c.tcpBackgroundReceived());
        ClientOp.Transfers t = new ClientOp.Transfers(c.tcpSent(),
                c.tcpReceived(), 1000, 2000, c.tcpBackgroundSent(), c.tcpBackgroundReceived());
        assertEquals(100, t.foregroundSent());
        assertEquals(1030, t.backgroundSent());
        assertEquals(5, t.foregroundReceived());
        assertEquals(2007, t.backgroundReceived());
    }

    @Test
    void negativeCount_isRejectedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TransferCounters().tcpSent(-7, true));
        assertTrue(e.getMessage().contains("-7"), e.getMessage());
    }
}
