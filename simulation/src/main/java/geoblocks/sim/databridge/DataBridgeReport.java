package geoblocks.sim.databridge;

import geoblocks.sim.harness.Charts;
import geoblocks.sim.harness.Csv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;

/**
 * The figures of a DataBridge comparison, live or simulated, in one shape: an aligned table (one row
 * per size and loss, direct and redirected side by side), CSV ({@code databridge.csv}), one JSON
 * object, and bar charts ({@code databridge.png}, one panel per loss) of the client's wait and the
 * time until home.
 */
public final class DataBridgeReport {
    public static final String CSV_HEADER = "path,bytes,loss_percent,wait_ms,home_ms,error";

    private DataBridgeReport() {}

    public static String header() {
        return String.format(Locale.ROOT, "%10s %6s | %12s %12s | %12s %12s | %s", "SIZE", "LOSS", "direct wait",
                "direct home", "bridge wait", "bridge home", "bridge wait / direct wait");
    }

    /** The table row of one size and loss (either result may be null while the other runs). */
    public static String row(long bytes, double loss, DataBridgeResult direct, DataBridgeResult redirect) {
        String ratio = direct != null && redirect != null && direct.ok() && redirect.ok()
                ? String.format(Locale.ROOT, "%.3g", redirect.waitMs() / direct.waitMs()) : "";
        return String.format(Locale.ROOT, "%10s %5s%% | %12s %12s | %12s %12s | %s", mb(bytes), Csv.num(loss, 1),
                seconds(direct, true), seconds(direct, false), seconds(redirect, true), seconds(redirect, false), ratio)
                + errors(direct, redirect);
    }

    private static String errors(DataBridgeResult... rs) {
        StringBuilder sb = new StringBuilder();
        for (DataBridgeResult r : rs) {
            if (r != null && !r.ok()) {
                sb.append("  [").append(r.path()).append(": ").append(r.error()).append(']');
            }
        }
        return sb.toString();
    }

    private static String seconds(DataBridgeResult r, boolean wait) {
        if (r == null) {
            return "-";
        }
        double ms = wait ? r.waitMs() : r.homeMs();
        return Double.isNaN(ms) ? "failed" : String.format(Locale.ROOT, "%.2f s", ms / 1000);
    }

    /** {@code bytes} in decimal MB (as the plan's sizes are usually given), or bytes below 1 MB. */
    public static String mb(long bytes) {
        return bytes >= 1_000_000 ? Csv.num(bytes / 1e6, bytes % 1_000_000 == 0 ? 0 : 2) + " MB" : bytes + " B";
    }

    /** The whole table: the header, then one row per size and loss in the plan's order. */
    public static List<String> table(List<DataBridgeResult> results) {
        List<String> out = new ArrayList<>();
        out.add(header());
        for (Map.Entry<String, DataBridgeResult[]> e : pairs(results).entrySet()) {
            DataBridgeResult[] p = e.getValue();
            DataBridgeResult any = p[0] != null ? p[0] : p[1];
            out.add(row(any.bytes(), any.lossPercent(), p[0], p[1]));
        }
        return out;
    }

    /** Direct and redirected result of each (size, loss), in first-seen order. */
    static Map<String, DataBridgeResult[]> pairs(List<DataBridgeResult> results) {
        Map<String, DataBridgeResult[]> m = new LinkedHashMap<>();
        for (DataBridgeResult r : results) {
            DataBridgeResult[] p = m.computeIfAbsent(r.bytes() + "@" + r.lossPercent(), k -> new DataBridgeResult[2]);
            p[DataBridgeResult.DIRECT.equals(r.path()) ? 0 : 1] = r;
        }
        return m;
    }

    public static String csvRow(DataBridgeResult r) {
        return r.path() + "," + r.bytes() + "," + Csv.num(r.lossPercent(), 2) + "," + Csv.num(r.waitMs(), 1) + ","
                + Csv.num(r.homeMs(), 1) + "," + r.error().replace(',', ';').replace('\n', ' ');
    }

