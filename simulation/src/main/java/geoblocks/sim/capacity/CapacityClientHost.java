package geoblocks.sim.capacity;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import java.util.List;
import se.sics.kompics.Positive;

/**
 * A simulated client machine in one region running the real {@link ClientComponent} against that
 * region's node; it performs the operations of its run whose site is its region, when the
 * {@link CapacityBoard} says it is their turn. An upload streams generated content (then its
 * manifest is asked for, to record the replicas); a download checks every byte. Records:
 * {@code U|run|file|site|ms|error}, {@code D|run|file|site|ms|error} (error empty when it worked),
 * {@code R|run|file|block|regions}. Times are simulated ms from request to result.
 */
public final class CapacityClientHost extends SimClientHost<CapacityNodes.Client> {
    private final Positive<ClientPort> client;
    private CapacityOp op;
    private long startedMs;
    private boolean statPending;
    private long opId;

    public CapacityClientHost(HostInit<CapacityNodes.Client> init) {
        super(init);
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), 120_000);
        CapacityBoard.plan(plan.run(), plan.ops(), plan.last());
    }

    @Override
    protected void start() {
        every(plan.startDelayMs(), 50);
    }

    @Override
    protected void wake() {
        if (op != null) {
            return;
        }
        CapacityOp next = CapacityBoard.current(plan.run());
        if (next == null || !next.site().equals(plan.region())) {
            return;
        }
        op = next;
        startedMs = now();
        opId++;
        long key = Content.key(plan.seed(), op.file());
        if (op.upload()) {
            trigger(new ClientPort.Put(opId, null, Content.source(key, plan.fileBytes()), op.name(), plan.policy(),
                    plan.blockBytes()), client);
        } else {
            trigger(new ClientPort.Get(opId, op.name(), null, Content.failing(key)), client);
        }
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        String key = plan.run() + "|" + op.file() + "|" + op.site();
        if (statPending) {
            if (r.ok()) {
                List<Manifest.BlockRef> blocks = ((ClientPort.FileStat) r.value()).manifest().blocks();
                for (int b = 0; b < blocks.size(); b++) {
                    out.add("R|" + plan.run() + "|" + op.file() + "|" + b + "|" + String.join(";", blocks.get(b).replicas()));
                }
            }
            statPending = false;
            next();
            return;
        }
        long ms = now() - startedMs;
        String error = r.ok() ? "" : field(r.error());
        out.add((op.upload() ? "U|" : "D|") + key + "|" + ms + "|" + error);
        if (op.upload() && r.ok()) {
            statPending = true;
            trigger(new ClientPort.Stat(++opId, op.name()), client);
            return;
        }
        if (op.upload()) {
            CapacityBoard.uploadFailed(plan.run(), op.file());
        }
        next();
    }

    private void next() {
        op = null;
        CapacityBoard.done(plan.run());
        wake(); // the next operation may be this client's too
    }
}
