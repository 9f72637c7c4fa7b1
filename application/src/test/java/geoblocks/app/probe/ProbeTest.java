package geoblocks.app.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProbeTest {
    @TempDir
    Path dir;

    /** A fake clock: sleeping and every operation advance it; nothing waits for real. */
    private static final class FakeTime {
        long nanos = 1_000_000_000L;
        final List<Long> sleeps = new ArrayList<>();

        long wallMillis() {
            return 1_795_000_000_000L + nanos / 1_000_000L;
        }
    }

    private static ProbeSettings settings(long everyMs, long count) {
        return new ProbeSettings("seoul", everyMs, List.of(1024L, 10_240L), count);
    }

    @Test
    void rounds_putThenGetEachSize_atTheirPeriod_rowsWellFormed() throws Exception {
        FakeTime t = new FakeTime();
        List<String> calls = new ArrayList<>();
        Probe.Ops ops = new Probe.Ops() {
            @Override
            public void put(String name, long key, long size) {
                calls.add("PUT " + name);
                t.nanos += 3_000_000L;
            }

            @Override
            public void get(String name, long key, long size) {
                calls.add("GET " + name);
                t.nanos += 2_000_000L;
            }
        };
        List<ProbeRow> rows = new ArrayList<>();
        new Probe(settings(60_000, 3), ops, () -> t.nanos, t::wallMillis, ms -> {
            t.sleeps.add(ms);
            t.nanos += ms * 1_000_000L;
        }).run(rows::add);
        assertEquals(List.of("PUT probe/seoul/1024", "GET probe/seoul/1024", "PUT probe/seoul/10240",
                "GET probe/seoul/10240"), calls.subList(0, 4));
        assertEquals(12, rows.size());
        assertEquals(List.of(59_990L, 59_990L), t.sleeps); // each round starts a period after the previous one
        for (ProbeRow r : rows) {
            assertTrue(r.ok());
            assertEquals(r.op().equals("PUT") ? 3.0 : 2.0, r.latencyMs(), 1e-9);
            String csv = r.toCsv();
            assertEquals(6, csv.split(",").length, csv);
            assertTrue(csv.matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z,seoul,(PUT|GET),\\d+,\\d+\\.\\d{3},ok"), csv);
            assertEquals(r, ProbeRow.parse(csv));
        }
        assertEquals(Instant.ofEpochMilli(1_795_000_000_000L + 1000 + 60_000), rows.get(4).timestamp());
    }

    @Test
    void failures_areRowsWithTheError_andTheProbeGoesOn() throws Exception {
        FakeTime t = new FakeTime();
        int[] n = {0};
        Probe.Ops ops = new Probe.Ops() {
            @Override
            public void put(String name, long key, long size) throws IOException {
                if (n[0]++ % 2 == 0) {
                    throw new IOException("cannot reach node seoul, \"connection refused\"\nretry later");
                }
            }

            @Override
            public void get(String name, long key, long size) {
                throw new IllegalStateException("a bug, not an IOException");
            }
        };
        List<ProbeRow> rows = new ArrayList<>();
        new Probe(settings(10, 2), ops, () -> t.nanos, t::wallMillis, ms -> t.nanos += ms * 1_000_000L).run(rows::add);
        assertEquals(8, rows.size());
        assertFalse(rows.get(0).ok());
        assertTrue(rows.get(2).ok());
        assertTrue(rows.stream().filter(r -> r.op().equals("GET")).noneMatch(ProbeRow::ok));
        String csv = rows.get(0).toCsv();
        assertTrue(csv.endsWith(",\"failed: cannot reach node seoul, \"\"connection refused\"\" retry later\""), csv);
        assertEquals(rows.get(0), ProbeRow.parse(csv));
        assertFalse(csv.contains("\n"));
    }

    @Test
    void row_badInput_isRefusedNamingIt() {
        assertThrows(IllegalArgumentException.class, () -> ProbeRow.parse("2026-01-01T00:00:00Z,seoul,PUT,1,2"));
        assertThrows(IllegalArgumentException.class, () -> ProbeRow.parse("yesterday,seoul,PUT,1,2.0,ok"));
        assertThrows(IllegalArgumentException.class, () -> ProbeRow.parse("2026-01-01T00:00:00Z,seoul,POST,1,2.0,ok"));
        assertThrows(IllegalArgumentException.class, () -> ProbeRow.parse("2026-01-01T00:00:00Z,seoul,GET,1,2.0,maybe"));
        assertThrows(IllegalArgumentException.class, () -> ProbeRow.parse("2026-01-01T00:00:00Z,seoul,GET,1,2.0,\"ok"));
    }

    @Test
    void settings_andCommandArguments_areValidatedWithClearMessages() {
        assertEquals(300_000, ProbeSettings.parseMillis("5m"));
        assertEquals(250, ProbeSettings.parseMillis("250ms"));
        assertEquals(3_600_000, ProbeSettings.parseMillis("1h"));
        assertEquals(List.of(1024L, 10_485_760L), ProbeSettings.parseSizes(List.of("1KB", "10MB")));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ProbeSettings.parseMillis("soon"))
                .getMessage().contains("'soon'"));
        for (String[] args : new String[][] {
                {"--every", "5m", "--out", "p.csv"}, {"--at", "seoul", "--every", "0s", "--out", "p.csv"},
                {"--at", "seoul", "--sizes", "2GB", "--out", "p.csv"}, {"--at", "seoul", "--count", "-1", "--out", "p.csv"},
                {"--at", "seoul"}, {"--at", "seoul", "--every", "fast", "--out", "p.csv"}}) {
            ProbeCommand c = new ProbeCommand();
            new CommandLine(c).parseArgs(args);
            assertThrows(IllegalArgumentException.class, c::settings, String.join(" ", args));
        }
    }

    @Test
    void summary_groupsByDayAndHour_withNearestRankMedianAndP90_failuresCountedApart() {
        List<ProbeRow> rows = new ArrayList<>();
        Instant h0 = Instant.parse("2026-11-22T10:05:00Z");
        for (int i = 1; i <= 10; i++) {
            rows.add(ProbeRow.ok(h0.plusSeconds(i), "seoul", "GET", 1024, i * 10.0));
        }
        rows.add(ProbeRow.failed(h0.plusSeconds(30), "seoul", "GET", 1024, 5000, "timeout"));
        rows.add(ProbeRow.ok(h0.plusSeconds(3600), "seoul", "PUT", 1024, 7));
        rows.add(ProbeRow.ok(h0.plusSeconds(86_400), "seoul", "GET", 1024, 1));
        List<ProbeSummary.Line> daily = ProbeSummary.of(rows, ProbeSummary.Period.DAY);
        assertEquals(List.of("2026-11-22,PUT,1024,1,0,7.000,7.000", "2026-11-22,GET,1024,11,1,50.000,90.000",
                "2026-11-23,GET,1024,1,0,1.000,1.000"), daily.stream().map(ProbeSummary.Line::toCsv).toList());
        List<ProbeSummary.Line> hourly = ProbeSummary.of(rows, ProbeSummary.Period.HOUR);
        assertEquals("2026-11-22T10:00Z,GET,1024,11,1,50.000,90.000", hourly.get(0).toCsv());
        assertEquals("2026-11-22T11:00Z,PUT,1024,1,0,7.000,7.000", hourly.get(1).toCsv());
        List<ProbeRow> onlyFailed = List.of(ProbeRow.failed(h0, "seoul", "PUT", 1, 1, "x"));
        assertEquals("2026-11-22,PUT,1,1,1,,", ProbeSummary.of(onlyFailed, ProbeSummary.Period.DAY).get(0).toCsv());
    }

    @Test
    void report_writesDailyHourlyCsvAndPng() throws Exception {
        Path csv = dir.resolve("probe.csv");
        List<String> lines = new ArrayList<>(List.of(ProbeRow.HEADER));
        Instant t = Instant.parse("2026-11-22T10:00:00Z");
        for (int i = 0; i < 48; i++) {
            Instant at = t.plusSeconds(i * 1800L);
            lines.add(ProbeRow.ok(at, "seoul", "PUT", 1024, 10 + i % 5).toCsv());
            lines.add(ProbeRow.ok(at, "seoul", "GET", 1024, 5 + i % 3).toCsv());
            lines.add(ProbeRow.failed(at, "seoul", "GET", 1 << 20, 30_000, "node seoul, down").toCsv());
        }
        Files.write(csv, lines);
        Path out = dir.resolve("report");
        assertEquals(0, new CommandLine(new ProbeReportCommand()).execute(csv.toString(), "--out", out.toString()));
        List<String> daily = Files.readAllLines(out.resolve("daily.csv"));
        assertEquals(ProbeSummary.HEADER, daily.get(0));
        assertTrue(daily.contains("2026-11-22,GET,1048576,28,28,,"), daily.toString());
        assertEquals(1 + 24 * 3, Files.readAllLines(out.resolve("hourly.csv")).size());
        byte[] png = Files.readAllBytes(out.resolve("hourly.png"));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
    }

    @Test
    void report_allRowsInOneHourOrOnlyFailures_stillDrawsThePng() throws Exception {
        Instant t = Instant.parse("2026-11-22T10:00:00Z");
        for (List<String> rows : List.of(
                List.of(ProbeRow.ok(t, "seoul", "PUT", 1024, 12).toCsv(), ProbeRow.ok(t, "seoul", "GET", 1024, 12).toCsv()),
                List.of(ProbeRow.failed(t, "seoul", "PUT", 1024, 12, "down").toCsv()))) {
            Path csv = Files.createTempFile(dir, "probe", ".csv");
            Files.write(csv, rows);
            Path out = Files.createTempDirectory(dir, "report");
            assertEquals(0, new CommandLine(new ProbeReportCommand()).execute(csv.toString(), "--out", out.toString()));
            assertTrue(Files.size(out.resolve("hourly.png")) > 1000);
        }
    }
}
