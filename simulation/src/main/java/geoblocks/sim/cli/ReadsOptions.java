package geoblocks.sim.cli;

import geoblocks.sim.databridge.DataBridgePlan;
import geoblocks.sim.scenario.FloodedServer;
import geoblocks.sim.scenario.HedgedReads;
import java.util.List;
import picocli.CommandLine.Option;

/** Options of {@code simulate hedged-reads} and {@code simulate flooded-server}; both also read --seed. */
final class ReadsOptions {
    @Option(names = "--sizes", split = ",", paramLabel = "SIZE[,SIZE...]", description = "hedged-reads, flooded-server,"
            + " databridge: file sizes, in bytes or as 5MB (5,000,000 B) or 5MiB (default 1000..10000000 in decades;"
            + " flooded-server 100000,1000000; databridge 50MB,100MB,300MB)")
    List<String> sizes;

    /** The --sizes in bytes, null when not given; {@code max}: the largest a scenario takes. */
    List<Long> sizeBytes(long max) {
        if (sizes == null) {
            return null;
        }
        List<Long> out = DataBridgePlan.parseSizes(sizes);
        for (long b : out) {
            if (b > max) {
                throw new IllegalArgumentException("--sizes: " + b + " B is above this scenario's " + max + " B");
            }
        }
        return out;
    }

    /** The --sizes as ints (the read scenarios' sizes), null when not given. */
    private List<Integer> intSizes() {
        List<Long> b = sizeBytes(Integer.MAX_VALUE);
        return b == null ? null : b.stream().map(Long::intValue).toList();
    }

    @Option(names = "--reads", description = "hedged-reads, flooded-server: reads per file size (default 30; 20)")
    Integer reads;

    @Option(names = "--strategies", split = ",", description = "hedged-reads: read strategies (default first,parallel,hedged)")
    List<String> strategies;

    @Option(names = "--noise-readers", split = ",", paramLabel = "N[,N...]", description = "hedged-reads: readers loading"
            + " dublin (default 1); flooded-server: the values of N (default 0,1,2,4,8,16)")
    List<Integer> noiseReaders;

    @Option(names = "--noise-bytes", description = "hedged-reads, flooded-server: size of the noise file (default 4 MiB)")
    Integer noiseBytes;

    @Option(names = "--think-ms", description = "hedged-reads, flooded-server: noise readers' mean think time"
            + " (default 4000; 1000)")
    Long thinkMs;

    @Option(names = "--uplink-mbps", description = "hedged-reads, flooded-server: dublin's uplink (default 50; 100)")
    Double uplinkMbps;

    HedgedReads.Params hedged(long seed) {
        HedgedReads.Params d = HedgedReads.Params.defaults(seed);
        if (noiseReaders != null && noiseReaders.size() != 1) {
            throw new IllegalArgumentException("hedged-reads takes one --noise-readers value, was " + noiseReaders);
        }
        return new HedgedReads.Params(seed, strategies != null ? strategies : d.strategies(),
                sizes != null ? intSizes() : d.sizes(), reads != null ? reads : d.readsPerSize(),
                noiseReaders != null ? noiseReaders.get(0) : d.noiseReaders(), noiseBytes != null ? noiseBytes : d.noiseBytes(),
                thinkMs != null ? thinkMs : d.noiseThinkMs(), uplinkMbps != null ? uplinkMbps : d.dublinUplinkMbps());
    }

    FloodedServer.Params flooded(long seed) {
        FloodedServer.Params d = FloodedServer.Params.defaults(seed);
        return new FloodedServer.Params(seed, noiseReaders != null ? noiseReaders : d.noiseReaders(),
                sizes != null ? intSizes() : d.sizes(), reads != null ? reads : d.readsPerSize(),
                noiseBytes != null ? noiseBytes : d.noiseBytes(), thinkMs != null ? thinkMs : d.noiseThinkMs(),
                uplinkMbps != null ? uplinkMbps : d.dublinUplinkMbps());
    }
}
