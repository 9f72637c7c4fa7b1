package geoblocks.app.bench;

import geoblocks.node.Sizes;
import geoblocks.node.http.JsonWriter;
import java.util.List;
import java.util.Optional;

/** {@code bench storage}'s output: a table row per run, and the one JSON object of {@code --json}. */
public final class StorageReport {
    private StorageReport() {}

    public static String header() {
        return String.format("%-10s %7s %7s %-10s %7s %9s %9s %8s %8s %8s %8s", "TARGET", "BLOCK", "STREAMS",
                "WORKLOAD", "OPS", "MB/s", "IOPS", "p50 ms", "p90 ms", "p99 ms", "max ms");
    }

    public static String row(StorageRun r) {
        return String.format("%-10s %7s %7d %-10s %7d %9.1f %9.0f %8.3f %8.3f %8.3f %8.3f", r.target(),
                Sizes.human(r.blockSize()), r.streams(), r.workload().label(), r.ops(), r.mbps(), r.iops(), r.p50Ms(),
                r.p90Ms(), r.p99Ms(), r.maxMs());
    }

    /**
     * The JSON object: the headline figures (the plan's headline target, block size and streams:
     * sequential MB/s, random IOPS, and the random write's and random read's p99) at the top, every
     * run under {@code runs}.
     */
    public static String json(StoragePlan plan, String dir, List<StorageRun> runs) {
        JsonWriter j = new JsonWriter().begin();
        j.field("dir", dir);
        j.name("headline").begin().field("target", plan.headlineTarget()).field("block_size", plan.headlineBlock())
                .field("streams", plan.headlineStreams()).end();
        j.field("seq_write_mbps", headline(plan, runs, Workload.SEQ_WRITE).map(StorageRun::mbps).orElse(Double.NaN));
        j.field("seq_read_mbps", headline(plan, runs, Workload.SEQ_READ).map(StorageRun::mbps).orElse(Double.NaN));
        j.field("rand_write_iops", headline(plan, runs, Workload.RAND_WRITE).map(StorageRun::iops).orElse(Double.NaN));
        j.field("rand_read_iops", headline(plan, runs, Workload.RAND_READ).map(StorageRun::iops).orElse(Double.NaN));
        j.field("write_p99_ms", headline(plan, runs, Workload.RAND_WRITE).map(StorageRun::p99Ms).orElse(Double.NaN));
        j.field("read_p99_ms", headline(plan, runs, Workload.RAND_READ).map(StorageRun::p99Ms).orElse(Double.NaN));
        j.name("runs").beginArray();
        for (StorageRun r : runs) {
            j.begin().field("target", r.target()).field("block_size", r.blockSize()).field("streams", r.streams())
                    .field("workload", r.workload().label()).field("ops", r.ops()).field("bytes", r.bytes())
                    .field("seconds", r.seconds()).field("mbps", r.mbps()).field("iops", r.iops())
                    .field("p50_ms", r.p50Ms()).field("p90_ms", r.p90Ms()).field("p99_ms", r.p99Ms())
                    .field("p999_ms", r.p999Ms()).field("max_ms", r.maxMs()).end();
        }
        return j.endArray().end().toString();
    }

    private static Optional<StorageRun> headline(StoragePlan plan, List<StorageRun> runs, Workload w) {
        return runs.stream().filter(r -> r.target().equals(plan.headlineTarget()) && r.blockSize() == plan.headlineBlock()
                && r.streams() == plan.headlineStreams() && r.workload() == w).findFirst();
    }
}
