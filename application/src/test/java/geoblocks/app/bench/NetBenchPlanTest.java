package geoblocks.app.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.blockstore.wire.BenchOp.NetBenchResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class NetBenchPlanTest {
    private static NetBenchPlan plan(String from, String to, List<String> modes, int streams, List<Long> rates) {
        return new NetBenchPlan(from, to, modes, streams, 1 << 20, 1 << 20, rates, 1000, 1200);
    }

    @Test
    void runs_areEachModeWithOneAndNStreams_udpAtEveryRate() {
        NetBenchPlan p = plan("seoul", "dublin", List.of("tcp", "udp", "ledbat"), 4, List.of(10_000_000L, 1_000_000_000L));
        List<String> runs = p.runs().stream().map(r -> r.mode() + "/" + r.streams() + "/" + r.rateBps()).toList();
        assertEquals(List.of("tcp/1/0", "tcp/4/0", "udp/1/10000000", "udp/1/1000000000", "udp/4/10000000",
                "udp/4/1000000000", "ledbat/1/0", "ledbat/4/0"), runs);
        assertEquals(1_000_000_000L, p.headlineRate());
        assertEquals(2, plan("seoul", "dublin", List.of("tcp", "ledbat"), 1, List.of()).runs().size());
    }

    @Test
    void badPlans_areRefusedBeforeAnythingIsSent() {
        List<Long> r = List.of(1_000_000L);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan("seoul", "seoul", List.of("tcp"), 1, r))
                .getMessage().contains("two different regions"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan("seoul", "dublin", List.of("sctp"), 1, r))
                .getMessage().contains("'sctp'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan("seoul", "dublin", List.of("tcp"), 0, r))
                .getMessage().contains("was 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan("seoul", "dublin", List.of("udp"), 1, List.of()))
                .getMessage().contains("--udp-rates"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> plan("seoul", "dublin", List.of("tcp"), 1, r).checkRegions(List.of("seoul", "mumbai")))
                .getMessage().contains("'dublin'"));
    }

    @Test
    void parseRate_acceptsIperfSuffixesAndRefusesGarbage() {
        assertEquals(500_000, NetBenchPlan.parseRate("500K"));
        assertEquals(100_000_000, NetBenchPlan.parseRate("100m"));
        assertEquals(1_500_000_000L, NetBenchPlan.parseRate("1.5G"));
        assertEquals(64_000, NetBenchPlan.parseRate("64000"));
        for (String bad : new String[] {"", "fast", "-1M", "0", "1T"}) {
            assertThrows(IllegalArgumentException.class, () -> NetBenchPlan.parseRate(bad), bad);
        }
    }

    @Test
    void command_badArguments_failWithAClearMessage() {
        for (String[] args : new String[][] {
                {"--from", "seoul", "--to", "seoul"}, {"--from", "seoul", "--to", "dublin", "--streams", "99"},
                {"--from", "seoul", "--to", "dublin", "--udp-rates", "lots"},
                {"--from", "seoul", "--to", "dublin", "--udp-payload", "9000"},
                {"--from", "seoul", "--to", "dublin", "--bytes", "0"}}) {
            NetBenchCommand c = new NetBenchCommand();
            new CommandLine(c).parseArgs(args);
            assertThrows(IllegalArgumentException.class, c::plan, String.join(" ", args));
        }
        NetBenchCommand c = new NetBenchCommand();
        new CommandLine(c).parseArgs("--from", "seoul", "--to", "atlantis");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::call);
        assertTrue(e.getMessage().contains("'atlantis'"), e.getMessage());
    }

    @Test
    void report_computesMbitLossAndJitter_andTheJsonHasTheHeadlineKeys() {
        NetBenchResult tcp = new NetBenchResult(1, "tcp", 1, 0, 125_000_000, 120, 125_000_000, 120, 1_000_000_000L, 0);
        NetBenchResult udp = new NetBenchResult(2, "udp", 1, 1_000_000_000L, 1000 * 1200, 1000, 900 * 1200, 900,
                2_000_000_000L, 50_000);
        NetBenchResult ledbat = new NetBenchResult(3, "ledbat", 1, 0, 1 << 20, 1, 1 << 20, 1, 1_000_000_000L, 0);
        assertEquals(1000.0, NetBenchReport.mbps(tcp), 1e-9);
        assertEquals(10.0, NetBenchReport.lossPct(udp), 1e-9);
        assertEquals(0.05, NetBenchReport.jitterMs(udp), 1e-12);
        NetBenchPlan p = plan("seoul", "dublin", List.of("tcp", "udp", "ledbat"), 1, List.of(1_000_000_000L));
        String json = NetBenchReport.json(p, List.of(tcp, udp, ledbat));
        for (String key : List.of("\"tcp_mbps\":1000", "\"udp_mbps\":4.32", "\"udp_loss_pct\":10", "\"udp_jitter_ms\":0.05",
                "\"ledbat_mbps\":8.388608")) {
            assertTrue(json.contains(key), key + " in " + json);
        }
    }
}
