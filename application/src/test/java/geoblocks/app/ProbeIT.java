package geoblocks.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import geoblocks.app.probe.ProbeRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe} against four real node processes: it writes well-formed rows, records a failure
 * per operation while the probed node is SIGKILLed, and carries on (ok rows again once the node
 * is back) until its count of rounds is done, exiting 0; {@code probe report} summarises the CSV.
 */
@ExtendWith(QuickLaunch.class)
class ProbeIT {
    @TempDir
    static Path work;
    static LocalCluster cluster;

    @BeforeAll
    static void start() throws IOException {
        cluster = LocalCluster.start(work.resolve("cluster"), false, List.of("-Xmx256m"));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    static List<ProbeRow> rows(Path csv) throws IOException {
        List<ProbeRow> rows = new ArrayList<>();
        if (!Files.exists(csv)) {
            return rows;
        }
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            if (!line.isEmpty()) {
                rows.add(ProbeRow.parse(line));
            }
        }
        return rows;
    }

    @Test
    void probe_survivesItsNodeBeingDown_andReportSummarises() throws Exception {
        Path csv = work.resolve("probe.csv");
        List<String> cmd = new ArrayList<>(LocalCluster.launcher(List.of()));
        cmd.addAll(List.of("probe", "--at", "dublin", "--every", "500ms", "--sizes", "1KB,100KB", "--count", "30",
                "--out", csv.toString(), "--config", cluster.configFile().toString(), "--timeout", "3000"));
        Process probe = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(work.resolve("probe.out").toFile()).start();
        try {
            ItSupport.await(60, "first ok rows", () -> ok(csv, 4));
            cluster.kill("dublin");
            int before = rowsOrEmpty(csv).size();
            ItSupport.await(60, "a failed row while dublin is down",
                    () -> rowsOrEmpty(csv).stream().skip(before).anyMatch(r -> !r.ok()));
            cluster.startNode("dublin");
            cluster.awaitListening("dublin");
            assertTrue(probe.waitFor(180, TimeUnit.SECONDS), "probe did not finish: " + Files.readString(work.resolve("probe.out")));
        } finally {
            probe.destroyForcibly();
        }
        assertEquals(0, probe.exitValue(), Files.readString(work.resolve("probe.out")));
        List<String> lines = Files.readAllLines(csv);
        assertEquals(ProbeRow.HEADER, lines.get(0));
        List<ProbeRow> rows = rows(csv);
        assertEquals(30 * 2 * 2, rows.size());
        List<ProbeRow> failed = rows.stream().filter(r -> !r.ok()).toList();
        assertFalse(failed.isEmpty());
        assertTrue(failed.stream().allMatch(r -> r.result().length() > "failed: ".length()), failed.toString());
        int lastFailed = rows.lastIndexOf(failed.get(failed.size() - 1));
        assertTrue(rows.subList(lastFailed + 1, rows.size()).stream().anyMatch(ProbeRow::ok),
                "no ok row after dublin came back");
        for (ProbeRow r : rows) {
            assertEquals("dublin", r.region());
            assertTrue(r.sizeBytes() == 1024 || r.sizeBytes() == 102_400, r.toString());
        }

        Path out = work.resolve("report");
        List<String> report = new ArrayList<>(LocalCluster.launcher(List.of()));
        report.addAll(List.of("probe", "report", csv.toString(), "--out", out.toString()));
        Process p = new ProcessBuilder(report).redirectErrorStream(true).redirectOutput(work.resolve("report.out").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(work.resolve("report.out")));
        List<String> daily = Files.readAllLines(out.resolve("daily.csv"));
        assertTrue(daily.size() >= 5, daily.toString()); // header + PUT and GET of 2 sizes (more when the run crossed midnight)
        assertTrue(Files.size(out.resolve("hourly.png")) > 1000);
    }

    private static boolean ok(Path csv, int n) {
        return rowsOrEmpty(csv).stream().filter(ProbeRow::ok).count() >= n;
    }

    private static List<ProbeRow> rowsOrEmpty(Path csv) {
        try {
            return rows(csv);
        } catch (IOException | IllegalArgumentException e) {
            return List.of(); // a row being written
        }
    }
}
