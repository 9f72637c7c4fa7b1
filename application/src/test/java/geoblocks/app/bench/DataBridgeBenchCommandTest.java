package geoblocks.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.databridge.DataBridgePlan;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DataBridgeBenchCommandTest {
    private static DataBridgeBenchCommand parse(String... args) {
        DataBridgeBenchCommand c = new DataBridgeBenchCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    @Test
    void defaults_areTheIssuesSizesAndLosses_seoulToDublin() {
        DataBridgePlan p = parse().plan();
        assertEquals(List.of(50_000_000L, 100_000_000L, 300_000_000L), p.sizes());
        assertEquals(List.of(0.0, 2.0), p.lossPercents());
        assertEquals("seoul", p.near());
        assertEquals("dublin", p.home());
        assertEquals(1 << 20, p.blockSize());
    }

    @Test
    void quickRun_sizesAndLossesAreOverridable() {
        DataBridgePlan p = parse("--sizes", "5MB,20MiB", "--loss-percent", "2%", "--near", "mumbai", "--home", "saopaulo",
                "--block-size", "256KiB").plan();
        assertEquals(List.of(5_000_000L, 20L << 20), p.sizes());
        assertEquals(List.of(2.0), p.lossPercents());
        assertEquals("mumbai", p.near());
        assertEquals(256 << 10, p.blockSize());
    }

    @Test
    void badArguments_failWithAMessageNamingTheValue_beforeAnyClusterStarts() {
        String[][] bad = {
            {"--sizes", "5XB"}, {"--sizes", "-5MB"}, {"--sizes", "0"}, {"--loss-percent", "50"}, {"--loss-percent", "x"},
            {"--loss-percent", "-1"}, {"--near", "dublin"}, {"--near", "atlantis"}, {"--home", "moon"},
            {"--block-size", "1KiB"}, {"--block-size", "8GiB"}, {"--timeout-s", "0"}, {"--sizes", "17GiB"},
            {"--via", "pigeon"},
        };
        for (String[] args : bad) {
            DataBridgeBenchCommand c = parse(args);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::plan, String.join(" ", args));
            String value = args[1].replace("%", "");
            assertTrue(e.getMessage().contains(value) || e.getMessage().contains("must differ")
                    || e.getMessage().contains("GiB") || e.getMessage().contains("block size"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("--near", "dublin").call());
        assertTrue(e.getMessage().contains("must differ"), e.getMessage());
    }
}
