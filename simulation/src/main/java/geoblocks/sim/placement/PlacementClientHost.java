package geoblocks.sim.placement;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.sim.harness.SimClientHost;
import java.nio.file.Path;
import java.util.List;
import se.sics.kompics.Positive;

/**
 * A simulated client machine running the real {@link ClientComponent} against the node of its
 * region, and a script: the uploader puts every job's file one after the other (then asks for its
 * manifest to record where the replicas landed); the downloader waits until all uploads are done
 * and gets every file one after the other; runs take turns ({@link PlacementBoard}). Times are
 * simulated milliseconds from request to result. Records go out as strings: {@code U|key|ms},
 * {@code R|key|block|replicas}, {@code D|key|ms}, {@code E|key|error}. The last run's downloader
 * ends the simulation.
 */
public final class PlacementClientHost extends SimClientHost<PlacementNodes.Client> {
    private final Positive<ClientPort> client;
    private int next;
    private long startedMs;
    private boolean statPending;
    private boolean running;

    public PlacementClientHost(HostInit<PlacementNodes.Client> init) {
        super(init);
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), 120_000);
    }

    @Override
    protected void start() {
        every(plan.startDelayMs(), 100);
    }

    @Override
    protected void wake() {
        if (!running && (plan.upload() ? PlacementBoard.mayUpload(plan.run()) : PlacementBoard.mayDownload(plan.run()))) {
            running = true;
            submit();
        }
    }

    private void submit() {
        if (next == plan.jobs().size()) {
            if (plan.upload()) {
                PlacementBoard.uploadsDone(plan.run());
            } else {
                PlacementBoard.downloadsDone(plan.run());
                if (plan.last()) {
                    endSimulation();
                }
            }
            return;
        }
        PlacementJob j = plan.jobs().get(next);
        startedMs = now();
        if (plan.upload()) {
            trigger(new ClientPort.Put(next, Path.of(j.path()), j.name(), j.policy(), j.blockSize()), client);
        } else {
            trigger(new ClientPort.Get(next, j.name(), Path.of(plan.downloadDir(), j.name() + ".out")), client);
        }
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        PlacementJob j = plan.jobs().get(next);
        if (!r.ok()) {
            out.add("E|" + j.key() + "|" + (plan.upload() ? "upload: " : "download: ") + r.error());
        } else if (statPending) {
            List<Manifest.BlockRef> blocks = ((ClientPort.FileStat) r.value()).manifest().blocks();
            for (int b = 0; b < blocks.size(); b++) {
                out.add("R|" + j.key() + "|" + b + "|" + String.join(";", blocks.get(b).replicas()));
            }
        } else {
            long ms = now() - startedMs;
            out.add((plan.upload() ? "U|" : "D|") + j.key() + "|" + ms);
            if (plan.upload()) {
                statPending = true;
                trigger(new ClientPort.Stat(next, j.name()), client);
                return;
            }
        }
        statPending = false;
        next++;
        submit();
    }
}
