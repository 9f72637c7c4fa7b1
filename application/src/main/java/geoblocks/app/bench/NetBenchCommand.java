package geoblocks.app.bench;

import geoblocks.blockstore.wire.BenchOp.NetBenchResult;
import geoblocks.node.AppConfig;
import geoblocks.node.GeoClient;
import geoblocks.node.Sizes;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench net}: iperf3-like figures between two nodes of the running cluster, measured by the nodes. */
@Command(name = "net", mixinStandardHelpOptions = true,
        description = "iperf3-like network benchmark between two nodes of the running cluster: TCP and UDP throughput"
                + " with 1 and N streams, UDP loss and jitter at offered rates, LEDBAT throughput.")
public final class NetBenchCommand implements Callable<Integer> {
    @Option(names = "--from", required = true, paramLabel = "REGION", description = "The node that sends.")
    String from;

    @Option(names = "--to", required = true, paramLabel = "REGION", description = "The node that receives.")
    String to;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON cluster config (default: built-in local cluster).")
    Path config;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "30000",
            description = "Fail when the node is silent this long (default: ${DEFAULT-VALUE} ms).")
    long timeoutMs;

    @Option(names = "--modes", defaultValue = "tcp,udp,ledbat", split = ",", description = "Tests to run (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--streams", defaultValue = "4", paramLabel = "N",
            description = "N of the parallel runs (each test runs with 1 and N streams; default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--bytes", defaultValue = "256MiB", paramLabel = "SIZE", description = "Bytes a tcp test sends (default: ${DEFAULT-VALUE}).")
    String bytes;

    @Option(names = "--ledbat-bytes", defaultValue = "64MiB", paramLabel = "SIZE", description = "Bytes a ledbat test sends (default: ${DEFAULT-VALUE}).")
    String ledbatBytes;

    @Option(names = "--udp-rates", defaultValue = "10M,100M,1G", split = ",", paramLabel = "RATE",
            description = "Offered UDP rates per stream in bit/s, K/M/G suffixes (default: ${DEFAULT-VALUE}).")
    List<String> udpRates;

    @Option(names = "--udp-duration-ms", defaultValue = "2000", paramLabel = "MS", description = "Sending time of a udp test (default: ${DEFAULT-VALUE}).")
    int udpDurationMs;

    @Option(names = "--udp-payload", defaultValue = "1200", paramLabel = "BYTES", description = "Bytes of bench data per datagram (default: ${DEFAULT-VALUE}).")
    int udpPayload;

    /** The validated plan of these options (regions not checked against a cluster yet). */
    NetBenchPlan plan() {
        List<Long> rates = new ArrayList<>();
        udpRates.forEach(r -> rates.add(NetBenchPlan.parseRate(r)));
        return new NetBenchPlan(from, to, modes.stream().map(String::trim).toList(), streams, Sizes.parse(bytes),
                Sizes.parse(ledbatBytes), rates, udpDurationMs, udpPayload);
    }

    @Override
    public Integer call() throws Exception {
        NetBenchPlan plan = plan();
        AppConfig cfg = AppConfig.load(config);
        plan.checkRegions(cfg.cluster().regionIds());
        try (Socket s = new Socket()) {
            s.connect(cfg.cluster().address(from).asSocket(), 5000);
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach node " + from + " (" + e.getMessage() + "); is it running?");
        }
        List<NetBenchResult> results = new ArrayList<>();
        try (GeoClient client = GeoClient.start(cfg, timeoutMs)) {
            if (!json) {
                System.out.printf("bench net from %s to %s, measured by the %s node%n", from, to, from);
                System.out.println(NetBenchReport.header());
            }
            for (NetBenchPlan.Run r : plan.runs()) {
                NetBenchResult res = client.netBench(from, to, r.mode(), r.streams(), r.bytes(), r.rateBps(),
                        r.durationMs(), r.payload());
                results.add(res);
                if (!json) {
                    System.out.println(NetBenchReport.row(res));
                }
            }
        }
        if (json) {
            System.out.println(NetBenchReport.json(plan, results));
        }
        return 0;
    }
}