    /** The results in a {@code databridge.csv} written by {@link #write} (to plot again, or to merge runs). */
    public static List<DataBridgeResult> readCsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || !lines.get(0).equals(CSV_HEADER)) {
            throw new IOException(file + " is not a databridge.csv (header must be '" + CSV_HEADER + "')");
        }
        List<DataBridgeResult> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(",", 6);
            if (f.length != 6) {
                throw new IOException(file + " line " + (i + 1) + ": expected 6 fields, got " + f.length);
            }
            try {
                out.add(new DataBridgeResult(f[0], Long.parseLong(f[1]), Double.parseDouble(f[2]), parse(f[3]),
                        parse(f[4]), f[5]));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static double parse(String v) {
        return v.isEmpty() ? Double.NaN : Double.parseDouble(v);
    }

    /** One JSON object: the plan's regions and every result. */
    public static String json(DataBridgePlan plan, String mode, List<DataBridgeResult> results) {
        StringBuilder sb = new StringBuilder("{\"experiment\":\"databridge\",\"mode\":\"").append(mode)
                .append("\",\"client_region\":\"").append(plan.near()).append("\",\"home\":\"").append(plan.home())
                .append("\",\"block_size\":").append(plan.blockSize()).append(",\"seed\":").append(plan.seed())
                .append(",\"results\":[");
        for (int i = 0; i < results.size(); i++) {
            DataBridgeResult r = results.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"path\":\"").append(r.path()).append("\",\"bytes\":").append(r.bytes())
                    .append(",\"loss_percent\":").append(Csv.num(r.lossPercent(), 2)).append(",\"wait_ms\":")
                    .append(jsonNum(r.waitMs())).append(",\"home_ms\":").append(jsonNum(r.homeMs()))
                    .append(",\"error\":\"").append(r.error().replace("\\", "\\\\").replace("\"", "\\\""))
                    .append("\"}");
        }
        return sb.append("]}").toString();
    }

    private static String jsonNum(double v) {
        return Double.isNaN(v) ? "null" : Csv.num(v, 1);
    }

    /** Writes {@code databridge.csv} and, when {@code plot}, {@code databridge.png} into {@code dir}. */
    public static void write(Path dir, String title, List<DataBridgeResult> results, boolean plot) throws IOException {
        Csv.write(dir.resolve("databridge.csv"), CSV_HEADER, results.stream().map(DataBridgeReport::csvRow).toList());
        if (!plot) {
            return;
        }
        Map<Double, List<DataBridgeResult[]>> byLoss = new LinkedHashMap<>();
        for (DataBridgeResult[] p : pairs(results).values()) {
            DataBridgeResult any = p[0] != null ? p[0] : p[1];
            byLoss.computeIfAbsent(any.lossPercent(), k -> new ArrayList<>()).add(p);
        }
        List<CategoryChart> panels = new ArrayList<>();
        for (Map.Entry<Double, List<DataBridgeResult[]>> e : byLoss.entrySet()) {
            List<DataBridgeResult[]> ps = e.getValue();
            List<String> categories = new ArrayList<>();
            double[][] series = new double[4][ps.size()];
            for (int i = 0; i < ps.size(); i++) {
                DataBridgeResult[] p = ps.get(i);
                categories.add(mb((p[0] != null ? p[0] : p[1]).bytes()));
                series[0][i] = seconds(p[0], true, 0);
                series[1][i] = seconds(p[0], false, 0);
                series[2][i] = seconds(p[1], true, 0);
                series[3][i] = seconds(p[1], false, 0);
            }
            Map<String, double[][]> bars = new LinkedHashMap<>();
            double[] none = new double[ps.size()];
            bars.put("direct: client waits", new double[][] {series[0], none});
            bars.put("direct: home", new double[][] {series[1], none});
            bars.put("DataBridge: client waits", new double[][] {series[2], none});
            bars.put("DataBridge: home", new double[][] {series[3], none});
            panels.add(Charts.bars(title + ", " + Csv.num(e.getKey(), 1) + " % loss", "seconds", categories, bars, 1100,
                    420));
        }
        Charts.writeStacked(dir.resolve("databridge.png"), panels);
    }

    private static double seconds(DataBridgeResult r, boolean wait, double missing) {
        if (r == null) {
            return missing;
        }
        double ms = wait ? r.waitMs() : r.homeMs();
        return Double.isNaN(ms) ? missing : ms / 1000;
    }
}
