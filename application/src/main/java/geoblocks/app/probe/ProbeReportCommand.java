package geoblocks.app.probe;

import geoblocks.node.Sizes;
import geoblocks.sim.harness.Charts;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code probe report}: reads a probe CSV and writes {@code daily.csv} and {@code hourly.csv}
 * ({@link ProbeSummary}) and {@code hourly.png}: the hourly median latency of each op and size over
 * time, PUT above GET, on a logarithmic axis.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Summarise a probe CSV: daily and hourly median and p90 latency per op and size (CSV and PNG).")
public final class ProbeReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CSV", description = "A CSV written by probe.")
    Path csv;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory for daily.csv, hourly.csv, hourly.png.")
    Path out;

    @Override
    public Integer call() throws IOException {
        List<ProbeRow> rows = read(csv);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(csv + " has no probe rows");
        }
        Files.createDirectories(out);
        List<ProbeSummary.Line> daily = ProbeSummary.of(rows, ProbeSummary.Period.DAY);
        List<ProbeSummary.Line> hourly = ProbeSummary.of(rows, ProbeSummary.Period.HOUR);
        write(out.resolve("daily.csv"), daily);
        write(out.resolve("hourly.csv"), hourly);
        chart(rows, hourly, out.resolve("hourly.png"));
        System.out.printf("%d rows (%d failed) -> %s: daily.csv (%d lines), hourly.csv (%d lines), hourly.png%n",
                rows.size(), rows.stream().filter(r -> !r.ok()).count(), out, daily.size(), hourly.size());
        for (ProbeSummary.Line l : daily) {
            System.out.printf("  %s %-3s %9s: %d ops, %d failed, median %s ms, p90 %s ms%n", l.period(), l.op(),
                    Sizes.human(l.sizeBytes()), l.count(), l.failed(), fmt(l.medianMs()), fmt(l.p90Ms()));
        }
        return 0;
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.1f", v);
    }

    /** Every row of a probe CSV (the header line is skipped); a bad line fails naming its number. */
    static List<ProbeRow> read(Path csv) throws IOException {
        List<ProbeRow> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.isBlank() || line.equals(ProbeRow.HEADER)) {
                    continue;
                }
                try {
                    rows.add(ProbeRow.parse(line));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(csv + " line " + n + ": " + e.getMessage());
                }
            }
        }
        return rows;
    }

    private static void write(Path file, List<ProbeSummary.Line> lines) throws IOException {
        List<String> text = new ArrayList<>();
        text.add(ProbeSummary.HEADER);
        lines.forEach(l -> text.add(l.toCsv()));
        Files.write(file, text, StandardCharsets.UTF_8);
    }

    /** Hourly medians over hours since the first row's hour, one panel per op, one line per size. */
    private static void chart(List<ProbeRow> rows, List<ProbeSummary.Line> hourly, Path png) throws IOException {
        Instant first = rows.stream().map(ProbeRow::timestamp).min(Instant::compareTo).orElseThrow();
        long base = first.getEpochSecond() / 3600;
        List<XYChart> panels = new ArrayList<>();
        for (String op : List.of("PUT", "GET")) {
            Map<String, List<double[]>> bySize = new LinkedHashMap<>();
            for (ProbeSummary.Line l : hourly) {
                if (l.op().equals(op) && !Double.isNaN(l.medianMs())) {
                    long hour = Instant.parse(l.period().replace(":00Z", ":00:00Z")).getEpochSecond() / 3600;
                    bySize.computeIfAbsent(Sizes.human(l.sizeBytes()), k -> new ArrayList<>())
                            .add(new double[] {hour - base, l.medianMs()});
                }
            }
            Map<String, double[][]> series = new LinkedHashMap<>();
            bySize.forEach((size, points) -> {
                double[][] xy = new double[2][points.size()];
                for (int i = 0; i < points.size(); i++) {
                    xy[0][i] = points.get(i)[0];
                    xy[1][i] = points.get(i)[1];
                }
                series.put(size, xy);
            });
            XYChart c = Charts.timeSeries(op + ": hourly median latency", "ms (log)", series, 1000, 380);
            c.setXAxisTitle("hours since " + Instant.ofEpochSecond(base * 3600));
            c.getStyler().setMarkerSize(6); // an hour with one probe round is one point: show it
            c.getSeriesMap().values().forEach(x -> x.setMarker(SeriesMarkers.CIRCLE));
            c.getStyler().setYAxisLogarithmic(true);
            // whole decades around the data (XChart cannot label a log axis of one value)
            double lo = series.values().stream().flatMapToDouble(xy -> Arrays.stream(xy[1])).min().orElse(1);
            double hi = series.values().stream().flatMapToDouble(xy -> Arrays.stream(xy[1])).max().orElse(10);
            double decadeLo = Math.pow(10, Math.floor(Math.log10(Math.max(lo, 0.001))));
            c.getStyler().setYAxisMin(decadeLo);
            c.getStyler().setYAxisMax(Math.max(decadeLo * 10, Math.pow(10, Math.ceil(Math.log10(Math.max(hi, 0.001))))));
            // whole hours only; a blank (not empty) label elsewhere: XChart cannot lay out an empty string
            c.getStyler().setxAxisTickLabelsFormattingFunction(
                    x -> Math.abs(x - Math.rint(x)) < 1e-6 ? String.valueOf(Math.round(x)) : " ");
            c.getStyler().setXAxisMax(Math.max(1.0, c.getStyler().getXAxisMax() == null ? 1.0 : c.getStyler().getXAxisMax()));
            panels.add(c);
        }
        Charts.writeStacked(png, panels);
    }
}
