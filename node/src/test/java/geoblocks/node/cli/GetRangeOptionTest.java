package geoblocks.node.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import org.junit.jupiter.api.Test;

class GetRangeOptionTest {
    @Test
    void parseRange_takesFirstDashLast() {
        assertEquals(new ClientPort.Range(0, 1023), ClientOps.Get.parseRange("0-1023"));
        assertEquals(new ClientPort.Range(7, 7), ClientOps.Get.parseRange(" 7 - 7 "));
    }

    @Test
    void parseRange_refusesWhatIsNotTwoOffsets_sayingWhat() {
        for (String bad : new String[] {"", "5", "-5", "a-b", "5-", "1-2-3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClientOps.Get.parseRange(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void parseRange_refusesLastBeforeFirst() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClientOps.Get.parseRange("9-5"));
        assertTrue(e.getMessage().contains("9-5"), e.getMessage());
    }
}
