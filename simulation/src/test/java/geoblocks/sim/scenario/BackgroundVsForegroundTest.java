package geoblocks.sim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.sim.harness.SimRunner;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * background-vs-foreground with the real nodes, scaled to a fifth (a 6.4 MiB foreground file, a
 * 40 MiB background copy, 3 s of warm-up) at RTT 40 ms, 20 Mbit/s and a 400 ms buffer, seed 1.
 * With the background over LEDBAT the foreground get keeps at least 95 % of its rate alone (issue
 * 23's aim; measured 102 % with LEDBAT's foreground-hold off, and 104 % with it on, its default:
 * the copy held at 2 % of the get's rate) while the copy falls to at most 10 % of the link (measured
 * 1.19 Mbit/s of 20 with the hold off, 0.89 with it on), and every
 * background byte rides LEDBAT; over TCP the copy takes about half the link from the get
 * (measured 54 % of its rate alone) and every byte rides TCP. Both copies complete and both gets
 * deliver the whole file (checked block by block against the manifest by the client). The same
 * seed gives the same time series.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackgroundVsForegroundTest {
    private final BackgroundVsForeground.Params params = BackgroundVsForeground.Params.defaults().scaled(0.2).withRttMs(40);
    private BackgroundVsForeground.Series ledbat;
    private BackgroundVsForeground.Series tcp;

    @BeforeAll
    void run() {
        List<BackgroundVsForeground.Series> all = BackgroundVsForeground.run(params, SimRunner::run);
        ledbat = all.get(0);
        tcp = all.get(1);
    }

    private void assertComplete(BackgroundVsForeground.Series s) {
        assertTrue(s.errors().isEmpty(), s.background() + ": " + s.errors());
        assertEquals(2, s.gets().size(), s.background() + ": " + s.gets());
        for (BackgroundVsForeground.Get g : s.gets()) {
            assertEquals(params.fgBytes(), g.bytes(), s.background() + ": " + g);
        }
        assertTrue(s.copiedMs() > 0, s.background() + ": the near node still owes copies");
        BackgroundVsForeground.Sample last = s.samples().get(s.samples().size() - 1);
        assertEquals(2 * params.fgBytes(), last.tcpBlock(), "both gets' blocks crossed as TCP block messages");
    }

    @Test
    void overLedbat_theForegroundKeepsItsRate_andTheBackgroundYields() {
        assertComplete(ledbat);
        BackgroundVsForeground.Metrics m = BackgroundVsForeground.metrics(params, ledbat);
        System.out.println(m.resultLine());
        assertTrue(m.fgWithBgMbps() >= 0.95 * m.fgAloneMbps(), m.resultLine());
        // the copy yields to the get's queueing delay (LEDBAT), and in this scenario its expectations
        // no longer outlive a restart (BackgroundExpectations); with foreground-hold on it is held at a share of the get
        assertTrue(m.bgDuringFgMbps() <= 0.1 * params.rateMbps(), m.resultLine());
        assertTrue(m.bgDuringFgMbps() <= 0.2 * params.rateMbps(), m.resultLine());
        assertTrue(m.bgDuringFgMbps() <= 0.3 * m.bgWarmupMbps(), m.resultLine() + " warm-up " + m.bgWarmupMbps());
        assertTrue(m.bgAloneMbps() >= 0.5 * params.rateMbps(), m.resultLine());
        BackgroundVsForeground.Sample last = ledbat.samples().get(ledbat.samples().size() - 1);
        assertEquals(0, last.tcpReplica(), "no background byte rode TCP");
        assertTrue(last.ledbat() >= params.bgBytes(), "every background byte rode LEDBAT: " + last);
    }

    @Test
    void overTcp_theBackgroundTakesHalfTheLinkFromTheForeground() {
        assertComplete(tcp);
        BackgroundVsForeground.Metrics m = BackgroundVsForeground.metrics(params, tcp);
        assertTrue(m.fgWithBgMbps() <= 0.75 * m.fgAloneMbps(), m.resultLine());
        assertTrue(m.bgDuringFgMbps() >= 0.3 * params.rateMbps(), m.resultLine());
        assertTrue(m.bgAloneMbps() >= 0.9 * params.rateMbps(), m.resultLine());
        BackgroundVsForeground.Sample last = tcp.samples().get(tcp.samples().size() - 1);
        assertEquals(params.bgBytes(), last.tcpReplica(), "every background byte rode TCP");
        assertEquals(0, last.ledbat(), "no background byte rode LEDBAT");
    }

    @Test
    void theBottleneckDropped_andTcpRecoveredEveryMessage() {
        for (BackgroundVsForeground.Series s : List.of(ledbat, tcp)) {
            long drops = s.result().linkTotals().stream().mapToLong(t -> t.drops()).sum();
            assertTrue(drops > 0, s.background() + ": the 400 ms buffer should overflow under TCP");
        }
    }

    @Test
    void sameSeed_givesTheSameTimeSeries() {
        BackgroundVsForeground.Params p = params.withBackgrounds(List.of("ledbat"));
        BackgroundVsForeground.Series again = BackgroundVsForeground.run(p, SimRunner::run).get(0);
        assertEquals(BackgroundVsForeground.timeseriesRows(p, List.of(ledbat)),
                BackgroundVsForeground.timeseriesRows(p, List.of(again)));
        assertEquals(BackgroundVsForeground.summaryRows(p, List.of(ledbat)),
                BackgroundVsForeground.summaryRows(p, List.of(again)));
    }
}
