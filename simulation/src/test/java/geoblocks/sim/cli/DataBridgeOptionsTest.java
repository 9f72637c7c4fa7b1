package geoblocks.sim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.scenario.DataBridge;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DataBridgeOptionsTest {
    private static DataBridge params(String... args) {
        SimulateCommand c = new SimulateCommand();
        new CommandLine(c).parseArgs(args);
        return c.databridge.params(c);
    }

    @Test
    void defaults_areTheIssuesPlan_withoutABottleneck() {
        DataBridge d = params("databridge");
        assertEquals(List.of(50_000_000L, 100_000_000L, 300_000_000L), d.plan().sizes());
        assertEquals(List.of(0.0, 2.0), d.plan().lossPercents());
        assertEquals("seoul", d.plan().near());
        assertEquals("dublin", d.plan().home());
        assertTrue(Double.isNaN(d.rateMbps()));
        assertEquals(1000, d.lanMbps());
        assertTrue(Double.isNaN(params("databridge", "--lan-mbps", "0").lanMbps()));
    }

    @Test
    void options_overrideSizesLossRegionsAndAddABottleneck() {
        DataBridge d = params("databridge", "--sizes", "5MB,1MiB", "--loss-percent", "1", "--from", "mumbai", "--to",
                "saopaulo", "--rate-mbps", "50", "--seed", "9", "--block-size", "256KiB");
        assertEquals(List.of(5_000_000L, 1L << 20), d.plan().sizes());
        assertEquals(List.of(1.0), d.plan().lossPercents());
        assertEquals("mumbai", d.plan().near());
        assertEquals("saopaulo", d.plan().home());
        assertEquals(9, d.plan().seed());
        assertEquals(256 << 10, d.plan().blockSize());
        assertEquals(50, d.rateMbps());
    }

    @Test
    void badOptions_failWithAClearMessage() {
        String[][] bad = {{"--loss-percent", "75", "75"}, {"--sizes", "5 lightyears", "5 lightyears"}, {"--sizes", "0", "was 0"},
            {"--block-size", "1KiB", "1024"}, {"--from", "dublin", "must differ"}, {"--to", "atlantis", "atlantis"},
            {"--rate-mbps", "-3", "-3"}, {"--lan-mbps", "-2", "-2"}};
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> params("databridge", b[0], b[1]), b[0] + " " + b[1]);
            assertTrue(e.getMessage().contains(b[2]), e.getMessage());
        }
    }
}
