package geoblocks.app.bench;

import geoblocks.s3storage.S3BlockStorage;
import geoblocks.s3storage.S3StorageSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link StoragePlan} against the targets in a directory, one thread per stream, the
 * streams released together (the wall time runs from the first stream's first operation to the
 * last stream's last); fio-like: each stream writes its slots in order, reads them in
 * order, rewrites and rereads random ones (seeded). Data is random per stream (incompressible).
 * Reads after writes may be served by the page cache, as fio's without {@code direct=1}.
 */
public final class StorageBench {
    private final Path dir;
    private final StoragePlan plan;
    private final S3StorageSettings s3;

    public StorageBench(Path dir, StoragePlan plan) {
        this(dir, plan, null);
    }

    /** With {@code s3}: the bucket target {@code s3} measures (its prefix is the bench's own). */
    public StorageBench(Path dir, StoragePlan plan, S3StorageSettings s3) {
        this.dir = dir;
        this.plan = plan;
        this.s3 = s3;
    }

    /** Every run of the plan, in order; {@code each} sees each as it finishes. */
    public List<StorageRun> run(Consumer<StorageRun> each) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<StorageRun> runs = new ArrayList<>();
        for (String target : plan.targets()) {
            for (int bs : plan.blockSizes()) {
                for (int streams : plan.streams()) {
                    try (StorageTarget t = open(target, streams, bs)) {
                        for (Workload w : Workload.values()) {
                            StorageRun r = runOne(t, bs, streams, w);
                            runs.add(r);
                            each.accept(r);
                        }
                    }
                }
            }
        }
        return runs;
    }

    private StorageTarget open(String target, int streams, int bs) throws IOException {
        if (target.equals("s3")) {
            if (s3 == null) {
                throw new IllegalArgumentException("target s3 needs --s3-endpoint and --s3-bucket");
            }
            return new BlockStoreTarget(S3BlockStorage.open(s3, System::currentTimeMillis), "s3", "bench");
        }
        return target.equals("raw") ? new RawDiskTarget(dir.resolve("raw"), streams, bs)
                : new BlockStoreTarget(dir.resolve("blockstore"), "bench");
    }

    private StorageRun runOne(StorageTarget t, int bs, int streams, Workload w) throws IOException, InterruptedException {
        int ops = plan.ops(bs);
        CyclicBarrier start = new CyclicBarrier(streams + 1);
        ExecutorService pool = Executors.newFixedThreadPool(streams);
        try {
            List<Future<Stream>> done = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                int stream = s;
                done.add(pool.submit(() -> stream(t, stream, bs, ops, w, start)));
            }
            await(start);
            Histogram all = new Histogram(3_600_000_000L, 3);
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (Future<Stream> f : done) {
                Stream st = get(f);
                all.add(st.latency());
                first = Math.min(first, st.startNanos());
                last = Math.max(last, st.endNanos());
            }
            double seconds = (last - first) / 1e9;
            return StorageRun.of(t.name(), bs, streams, w, (long) ops * streams * bs, seconds, all);
        } finally {
            pool.shutdownNow();
        }
    }

    /** What one stream measured: its latencies, and when it started and ended its operations. */
    private record Stream(Histogram latency, long startNanos, long endNanos) {}

    private Stream stream(StorageTarget t, int stream, int bs, int ops, Workload w, CyclicBarrier start)
            throws Exception {
        Random random = new Random(plan.seed() * 31 + stream * 7919L + w.ordinal());
        byte[] data = new byte[bs];
        new Random(plan.seed() + stream).nextBytes(data);
        Histogram h = new Histogram(3_600_000_000L, 3);
        start.await();
        long begin = System.nanoTime();
        for (int i = 0; i < ops; i++) {
            long slot = w.random() ? random.nextInt(ops) : i;
            long t0 = System.nanoTime();
            if (w.write()) {
                data[0] = (byte) i; // each write a different block
                t.write(stream, slot, data);
            } else if (t.read(stream, slot) != bs) {
                throw new IOException(t.name() + " read a short slot " + slot);
            }
            h.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
        }
        return new Stream(h, begin, System.nanoTime());
    }

    private static void await(CyclicBarrier b) throws InterruptedException {
        try {
            b.await();
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException("a bench stream failed to start", e);
        }
    }

    private static Stream get(Future<Stream> f) throws IOException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IOException("bench stream failed: " + c, c);
        }
    }
}
