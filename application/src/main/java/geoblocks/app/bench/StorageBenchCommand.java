package geoblocks.app.bench;

import geoblocks.node.Sizes;
import geoblocks.node.cli.Cluster;
import geoblocks.s3storage.S3StorageSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench storage}: fio-like figures of the block store and the raw disk under a directory. */
@Command(name = "storage", mixinStandardHelpOptions = true,
        description = "fio-like storage benchmark through our BlockStorage and the raw disk: sequential and random"
                + " read/write MB/s, IOPS and latency percentiles, per block size and stream count.")
public final class StorageBenchCommand implements Callable<Integer> {
    @Option(names = "--data", defaultValue = ".", paramLabel = "DIR",
            description = "Directory on the disk to measure (a node's data disk; created when missing); the bench works"
                    + " in a new subdirectory and deletes it after (default: the current directory).")
    Path data;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--block-sizes", defaultValue = "4KiB,64KiB,1MiB", split = ",", paramLabel = "SIZE",
            description = "Block sizes (default: ${DEFAULT-VALUE}).")
    List<String> blockSizes;

    @Option(names = "--streams", defaultValue = "1,4", split = ",", paramLabel = "N",
            description = "Parallel streams, each with its own blocks (default: ${DEFAULT-VALUE}).")
    List<Integer> streams;

    @Option(names = "--size", defaultValue = "64MiB", paramLabel = "SIZE",
            description = "Bytes each stream writes per workload, at most --max-ops blocks (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--max-ops", defaultValue = "1024", paramLabel = "N",
            description = "Most operations per stream and workload (default: ${DEFAULT-VALUE}).")
    int maxOps;

    @Option(names = "--targets", defaultValue = "blockstore,raw", split = ",",
            description = "blockstore (FileBlockStorage: CRC32C, fsync, rename), raw (pwrite + fdatasync, pread) and/or s3"
                    + " (an S3-backed region's S3BlockStorage in --s3-bucket) (default: ${DEFAULT-VALUE}).")
    List<String> targets;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "S3 endpoint of target s3, e.g. http://127.0.0.1:8333.")
    URI s3Endpoint;

    @Option(names = "--s3-bucket", paramLabel = "BUCKET", description = "Existing bucket of target s3 (the bench writes under"
            + " a prefix of its own and deletes what it wrote).")
    String s3Bucket;

    @Option(names = "--s3-region", defaultValue = "us-east-1", paramLabel = "REGION",
            description = "Signing region of target s3 (default: ${DEFAULT-VALUE}); credentials from AWS_ACCESS_KEY_ID and"
                    + " AWS_SECRET_ACCESS_KEY.")
    String s3Region;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the data and the random slots (default: ${DEFAULT-VALUE}).")
    long seed;

    /** The validated plan of these options. */
    StoragePlan plan() {
        List<Integer> sizes = new ArrayList<>();
        for (String s : blockSizes) {
            long b = Sizes.parse(s.trim());
            if (b > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("block size " + s + " is out of range 512 B..64 MiB");
            }
            sizes.add((int) b);
        }
        return new StoragePlan(targets.stream().map(String::trim).toList(), sizes, streams, Sizes.parse(size), maxOps, seed);
    }

    @Override
    public Integer call() throws Exception {
        StoragePlan plan = plan();
        if (Files.exists(data) && !Files.isDirectory(data)) {
            throw new IllegalArgumentException("--data " + data + " is not a directory");
        }
        Files.createDirectories(data); // like server --data: a new disk's directory need not exist yet
        Path work = Files.createTempDirectory(data.toAbsolutePath(), "geoblocks-bench-storage-");
        try {
            if (!json) {
                System.out.printf("bench storage in %s: %d ops per stream and workload at most, %s per stream%n", work,
                        plan.maxOps(), Sizes.human(plan.bytesPerStream()));
                System.out.println(StorageReport.header());
            }
            S3StorageSettings s3 = s3Endpoint == null ? null
                    : new S3StorageSettings(s3Endpoint, s3Bucket,
                            "geoblocks-bench-" + work.getFileName() + "/", s3Region, System.getenv("AWS_ACCESS_KEY_ID"),
                            System.getenv("AWS_SECRET_ACCESS_KEY"), 0);
            List<StorageRun> runs = new StorageBench(work, plan, s3).run(r -> {
                if (!json) {
                    System.out.println(StorageReport.row(r));
                }
            });
            if (json) {
                System.out.println(StorageReport.json(plan, work.toString(), runs));
            }
        } finally {
            Cluster.deleteTree(work);
        }
        return 0;
    }
}
