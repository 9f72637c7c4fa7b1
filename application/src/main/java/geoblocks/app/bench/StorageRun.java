package geoblocks.app.bench;

import org.HdrHistogram.Histogram;

/**
 * The figures of one workload run: operations and bytes over the wall time from the common start
 * to the last stream's end, and per-operation latency percentiles (HdrHistogram, microsecond
 * resolution, 3 significant digits).
 */
public record StorageRun(String target, int blockSize, int streams, Workload workload, long ops, long bytes,
        double seconds, double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs) {

    static StorageRun of(String target, int blockSize, int streams, Workload w, long bytes, double seconds,
            Histogram latencyMicros) {
        return new StorageRun(target, blockSize, streams, w, latencyMicros.getTotalCount(), bytes, seconds,
                ms(latencyMicros, 50), ms(latencyMicros, 90), ms(latencyMicros, 99), ms(latencyMicros, 99.9),
                latencyMicros.getMaxValue() / 1000.0);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Megabytes (10^6 bytes) per second. */
    public double mbps() {
        return seconds > 0 ? bytes / 1e6 / seconds : 0;
    }

    public double iops() {
        return seconds > 0 ? ops / seconds : 0;
    }
}
