package geoblocks.sim.cli;

import geoblocks.net.RttMatrix;
import geoblocks.sim.scenario.BackgroundVsForeground;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Options of {@code simulate background-vs-foreground}; it also reads the shared --seed, --from,
 * --to, --rtt-ms, --buffer-ms (default 400) and, when given, --rate-mbps (default 20) and --tcp
 * (default cubic).
 */
final class BackgroundVsForegroundOptions {
    @Option(names = "--scale", description = "background-vs-foreground: file sizes (32 and 200 MiB) and warm-up"
            + " times this factor, for quick runs (default ${DEFAULT-VALUE})")
    double scale = 1;

    @Option(names = "--warmup-s", description = "background-vs-foreground: seconds the background copy runs alone"
            + " before the second get (default 15, times --scale, at least 2)")
    Double warmupS;

    @Option(names = "--background", description = "background-vs-foreground: background transport ledbat | tcp | both"
            + " (default ${DEFAULT-VALUE}); this scenario's defaults for --rate-mbps and --tcp are 20 and cubic")
    String background = "both";

    BackgroundVsForeground.Params params(SimulateCommand c) {
        BackgroundVsForeground.Params d = BackgroundVsForeground.Params.defaults();
        List<String> backgrounds = switch (background) {
            case "both" -> List.of("ledbat", "tcp");
            case "ledbat", "tcp" -> List.of(background);
            default -> throw new IllegalArgumentException("--background must be ledbat, tcp or both, was '" + background
                    + "'");
        };
        double rtt = c.rttMs != null ? c.rttMs : RttMatrix.specDefaults().rttMs(c.from, c.to);
        BackgroundVsForeground.Params p = new BackgroundVsForeground.Params(c.seed,
                c.given("--rate-mbps") ? c.rateMbps : d.rateMbps(), c.bufferMs != null ? c.bufferMs : d.bufferMs(),
                c.from, c.to, rtt, d.fgBytes(), d.bgBytes(), d.blockSize(), d.warmupS(),
                c.given("--tcp") ? c.tcp : d.tcpCc(), backgrounds);
        if (scale != 1) {
            p = p.scaled(scale);
        }
        if (warmupS != null) {
            p = p.withWarmupS(warmupS);
        }
        return p;
    }
}
