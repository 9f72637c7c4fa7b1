package geoblocks.blockstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TransferCountersTest {
    @Test
    void eachTransportAndDirection_countsSeparately() {
        TransferCounters c = new TransferCounters();
        c.tcpSent(1);
        c.tcpReceived(20);
        c.ledbatSent(300);
        c.ledbatReceived(4000);
        c.ledbatReceived(5);
        assertEquals(1, c.tcpSent());
        assertEquals(20, c.tcpReceived());
        assertEquals(300, c.ledbatSent());
        assertEquals(4005, c.ledbatReceived());
    }

    @Test
    void negativeCount_isRejectedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TransferCounters().tcpSent(-7));
        assertTrue(e.getMessage().contains("-7"), e.getMessage());
    }
}
