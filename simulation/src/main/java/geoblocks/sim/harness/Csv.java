package geoblocks.sim.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * Deterministic CSV output: fixed decimals in the root locale, NaN written as an empty field, files
 * written to a temporary sibling then moved into place, so the same samples always give the same
 * bytes and a reader never sees half a file.
 */
public final class Csv {
    private Csv() {}

    /** {@code v} with {@code decimals} digits, or "" for NaN. */
    public static String num(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "";
        }
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.startsWith("-") && Double.parseDouble(s) == 0 ? s.substring(1) : s;
    }

    public static void write(Path file, String header, List<String> rows) throws IOException {
        StringBuilder sb = new StringBuilder(header.length() + rows.size() * 48);
        sb.append(header).append('\n');
        for (String r : rows) {
            sb.append(r).append('\n');
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        Files.writeString(tmp, sb, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The timeseries.csv header of the LEDBAT scenarios. */
    public static final String TIMESERIES_HEADER = "time_s,flow,kind,throughput_mbps,cwnd_bytes,rtt_ms,queuing_delay_ms";

    /** One timeseries.csv row. */
    public static String timeseriesRow(FlowSample s) {
        return num(s.timeMs() / 1000.0, 1) + "," + s.flow() + "," + s.kind() + "," + num(s.throughputMbps(), 3) + ","
                + num(s.cwndBytes(), 0) + "," + num(s.rttMs(), 2) + "," + num(s.queuingDelayMs(), 2);
    }

    public static void writeTimeseries(Path file, List<FlowSample> samples) throws IOException {
        write(file, TIMESERIES_HEADER, samples.stream().map(Csv::timeseriesRow).toList());
    }

    public static void writeLinks(Path file, List<LinkSample> samples) throws IOException {
        write(file, "time_s,link,backlog_ms,drops,utilization", samples.stream()
                .map(s -> num(s.timeMs() / 1000.0, 1) + "," + s.link() + "," + num(s.backlogMs(), 2) + ","
                        + s.drops() + "," + num(s.utilization(), 4))
                .toList());
    }
}
