package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.FlowSample;
import geoblocks.sim.harness.SimRunner;
import geoblocks.sim.ledbat.LedbatOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Experiment 7 at small sizes (5 and 10 MB, Seoul client, Sao Paulo home, seed 1): the redirected
 * upload ends before the direct one, the more so with 2 % loss (the direct flow's rate is bound by
 * loss over a 298 ms RTT, the near one's over 10 ms), and the file is home later than the direct
 * upload would have put it there (the migration crosses the same long path, at LEDBAT's priority).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DataBridgeTest {
    private final DataBridge.Params p = new DataBridge.Params(1, List.of(5, 10), "seoul", "saopaulo", 100, 100, 10, 200,
            List.of(0.0, 0.02), "cubic", LedbatOptions.rfc(100), 4, 1 << 20, 3600);
    private final List<DataBridge.Outcome> out = new ArrayList<>();

    @BeforeAll
    void run() {
        DataBridge.runAll(p, SimRunner::run, out);
        out.forEach(System.out::println);
    }

    private DataBridge.Outcome at(int mb, double loss) {
        return out.stream().filter(o -> o.sizeMb() == mb && o.loss() == loss).findFirst().orElseThrow();
    }

    @Test
    void everyLegDeliversEverySize() {
        assertEquals(4, out.size());
        for (DataBridge.Outcome o : out) {
            assertTrue(o.directS() > 0 && o.nearS() > 0 && o.migrationS() > 0, o.toString());
        }
    }

    @Test
    void redirected_clientWaitsLess_andMoreSoWithLoss() {
        for (int mb : List.of(5, 10)) {
            DataBridge.Outcome clean = at(mb, 0.0);
            DataBridge.Outcome lossy = at(mb, 0.02);
            assertTrue(clean.nearS() < clean.directS(), clean.toString());
            assertTrue(lossy.nearS() < lossy.directS(), lossy.toString());
            assertTrue(lossy.directS() / lossy.nearS() > clean.directS() / clean.nearS(),
                    "speedup with loss " + lossy.directS() / lossy.nearS() + " vs without " + clean.directS() / clean.nearS());
        }
    }

    @Test
    void bigger_takesLonger_onEveryLeg() {
        for (double loss : List.of(0.0, 0.02)) {
            assertTrue(at(10, loss).directS() > at(5, loss).directS());
            assertTrue(at(10, loss).nearS() > at(5, loss).nearS());
            assertTrue(at(10, loss).migrationS() > at(5, loss).migrationS());
        }
    }

    @Test
    void secondsTo_interpolatesInOrderDeliveryAcrossFlows() {
        List<FlowSample> s = List.of(
                new FlowSample(200, "a", "tcp", 8, 0, 0, 0, 0),   // 200 kB in (0, 200] ms
                new FlowSample(200, "b", "tcp", 8, 0, 0, 0, 0),   // and 200 kB more in the other flow
                new FlowSample(400, "a", "tcp", 16, 0, 0, 0, 0)); // 400 kB in (200, 400]
        assertEquals(0.2, DataBridge.secondsTo(s, 400_000, 200), 1e-9);
        assertEquals(0.3, DataBridge.secondsTo(s, 600_000, 200), 1e-9);
        assertTrue(Double.isNaN(DataBridge.secondsTo(s, 900_000, 200)));
    }
}
