package geoblocks.sim.databridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataBridgeReportTest {
    private static final DataBridgeResult D = new DataBridgeResult("direct", 50_000_000, 2, 40_000, 40_000, "");
    private static final DataBridgeResult R = new DataBridgeResult("redirect", 50_000_000, 2, 1_000, 90_500.5, "");

    @Test
    void parseSizes_decimalAndBinaryUnits_andBytes() {
        assertEquals(List.of(50_000_000L, 5L << 20, 5L << 20, 1234L), DataBridgePlan.parseSizes(List.of("50MB", "5MiB", " 5M", "1234")));
        assertThrows(IllegalArgumentException.class, () -> DataBridgePlan.parseSizes(List.of("5 parsecs")));
        assertThrows(IllegalArgumentException.class, () -> DataBridgePlan.parseSizes(List.of("5\"MB")));
    }

    @Test
    void table_pairsDirectAndRedirect_perSizeAndLoss_withTheWaitRatio() {
        List<String> t = DataBridgeReport.table(List.of(D, R));
        assertEquals(2, t.size());
        assertTrue(t.get(1).contains("50 MB") && t.get(1).contains("2.0%"), t.get(1));
        assertTrue(t.get(1).contains("40.00 s") && t.get(1).contains("1.00 s") && t.get(1).contains("90.50 s"), t.get(1));
        assertTrue(t.get(1).endsWith("0.0250"), t.get(1));
    }

    @Test
    void failedUpload_showsFailedAndItsError() {
        DataBridgeResult f = new DataBridgeResult("redirect", 1_000_000, 0, 900, Double.NaN, "move timed out");
        String row = DataBridgeReport.table(List.of(f)).get(1);
        assertTrue(row.contains("failed") && row.contains("move timed out"), row);
        assertEquals("redirect,1000000,0.00,900.0,,move timed out", DataBridgeReport.csvRow(f));
        assertTrue(DataBridgeReport.json(DataBridgePlan.defaults(1), "live", List.of(f)).contains("\"home_ms\":null"));
    }

    @Test
    void write_givesCsvAndPng(@TempDir Path dir) throws Exception {
        DataBridgeReport.write(dir, "t", List.of(D, R), true);
        assertEquals(List.of(DataBridgeReport.CSV_HEADER, "direct,50000000,2.00,40000.0,40000.0,",
                "redirect,50000000,2.00,1000.0,90500.5,"), Files.readAllLines(dir.resolve("databridge.csv")));
        assertTrue(Files.size(dir.resolve("databridge.png")) > 1000);
        DataBridgeResult failed = new DataBridgeResult("redirect", 7, 2, 5, Double.NaN, "move failed, twice");
        DataBridgeReport.write(dir, "t", List.of(D, failed), false);
        List<DataBridgeResult> back = DataBridgeReport.readCsv(dir.resolve("databridge.csv"));
        assertEquals(D, back.get(0));
        assertEquals("move failed; twice", back.get(1).error());
        assertTrue(Double.isNaN(back.get(1).homeMs()));
        Files.writeString(dir.resolve("bad.csv"), "a,b\n");
        assertThrows(IOException.class, () -> DataBridgeReport.readCsv(dir.resolve("bad.csv")));
    }

    @Test
    void homeCheck_needsEveryBlockAtExactlyTheHome_andNothingPending() {
        Manifest.BlockRef home = new Manifest.BlockRef(10, 1, List.of("dublin"));
        Manifest.BlockRef near = new Manifest.BlockRef(10, 1, List.of("seoul"));
        Manifest.BlockRef both = new Manifest.BlockRef(10, 1, List.of("seoul", "dublin"));
        assertTrue(HomeCheck.isHome(stat(List.of(home, home), Map.of()), List.of("dublin")));
        assertFalse(HomeCheck.isHome(stat(List.of(home, near), Map.of()), List.of("dublin")));
        assertFalse(HomeCheck.isHome(stat(List.of(home, both), Map.of()), List.of("dublin")));
        assertFalse(HomeCheck.isHome(stat(List.of(home, home), Map.of(1, List.of("dublin"))), List.of("dublin")));
    }

    private static ClientPort.FileStat stat(List<Manifest.BlockRef> blocks, Map<Integer, List<String>> pending) {
        Manifest m = new Manifest("f", "id", 20, 10, "local", "2026-01-01T00:00:00Z", 0L, blocks);
        return new ClientPort.FileStat(m, true, pending);
    }
}
