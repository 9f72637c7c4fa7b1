package geoblocks.app.cli;

import geoblocks.sim.harness.Charts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code plot-series}: draws a CSV of time series (header {@code time_s,NAME,...}, one numeric row
 * per sample) as one line chart PNG, one line per column. Used by the real-link scripts.
 */
@Command(name = "plot-series", mixinStandardHelpOptions = true,
        description = "Plot a CSV (header time_s,NAME,...; numeric rows) as a line chart PNG, one line per column.")
public final class PlotSeriesCommand implements Callable<Integer> {
    @Option(names = "--csv", required = true, paramLabel = "CSV", description = "Input CSV.")
    Path csv;

    @Option(names = "--out", required = true, paramLabel = "PNG", description = "Output PNG.")
    Path out;

    @Option(names = "--title", defaultValue = "", description = "Chart title.")
    String title;

    @Option(names = "--y-label", defaultValue = "", description = "Y axis label.")
    String yLabel;

    @Override
    public Integer call() throws IOException {
        Files.createDirectories(out.toAbsolutePath().getParent());
        Charts.writeStacked(out, List.of(Charts.timeSeries(title, yLabel, read(csv), 1000, 450)));
        System.out.println("wrote " + out);
        return 0;
    }

    /** The columns after the first as series over the first ({x[], y[]} per column, in header order). */
    static Map<String, double[][]> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(csv + " is empty: expected a header time_s,NAME,...");
        }
        String[] header = lines.get(0).split(",");
        if (header.length < 2) {
            throw new IllegalArgumentException(csv + ": the header needs a time column and at least one series, was '"
                    + lines.get(0) + "'");
        }
        List<double[]> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] cells = lines.get(i).split(",");
            if (cells.length != header.length) {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + ": " + cells.length + " cells, the header has "
                        + header.length);
            }
            double[] row = new double[cells.length];
            for (int c = 0; c < cells.length; c++) {
                try {
                    row[c] = Double.parseDouble(cells[c].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(csv + " line " + (i + 1) + ": '" + cells[c] + "' is not a number");
                }
            }
            rows.add(row);
        }
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (int c = 1; c < header.length; c++) {
            double[][] xy = new double[2][rows.size()];
            for (int r = 0; r < rows.size(); r++) {
                xy[0][r] = rows.get(r)[0];
                xy[1][r] = rows.get(r)[c];
            }
            series.put(header[c].trim(), xy);
        }
        return series;
    }
}
