package geoblocks.app.probe;

import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.sim.harness.Content;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code probe}: the latency probe (SPEC.md experiment 8). Every period it PUTs then GETs a file
 * of each size at one region's node and appends a {@link ProbeRow} per operation to the CSV
 * (flushed per row, header written when the file is new); failures are rows, never the end.
 */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Every period, PUT then GET a file of each size at one region; append one CSV row per operation.",
        subcommands = {ProbeReportCommand.class})
public final class ProbeCommand implements Callable<Integer> {
    @Option(names = "--at", paramLabel = "REGION", description = "Region whose node is probed (required).")
    String at;

    @Option(names = "--every", defaultValue = "5m", paramLabel = "DURATION", description = "Period, e.g. 30s, 5m, 1h (default: ${DEFAULT-VALUE}).")
    String every;

    @Option(names = "--sizes", defaultValue = "1KB,10KB,100KB,1MB,10MB", split = ",", paramLabel = "SIZE",
            description = "File sizes, binary units (default: ${DEFAULT-VALUE}).")
    List<String> sizes;

    @Option(names = "--count", defaultValue = "0", paramLabel = "N", description = "Rounds to run (default: 0 = until stopped).")
    long count;

    @Option(names = "--out", paramLabel = "CSV", description = "CSV to append to (required).")
    Path out;

    @Option(names = "--policy", defaultValue = "local", description = "Placement policy of the probe's uploads (default: ${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON cluster config (default: built-in local cluster).")
    Path config;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "30000",
            description = "An operation fails when the node is silent this long (default: ${DEFAULT-VALUE} ms).")
    long timeoutMs;

    /** The validated settings of these options. */
    ProbeSettings settings() {
        if (out == null) {
            throw new IllegalArgumentException("--out CSV is required");
        }
        return new ProbeSettings(at, ProbeSettings.parseMillis(every), ProbeSettings.parseSizes(sizes), count);
    }

    @Override
    public Integer call() throws Exception {
        ProbeSettings s = settings();
        AppConfig cfg = AppConfig.load(config);
        cfg.cluster().address(s.region()); // an unknown region fails here
        boolean fresh = !Files.exists(out) || Files.size(out) == 0;
        try (GeoClient client = GeoClient.start(cfg, timeoutMs);
                Writer csv = Files.newBufferedWriter(out, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND)) {
            if (fresh) {
                csv.write(ProbeRow.HEADER + "\n");
                csv.flush();
            }
            Probe.Ops ops = new Probe.Ops() {
                @Override
                public void put(String name, long key, long size) throws IOException {
                    client.put(s.region(), Content.source(key, size), name, policy, 1 << 20);
                }

                @Override
                public void get(String name, long key, long size) throws IOException {
                    client.get(s.region(), name, Content.failing(key));
                }
            };
            new Probe(s, ops, System::nanoTime, System::currentTimeMillis, Thread::sleep).run(row -> {
                try {
                    csv.write(row.toCsv() + "\n");
                    csv.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot append to " + out, e);
                }
                System.out.println(row.toCsv());
            });
        }
        return 0;
    }
}
