package geoblocks.sim.cli;

import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.scenario.DataBridge;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Options of {@code simulate databridge}; it also reads the shared --seed, --sizes, --from (the
 * client's region, default seoul), --to (the home region, default dublin) and, when given,
 * --rate-mbps (a bottleneck on the path from the client's region to home) with --buffer-ms (default 200).
 */
final class DataBridgeOptions {
    @Option(names = "--loss-percent", split = ",", paramLabel = "P[,P...]",
            description = "databridge: random loss between regions, in percent (default 0,2)")
    List<String> lossPercents;

    @Option(names = "--block-size", paramLabel = "SIZE", description = "databridge: block size (default 1MiB)")
    String blockSize;

    @Option(names = "--lan-mbps", description = "databridge: capacity of the client's LAN to its near node in Mbit/s,"
            + " 0 for none (default ${DEFAULT-VALUE})")
    double lanMbps = 1000;

    DataBridge params(SimulateCommand c) {
        DataBridgePlan d = DataBridgePlan.defaults(c.seed);
        List<Long> sizes = c.reads.sizeBytes(DataBridgePlan.MAX_SIZE);
        long bs = blockSize == null ? d.blockSize() : DataBridgePlan.parseSizes(List.of(blockSize)).get(0);
        if (bs > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("block size must be 64 KiB..64 MiB, was " + bs + " B");
        }
        DataBridgePlan p = new DataBridgePlan(sizes != null ? sizes : d.sizes(),
                lossPercents != null ? DataBridgePlan.parseLosses(lossPercents) : d.lossPercents(),
                c.given("--from") ? c.from : d.near(), c.given("--to") ? c.to : d.home(), (int) bs, c.seed);
        return new DataBridge(p, c.given("--rate-mbps") ? c.rateMbps : Double.NaN, c.bufferMs != null ? c.bufferMs : 200,
                lanMbps == 0 ? Double.NaN : lanMbps);
    }
}
