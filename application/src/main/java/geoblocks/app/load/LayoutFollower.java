package geoblocks.app.load;

import geoblocks.blockstore.core.layout.Layout;
import geoblocks.blockstore.core.layout.LayoutCodec;
import geoblocks.node.GeoClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench load --follow-layout}: once a second asks a member for the cluster layout
 * ({@code cluster show}) and hands it to {@link Targets}, printing each change. Asks the current
 * targets in turn until one answers, so a member that was removed and stopped is skipped.
 */
final class LayoutFollower implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "load-layout");
        t.setDaemon(true);
        return t;
    });
    private final GeoClient client;
    private final Targets targets;
    private final PrintStream out;

    private LayoutFollower(GeoClient client, Targets targets, PrintStream out) {
        this.client = client;
        this.targets = targets;
        this.out = out;
    }

    /**
     * The targets of the layout held by the first of {@code known} that answers, followed from now on;
     * fails when none answers.
     */
    static LayoutFollower start(GeoClient client, List<String> known, PrintStream out) throws IOException {
        IOException last = null;
        for (String r : known) {
            try {
                Layout l = LayoutCodec.decode(client.cluster(r, "show", "", "", "", 0, false).layout());
                Targets t = new Targets(List.of(r), known);
                t.adopt(l);
                LayoutFollower f = new LayoutFollower(client, t, out);
                out.printf("following the cluster layout (version %d, as %s holds it): requests go to %s%n", l.version(), r, t.get());
                f.timer.scheduleWithFixedDelay(f::refresh, 1, 1, TimeUnit.SECONDS);
                return f;
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IOException("no region of " + known + " answered cluster show: " + (last == null ? "" : last.getMessage()), last);
    }

    Targets targets() {
        return targets;
    }

    private void refresh() {
        for (String r : targets.get()) {
            try {
                Layout l = LayoutCodec.decode(client.cluster(r, "show", "", "", "", 0, false).layout());
                if (targets.adopt(l)) {
                    out.printf("[%s] layout version %d (from %s): requests now go to %s%n",
                            LocalTime.now(ZoneOffset.UTC).withNano(0), l.version(), r, targets.get());
                }
                return;
            } catch (IOException | RuntimeException e) {
                // that member is gone or not answering: ask the next
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
