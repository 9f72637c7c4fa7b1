package geoblocks.node.s3.migration;

import geoblocks.blockstore.wire.FailureCode;
import geoblocks.net.RttMatrix;
import geoblocks.node.s3.NodeStore;
import geoblocks.node.s3.ObjectListing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DataBridge's second half: an object stored at a near node (one copy, ack local) is moved to its
 * bucket's home with the node's {@code move} (a migration: copies pulled as background traffic, over
 * LEDBAT unless configured otherwise, then the manifest names the new homes and the near copy is
 * dropped). The targets are the home region and, for {@code copies} > 1, the regions nearest to it by
 * the cluster's RTT matrix.
 *
 * <p>The upload's own move ({@link #start}) is tried up to {@link #ATTEMPTS} times, {@link #RETRY_S} s
 * apart. A final failure is not the end: the sweep ({@link #sweep}, run every
 * {@code geoblocks.s3.migration-sweep-interval}, the first one an interval after the gateway starts)
 * walks the node's listing a page at a time, and {@link MigrationSweep} decides which ones this node stored with
 * {@code migrate-to} and has not finished moving to start again, one attempt each, with exponential
 * back-off; that also resumes the moves a restart of this node interrupted. A move that finds a newer
 * version of the name, or the name deleted, ends that object's migration (the newer upload has its own).
 * The decision class's methods are synchronized (moves end on Kompics threads, sweeps on the common
 * pool).
 */
public final class Migration {
    private static final Logger LOG = LoggerFactory.getLogger(Migration.class);
    static final int ATTEMPTS = 3;
    static final long RETRY_S = 5;
    private final NodeStore store;
    private final RttMatrix rtt;
    private final List<String> regions;
    private final int copies;
    private final MigrationSweep sweep;

    /** {@code sweep} null: only {@link #targets} may be used (tests of the placement). */
    public Migration(NodeStore store, RttMatrix rtt, List<String> regions, int copies, MigrationSweep sweep) {
        if (copies < 1 || copies > regions.size()) {
            throw new IllegalArgumentException("geoblocks.s3.migrated-copies must be 1.." + regions.size() + ", was " + copies);
        }
        this.store = store;
        this.rtt = rtt;
        this.regions = List.copyOf(regions);
        this.copies = copies;
        this.sweep = sweep;
    }

    /** Where an object of a bucket homed at {@code home} ends up: home first, then its nearest regions. */
    public List<String> targets(String home) {
        List<String> others = new ArrayList<>(regions);
        others.remove(home);
        others.sort(Comparator.comparingDouble((String r) -> rtt.has(home, r) ? rtt.rttMs(home, r) : Double.MAX_VALUE)
                .thenComparing(r -> r));
        List<String> out = new ArrayList<>();
        out.add(home);
        out.addAll(others.subList(0, copies - 1));
        return out;
    }

    /** Moves version {@code version} of {@code name}, just stored here, to {@code targets} in the background. */
    public void start(String name, String version, List<String> targets) {
        boolean now = sweep.beginNew(name);
        if (!now) {
            LOG.info("DataBridge: {} (version {}) is being moved already; a sweep moves this version after that ends",
                    name, version);
            return;
        }
        attempt(name, version, targets, 1, ATTEMPTS);
    }

    private void attempt(String name, String version, List<String> targets, int n, int attempts) {
        store.move(name, targets).whenComplete((info, t) -> {
            if (t == null) {
                LOG.info("DataBridge: moved {} (version {}) to {}: {}", name, version, targets, info);
                sweep.succeeded(name);
                return;
            }
            Throwable cause = NodeStore.cause(t);
            String why = cause.getMessage();
            if (cause instanceof NodeStore.StoreException e
                    && (e.code() == FailureCode.NEWER_EXISTS || e.code() == FailureCode.NOT_FOUND)) {
                LOG.info("DataBridge: moving {} (version {}) to {} ended: {}", name, version, targets, why);
                sweep.ended(name);
                return;
            }
            // any other failure: the version may still have been replaced meanwhile, so ask whether
            // it is still the name's newest before trying again
            store.stat(name).handle((st, s) -> {
                Throwable c = s == null ? null : NodeStore.cause(s);
                boolean gone = c instanceof NodeStore.StoreException e ? e.notFound()
                        : c == null && !st.manifest().version().id().equals(version);
                if (gone) {
                    LOG.info("DataBridge: moving {} (version {}) to {} ended: {}", name, version, targets,
                            c == null ? "a newer version is " + st.manifest().version().id() : c.getMessage());
                    sweep.ended(name);
                } else {
                    failedAttempt(name, version, targets, n, attempts, why);
                }
                return null;
            });
        });
    }

    private void failedAttempt(String name, String version, List<String> targets, int n, int attempts, String why) {
        if (n >= attempts) {
            sweep.failed(name);
            int failed = sweep.failures(name);
            long retryMs = sweep.backoffMs(failed);
            LOG.warn("DataBridge: moving {} (version {}) to {} failed ({} failed moves): {}; a sweep tries again in"
                    + " {} ms or later", name, version, targets, failed, why, retryMs);
            return;
        }
        CompletableFuture.delayedExecutor(RETRY_S, TimeUnit.SECONDS)
                .execute(() -> attempt(name, version, targets, n + 1, attempts));
    }

    /** Sweeps every {@code interval}, the first one an interval from now, each after the previous ended. */
    public void sweepEvery(Duration interval) {
        CompletableFuture.delayedExecutor(interval.toMillis(), TimeUnit.MILLISECONDS).execute(() ->
                sweep().whenComplete((v, t) -> {
                    if (t != null) {
                        LOG.warn("DataBridge: migration sweep failed: {}", NodeStore.cause(t).toString());
                    }
                    sweepEvery(interval);
                }));
    }

    /**
     * One sweep, when {@link MigrationSweep#walkDue} (else nothing): walks the node's listing one page at a time, stats the names
     * {@link MigrationSweep.Pass#toCheck} picks of each page and starts a move (one attempt) of each
     * that {@link MigrationSweep#start} picks, before reading the next page. Completes once the walk
     * ended (not when the moves end).
     */
    CompletableFuture<Void> sweep() {
        if (!sweep.walkDue()) {
            return CompletableFuture.completedFuture(null); // nothing a walk could find (MigrationSweep#walkDue)
        }
        return sweepFrom(sweep.pass(), "");
    }

    private CompletableFuture<Void> sweepFrom(MigrationSweep.Pass pass, String after) {
        return store.listPage("", after, ObjectListing.FETCH).thenCompose(page -> {
            List<String> names = pass.toCheck(page.entries());
            List<CompletableFuture<Void>> stats = new ArrayList<>();
            for (String name : names) {
                stats.add(store.stat(name).handle((st, t) -> {
                    if (t != null) {
                        LOG.debug("DataBridge: sweep could not stat {}: {}", name, NodeStore.cause(t).getMessage());
                        return null;
                    }
                    Optional<List<String>> to = sweep.start(st.manifest());
                    to.ifPresent(targets -> {
                        LOG.info("DataBridge: sweep moves {} (version {}) to {}", name, st.manifest().version().id(), targets);
                        attempt(name, st.manifest().version().id(), targets, 1, 1);
                    });
                    return null;
                }));
            }
            return CompletableFuture.allOf(stats.toArray(new CompletableFuture[0])).thenCompose(v -> {
                if (page.more()) {
                    return sweepFrom(pass, page.last());
                }
                pass.end();
                return CompletableFuture.completedFuture(null);
            });
        });
    }
}
