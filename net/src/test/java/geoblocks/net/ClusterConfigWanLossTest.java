package geoblocks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class ClusterConfigWanLossTest {
    private static Config conf(String extra) {
        return ConfigFactory.parseString("geoblocks.cluster { emulate-wan = true, regions = ["
                + "{ id = seoul, address = \"127.0.0.1:1\" }, { id = dublin, address = \"127.0.0.1:2\" }]\n"
                + "rtt-ms { seoul { dublin = 252 } }\n" + extra + " }");
    }

    @Test
    void lossAndSeed_defaultToNoLossAndSeedOne() {
        ClusterConfig c = ClusterConfig.from(conf(""));
        assertEquals(0, c.wanLossRate());
        assertEquals(1, c.wanSeed());
    }

    @Test
    void lossPercent_isReadAsAFraction_withItsSeed() {
        ClusterConfig c = ClusterConfig.from(conf("wan-loss-percent = 2, wan-seed = 42"));
        assertEquals(0.02, c.wanLossRate(), 1e-12);
        assertEquals(42, c.wanSeed());
        assertEquals(0.05, c.withWanLoss(0.05, 3).wanLossRate(), 1e-12);
    }

    @Test
    void lossPercent_outOfRange_isRefused() {
        String m = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.from(conf("wan-loss-percent = 100"))).getMessage();
        assertTrue(m.contains("wan-loss-percent") && m.contains("100"), m);
        assertThrows(IllegalArgumentException.class, () -> ClusterConfig.from(conf("wan-loss-percent = -1")));
    }
}
