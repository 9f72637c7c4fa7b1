package geoblocks.app.ledbat;

import com.sun.management.OperatingSystemMXBean;
import geoblocks.net.NetAddress;
import geoblocks.node.Sizes;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import se.sics.kompics.Kompics;

/**
 * {@code ledbat client}: sends random data over LEDBAT for a time or an amount, checks the server's
 * byte count and CRC32C of every stream, prints throughput; exit code 0 only if all match.
 */
@Command(name = "client", mixinStandardHelpOptions = true,
        description = "Send data to a ledbat server and verify it arrived exactly (CRC32C); print throughput.")
public final class LedbatClientCommand implements Callable<Integer> {
    @Option(names = "--remote", required = true, paramLabel = "HOST:PORT", description = "The ledbat server.")
    String remote;

    @Option(names = "--time", paramLabel = "S", description = "Send for S seconds (default 10 unless --bytes).")
    Double seconds;

    @Option(names = "--bytes", paramLabel = "SIZE", description = "Send SIZE bytes in total (e.g. 100MiB), split over the streams.")
    String bytes;

    @Option(names = "--parallel", defaultValue = "1", paramLabel = "N", description = "Parallel streams (default ${DEFAULT-VALUE}); they share the one LEDBAT flow (one controller) to the server.")
    int parallel;

    @Option(names = "--log", paramLabel = "DIR", description = "Write stream-<i>.csv every 100 ms into DIR.")
    Path logDir;

    @Mixin
    LedbatOptions options = new LedbatOptions();

    @Override
    public Integer call() throws Exception {
        if (seconds != null && bytes != null) {
            throw new IllegalArgumentException("use either --time or --bytes, not both");
        }
        if (parallel < 1 || parallel > 256) {
            throw new IllegalArgumentException("--parallel must be in 1..256, was " + parallel);
        }
        if (seconds != null && !(seconds > 0 && seconds <= 86_400)) {
            throw new IllegalArgumentException("--time must be in (0, 86400] seconds, was " + seconds);
        }
        long perStream = -1;
        if (bytes != null) {
            long total = Sizes.parse(bytes);
            if (total < parallel) {
                throw new IllegalArgumentException("--bytes must be at least one byte per stream, was " + bytes);
            }
            perStream = total / parallel;
        }
        long millis = bytes != null ? -1 : (long) ((seconds == null ? 10 : seconds) * 1000);
        int workers = options.workers();
        NetAddress server = NetAddress.parse(remote);
        if (logDir != null) {
            Files.createDirectories(logDir);
        }
        NetAddress self = Endpoints.localFor(server);
        ClientOutcome outcome = new ClientOutcome();
        LedbatOptions.registerCodec();
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        Kompics.createAndStart(LedbatHost.class, new LedbatHost.HostInit(self, options.settings(),
                options.udpBufferBytes(), ClientDriver.class,
                new ClientDriver.ClientInit(server, parallel, millis, perStream, logDir, outcome), true,
                options.verbose, options.network()), workers, LedbatOptions.KOMPICS_BATCH);
        long limit = millis > 0 ? millis / 1000 + 120 : 3600;
        boolean done = outcome.await(limit);
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (cpuNanos() - cpu0) / 1e9;
        Kompics.shutdown();
        System.out.println(done ? outcome.report() : "error: no result from " + server + " within " + limit + " s");
        System.out.printf("client cpu: %.1f s over %.1f s wall = %.0f %% of one core%n", cpu, wall, 100 * cpu / wall);
        return done ? outcome.code() : 1;
    }

    private static long cpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
