package geoblocks.app.ledbat;

import java.nio.file.Path;
import java.util.List;
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
    @Option(names = "--log", required = true, paramLabel = "DIR", description = "Directory with stream-<i>.csv files.")
    Path logDir;

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
