package geoblocks.app.ledbat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ledbat plot}: draws a PNG from the real-link run's CSVs: throughput of the LEDBAT stream(s)
 * and of the TCP flow, LEDBAT's cwnd and its queuing delay, over time.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = "Plot LEDBAT CSV logs (and an optional TCP throughput CSV: time_s,throughput_mbps) to a PNG.")
public final class LedbatPlotCommand implements Callable<Integer> {
    @Option(names = "--log", paramLabel = "DIR", description = "Directory with stream-<i>.csv files.")
    Path logDir;

    @Option(names = "--series", paramLabel = "LABEL=CSV",
            description = "Instead of --log: a real-link run's series.csv (scripts/reallink/linkmetrics.py), labelled; repeatable, drawn side by side.")
    LinkedHashMap<String, Path> series = new LinkedHashMap<>();

    @Option(names = "--tcp", paramLabel = "CSV", description = "TCP throughput CSV (time_s,throughput_mbps).")
    Path tcpCsv;

    @Option(names = "--tcp-offset", paramLabel = "S", defaultValue = "0",
            description = "Seconds to add to the TCP CSV's time axis (when TCP started after LEDBAT).")
    double tcpOffset;

    @Option(names = "--out", required = true, paramLabel = "PNG", description = "Output PNG.")
    Path out;

    @Option(names = "--title", defaultValue = "LEDBAT vs TCP", description = "Plot title.")
    String title;

    @Override
    public Integer call() throws Exception {
        if (!series.isEmpty()) {
            List<Plotter.Series> bg = new ArrayList<>();
            List<Plotter.Series> tcp = new ArrayList<>();
            for (Map.Entry<String, Path> e : series.entrySet()) {
                Plotter.Series[] s = Plotter.readSeries(e.getValue(), e.getKey());
                bg.add(s[0]);
                tcp.add(s[1]);
            }
            Plotter.renderCompare(title, bg, tcp, out);
            System.out.println("wrote " + out);
            return 0;
        }
        if (logDir == null) {
            throw new IllegalArgumentException("give --log DIR or --series LABEL=CSV");
        }
        List<Plotter.Series> ledbat = Plotter.readLedbat(logDir);
        if (ledbat.isEmpty()) {
            throw new IllegalArgumentException("no stream-*.csv in " + logDir);
        }
        Plotter.Series tcp = tcpCsv == null ? null : Plotter.readTcp(tcpCsv, tcpOffset);
        Plotter.render(title, ledbat, tcp, out);
        System.out.println("wrote " + out);
        return 0;
    }
}
