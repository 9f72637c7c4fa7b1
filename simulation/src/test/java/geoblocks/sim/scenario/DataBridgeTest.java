package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.databridge.DataBridgeResult;
import geoblocks.sim.harness.SimRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** simulate databridge with small files: the comparison's shape, each upload home, and determinism. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DataBridgeTest {
    private static final long SIZE = 1_000_000;
    private final DataBridge sim = new DataBridge(new DataBridgePlan(List.of(SIZE), List.of(0.0, 2.0), "seoul", "dublin",
            256 << 10, 5), Double.NaN, 200, 1000);
    private List<DataBridgeResult> results;

    @BeforeAll
    void run() {
        results = sim.run(SimRunner::run, new PrintStream(new ByteArrayOutputStream()));
    }

    private DataBridgeResult get(String path, double loss) {
        return results.stream().filter(r -> r.path().equals(path) && r.lossPercent() == loss).findFirst().orElseThrow();
    }

    @Test
    void everyUpload_endsHome_withTheClientWaitingNoLongerThanUntilHome() {
        assertEquals(4, results.size());
        for (DataBridgeResult r : results) {
            assertTrue(r.ok(), r.toString());
            assertEquals(SIZE, r.bytes());
            assertTrue(r.waitMs() > 0 && r.homeMs() >= r.waitMs(), r.toString());
        }
        // direct: the put at home with ack all returns when the object is home
        assertEquals(get("direct", 2).waitMs(), get("direct", 2).homeMs());
    }

    @Test
    void redirected_clientWaitsOnTheLan_whileDirectWaitsOnTheWan() {
        for (double loss : List.of(0.0, 2.0)) {
            DataBridgeResult d = get("direct", loss);
            DataBridgeResult r = get("redirect", loss);
            assertTrue(d.waitMs() > 252, "direct crosses a 252 ms RTT at least once: " + d);
            assertTrue(r.waitMs() * 3 < d.waitMs(), r + " vs " + d);
            // the migration crosses the same WAN afterwards
            assertTrue(r.homeMs() > 252, r.toString());
        }
        assertTrue(get("direct", 2).waitMs() > get("direct", 0).waitMs(), "loss slows the direct upload");
    }

    @Test
    void sameSeed_sameFigures() {
        DataBridgeResult again = DataBridge.result("redirect", SIZE, 2,
                SimRunner.run(sim.simPlan(SIZE, 2, DataBridgeResult.REDIRECT)));
        assertEquals(get("redirect", 2), again);
    }

    @Test
    void badParameters_areRefused() {
        DataBridgePlan p = DataBridgePlan.defaults(1);
        assertThrows(IllegalArgumentException.class, () -> new DataBridge(p, 0, 200, 1000));
        assertThrows(IllegalArgumentException.class, () -> new DataBridge(p, 10, 0, 1000));
        assertThrows(IllegalArgumentException.class, () -> new DataBridge(new DataBridgePlan(List.of(1L), List.of(0.0),
                "seoul", "atlantis", 1 << 20, 1), Double.NaN, 200, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new DataBridge(p, Double.NaN, 200, -1));
    }
}
