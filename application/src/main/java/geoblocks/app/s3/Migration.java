package geoblocks.app.s3;

import geoblocks.net.RttMatrix;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DataBridge's second half: an object stored at a near node (one copy, ack local) is moved to its
 * bucket's home with the node's {@code move} (a migration: copies pulled as background traffic, over
 * LEDBAT unless configured otherwise, then the manifest names the new homes and the near copy is
 * dropped). The targets are the home region and, for {@code copies} > 1, the regions nearest to it by
 * the cluster's RTT matrix. A failed move is tried again up to {@link #ATTEMPTS} times, {@link #RETRY_S}
 * s apart; a move that finds a newer version of the name stops (the newer upload has its own move).
 */
final class Migration {
    private static final Logger LOG = LoggerFactory.getLogger(Migration.class);
    static final int ATTEMPTS = 3;
    static final long RETRY_S = 5;
    private final NodeStore store;
    private final RttMatrix rtt;
    private final List<String> regions;
    private final int copies;

    Migration(NodeStore store, RttMatrix rtt, List<String> regions, int copies) {
        if (copies < 1 || copies > regions.size()) {
            throw new IllegalArgumentException("geoblocks.s3.migrated-copies must be 1.." + regions.size() + ", was " + copies);
        }
        this.store = store;
        this.rtt = rtt;
        this.regions = List.copyOf(regions);
        this.copies = copies;
    }

    /** Where an object of a bucket homed at {@code home} ends up: home first, then its nearest regions. */
    List<String> targets(String home) {
        List<String> others = new ArrayList<>(regions);
        others.remove(home);
        others.sort(Comparator.comparingDouble((String r) -> rtt.has(home, r) ? rtt.rttMs(home, r) : Double.MAX_VALUE)
                .thenComparing(r -> r));
        List<String> out = new ArrayList<>();
        out.add(home);
        out.addAll(others.subList(0, copies - 1));
        return out;
    }

    /** Moves version {@code version} of {@code name} to {@code targets} in the background. */
    void start(String name, String version, List<String> targets) {
        attempt(name, version, targets, 1);
    }

    private void attempt(String name, String version, List<String> targets, int n) {
        store.move(name, targets).whenComplete((info, t) -> {
            if (t == null) {
                LOG.info("DataBridge: moved {} (version {}) to {}: {}", name, version, targets, info);
                return;
            }
            String why = NodeStore.cause(t).getMessage();
            if (n >= ATTEMPTS || (why != null && (why.contains("newer") || why.startsWith("no such file")))) {
                LOG.warn("DataBridge: moving {} (version {}) to {} failed after {} attempts: {}", name, version, targets, n, why);
                return;
            }
            CompletableFuture.delayedExecutor(RETRY_S, TimeUnit.SECONDS).execute(() -> attempt(name, version, targets, n + 1));
        });
    }
}
