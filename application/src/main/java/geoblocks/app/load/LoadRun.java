package geoblocks.app.load;

import geoblocks.app.load.LoadStats.Op;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.node.GeoClient;
import geoblocks.node.NodeFailure;
import geoblocks.sim.harness.Content;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One load run: {@link LoadSettings#threads()} threads issue requests through one
 * {@link GeoClient} until the deadline, then finish the request they are in. Each request goes to
 * a random region; a read downloads a random acknowledged file and checks its bytes
 * as they stream ({@link Content.Checker}), a write uploads a new file generated as it is sent
 * ({@link Content#source}). A scheduler prints progress and SIGKILLs (and restarts) a node when
 * asked. The client keeps no file, on disk or in memory; what is in flight is bounded by the put
 * and get windows.
 */
final class LoadRun {
    /** Crashes and restarts the cluster's node processes (a LocalCluster). */
    interface Nodes {
        /** SIGKILLs the node of {@code region}. */
        void kill(String region) throws IOException;

        /** Starts the node of {@code region} again and returns once it listens. */
        void restart(String region) throws IOException;
    }

    /** What happened: the statistics, the acknowledged files and the fault schedule as it ran. */
    record Result(LoadStats stats, AckedFiles acked, long windowMs, long drainMs, String killed,
            boolean restarted, long failedBeforeKill) {}

    private final GeoClient client;
    private final Targets regions;
    private final LoadSettings s;
    private final Nodes nodes;
    private final String runTag;
    private final RequestLog log;
    private final PrintStream out;
    private final LoadStats stats;
    private final AckedFiles acked = new AckedFiles();
    private final AtomicLong nextIndex = new AtomicLong();
    private final AtomicReference<Throwable> fatal = new AtomicReference<>();
    private volatile boolean restarted;
    private volatile long failedBeforeKill = -1;
    private long startNanos;
    private long startMillis;
    private long deadlineNanos;

    /** {@code regions}: where each request goes, as they are when it starts (fixed, or following the layout). */
    LoadRun(GeoClient client, Targets regions, LoadSettings settings, Nodes nodes, String runTag,
            RequestLog log, PrintStream out) {
        if (settings.kill() != null && nodes == null) {
            throw new IllegalArgumentException("--kill needs a cluster this command started (not --config)");
        }
        if (settings.kill() != null && !regions.get().contains(settings.kill().region())) {
            throw new IllegalArgumentException("unknown region '" + settings.kill().region() + "' in --kill; known: " + regions);
        }
        this.client = client;
        this.regions = regions;
        this.s = settings;
        this.nodes = nodes;
        this.runTag = runTag;
        this.log = log;
        this.out = out;
        this.stats = new LoadStats(settings.sizes());
    }

    Result run() throws IOException, InterruptedException {
        preload();
        startNanos = System.nanoTime();
        startMillis = System.currentTimeMillis();
        deadlineNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(s.warmupMs() + s.durationMs());
        stats.window(startNanos + TimeUnit.MILLISECONDS.toNanos(s.warmupMs()), deadlineNanos);
        if (s.warmupMs() > 0) {
            out.printf("warming up for %.0f s (requests run and files are kept, but the figures start after it)%n", s.warmupMs() / 1e3);
        }
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "load-scheduler");
            t.setDaemon(true);
            return t;
        });
        Progress progress = new Progress(stats, acked, out, startNanos);
        scheduler.scheduleAtFixedRate(progress::print, s.progressEveryMs(), s.progressEveryMs(), TimeUnit.MILLISECONDS);
        if (s.kill() != null) {
            scheduler.schedule(this::kill, s.kill().atMs(), TimeUnit.MILLISECONDS);
        }
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < s.threads(); i++) {
            int id = i;
            Thread t = new Thread(() -> work(id), "load-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            t.join();
        }
        long endNanos = System.nanoTime();
        scheduler.shutdown(); // a pending restart still runs (so the node is back for the check)
        scheduler.awaitTermination(10, TimeUnit.MINUTES);
        if (fatal.get() != null) {
            throw new IllegalStateException("load thread failed: " + fatal.get(), fatal.get());
        }
        long drainMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(endNanos - deadlineNanos));
        out.printf("[%6.1f s] done; the last requests finished %.1f s after the deadline%n",
                (endNanos - startNanos) / 1e9, drainMs / 1e3);
        return new Result(stats, acked, s.durationMs(), drainMs, s.kill() == null ? null : s.kill().region(),
                restarted, failedBeforeKill);
    }

    /** Writes {@code preload} files (cycling through sizes and regions) before the clock starts. */
    private void preload() throws IOException {
        if (s.preload() == 0) {
            return;
        }
        for (int i = 0; i < s.preload(); i++) {
            long size = s.sizes().get(i % s.sizes().size());
            List<String> now = regions.get();
            String region = now.get(i % now.size());
            long index = nextIndex.getAndIncrement();
            long key = Content.key(s.seed(), index);
            String name = name(index);
            try {
                client.put(region, Content.source(key, size), name, s.policy(), s.blockSize());
            } catch (IOException e) {
                throw new IOException("preload: put of " + name + " (" + size + " bytes) at " + region + " failed: " + e.getMessage(), e);
            }
            acked.add(new AckedFiles.File(index, name, key, size, region));
        }
        out.printf("preloaded %d files (one per size, round robin over the regions); the clock starts now%n", s.preload());
    }

    private void work(int thread) {
        SplittableRandom rnd = new SplittableRandom(Content.key(s.seed(), -1 - thread));
        try {
            think(rnd);
            while (System.nanoTime() < deadlineNanos && fatal.get() == null) {
                List<String> now = regions.get();
                String region = now.get(rnd.nextInt(now.size()));
                boolean read = rnd.nextDouble() < s.readRatio();
                AckedFiles.File f = read ? acked.random(rnd) : null;
                if (f != null) {
                    read(thread, region, f);
                } else {
                    write(thread, region, s.sizes().get(rnd.nextInt(s.sizes().size())));
                }
                think(rnd);
            }
        } catch (RuntimeException e) {
            fatal.compareAndSet(null, e); // a bug in the load client: the run is void
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void write(int thread, String region, long size) {
        long index = nextIndex.getAndIncrement();
        long key = Content.key(s.seed(), index);
        String name = name(index);
        long t0 = System.nanoTime();
        try {
            for (int attempt = 0; ; attempt++) {
                try {
                    client.put(region, Content.source(key, size), name, s.policy(), s.blockSize());
                    break;
                } catch (IOException e) {
                    region = failOver(e, attempt, region);
                }
            }
        } catch (IOException e) {
            long t1 = System.nanoTime();
            stats.failed(Op.WRITE, e.getMessage(), NodeFailure.codeOf(e));
            log.row(millis(t0), elapsed(t0), thread, Op.WRITE, size, (t1 - t0) / 1e6, "failed", region, name, e.getMessage());
            return;
        }
        long t1 = System.nanoTime();
        acked.add(new AckedFiles.File(index, name, key, size, region));
        stats.ok(Op.WRITE, size, t0, t1);
        log.row(millis(t0), elapsed(t0), thread, Op.WRITE, size, (t1 - t0) / 1e6, "ok", region, name, null);
    }

    private void read(int thread, String region, AckedFiles.File f) {
        Content.Checker check = new Content.Checker(f.key());
        long t0 = System.nanoTime();
        try {
            for (int attempt = 0; ; attempt++) {
                try {
                    client.get(region, f.name(), check);
                    break;
                } catch (IOException e) {
                    region = failOver(e, attempt, region);
                    check = new Content.Checker(f.key());
                }
            }
        } catch (IOException e) {
            long t1 = System.nanoTime();
            stats.failed(Op.READ, e.getMessage(), NodeFailure.codeOf(e));
            log.row(millis(t0), elapsed(t0), thread, Op.READ, f.size(), (t1 - t0) / 1e6, "failed", region, f.name(), e.getMessage());
            return;
        }
        long t1 = System.nanoTime();
        long at = check.firstMismatch(f.size());
        if (at >= 0) {
            stats.corrupt(Op.READ);
            acked.markCorrupt(f.name());
            String why = "bytes differ from what was written, first at offset " + at;
            out.printf("CORRUPT: read of %s (%d bytes) at %s returned success but %s%n", f.name(), f.size(), region, why);
            log.row(millis(t0), elapsed(t0), thread, Op.READ, f.size(), (t1 - t0) / 1e6, "corrupt", region, f.name(), why);
            return;
        }
        stats.ok(Op.READ, f.size(), t0, t1);
        log.row(millis(t0), elapsed(t0), thread, Op.READ, f.size(), (t1 - t0) / 1e6, "ok", region, f.name(), null);
    }

    /**
     * The region to send a request to again after attempt {@code attempt} at {@code region} failed with
     * {@code e}: the next one, when {@code e} is UNAVAILABLE (nothing was decided) and --failover allows
     * another attempt; else {@code e} is rethrown (the request failed).
     */
    private String failOver(IOException e, int attempt, String region) throws IOException {
        if (attempt >= s.failover() || NodeFailure.codeOf(e) != FailureCode.UNAVAILABLE) {
            throw e;
        }
        stats.failovers.increment();
        List<String> now = regions.get();
        return now.get((now.indexOf(region) + 1) % now.size());
    }

    private void kill() {
        String region = s.kill().region();
        try {
            failedBeforeKill = stats.total(o -> o.failed);
            stats.killedAt(System.nanoTime());
            nodes.kill(region);
            out.printf("[%6.1f s] SIGKILLed node %s%n", (System.nanoTime() - startNanos) / 1e9, region);
            if (s.restartAfterMs() >= 0) {
                Thread.sleep(s.restartAfterMs());
                long t0 = System.nanoTime();
                nodes.restart(region);
                restarted = true;
                out.printf("[%6.1f s] restarted node %s (listening after %.1f s)%n", (System.nanoTime() - startNanos) / 1e9,
                        region, (System.nanoTime() - t0) / 1e9);
            }
        } catch (IOException e) {
            fatal.compareAndSet(null, new UncheckedIOException("kill/restart of " + region + " failed: " + e.getMessage(), e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void think(SplittableRandom rnd) throws InterruptedException {
        if (s.thinkMaxMs() > 0) {
            Thread.sleep(rnd.nextLong(s.thinkMaxMs() + 1));
        }
    }

    private String name(long index) {
        return "load-" + runTag + "-" + index;
    }

    private long millis(long nanos) {
        return startMillis + TimeUnit.NANOSECONDS.toMillis(nanos - startNanos);
    }

    private long elapsed(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos - startNanos);
    }
}
