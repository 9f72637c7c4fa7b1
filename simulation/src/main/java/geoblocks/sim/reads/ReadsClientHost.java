package geoblocks.sim.reads;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import geoblocks.sim.harness.SimRegistry;
import geoblocks.sim.net.BottleneckLink;
import geoblocks.sim.net.PathModel;
import java.util.List;
import java.util.Map;
import java.util.Random;
import se.sics.kompics.Positive;

/**
 * A simulated client machine of a reads simulation, running the real {@link ClientComponent}
 * against its region's node in the role {@link ReadsRole} gives it. Records (times in simulated
 * ms): the reader {@code D|slot|size|i|ms|error} per read and {@code B|slot|size|bytes} (bytes that
 * crossed the paths into its region during the size's reads); the uploader
 * {@code R|slot|regions} (the replicas of the first test file); the reader, when it is done,
 * {@code N|slot|reads} (noise reads finished in the slot so far).
 */
public final class ReadsClientHost extends SimClientHost<ReadsNodes.Client> {
    private final ReadsScript s;
    private final Positive<ClientPort> client;
    private final Random random;
    private long op;
    private int step;
    private long startedMs;
    private long bytesBefore;
    private boolean stat;

    public ReadsClientHost(HostInit<ReadsNodes.Client> init) {
        super(init);
        this.s = plan.script();
        this.random = new Random(s.seed() * 131 + plan.index());
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), 600_000);
        if (plan.role() == ReadsRole.READER) {
            ReadsBoard.register(s.slot());
        }
    }

    @Override
    protected void start() {
        after(plan.startDelayMs());
    }

    @Override
    protected void wake() {
        switch (plan.role()) {
            case UPLOADER -> upload();
            case READER -> {
                if (!ReadsBoard.isReady(s.slot())) {
                    after(50);
                } else {
                    read();
                }
            }
            case NOISE -> {
                if (ReadsBoard.isDone(s.slot())) {
                    return;
                } else if (!ReadsBoard.isReady(s.slot())) {
                    after(50);
                } else {
                    trigger(new ClientPort.Get(++op, s.noiseName(), null, Content.failing(s.noiseKey())), client);
                }
            }
        }
    }

    private void upload() {
        if (step < s.sizes().size()) {
            int size = s.sizes().get(step);
            trigger(new ClientPort.Put(++op, null, Content.source(s.testKey(size), size), s.testName(size),
                    s.testPolicy(), s.blockBytes()), client);
        } else {
            trigger(new ClientPort.Put(++op, null, Content.source(s.noiseKey(), s.noiseBytes()), s.noiseName(),
                    s.noisePolicy(), s.blockBytes()), client);
        }
    }

    private void read() {
        int size = s.sizes().get(step / s.readsPerSize());
        if (step % s.readsPerSize() == 0) {
            bytesBefore = bytesInto(plan.linkRegion());
        }
        startedMs = now();
        ReadOptions options = s.read().isEmpty() ? null : ReadOptions.parse(s.read(), s.rank());
        trigger(new ClientPort.Get(++op, s.testName(size), null, Content.failing(s.testKey(size)), "", options), client);
    }

    @Override
    protected void onResult(ClientPort.Result r) {
        switch (plan.role()) {
            case UPLOADER -> onUploaded(r);
            case READER -> {
                int size = s.sizes().get(step / s.readsPerSize());
                String error = r.ok() ? "" : field(r.error());
                out.add("D|" + s.slot() + "|" + size + "|" + step % s.readsPerSize() + "|"
                        + (now() - startedMs) + "|" + error);
                step++;
                if (step % s.readsPerSize() == 0) {
                    out.add("B|" + s.slot() + "|" + size + "|" + (bytesInto(plan.linkRegion()) - bytesBefore));
                }
                if (step == s.sizes().size() * s.readsPerSize()) {
                    out.add("N|" + s.slot() + "|" + ReadsBoard.noiseReads(s.slot()));
                    ReadsBoard.done(s.slot());
                } else {
                    after(s.gapMs());
                }
            }
            case NOISE -> {
                ReadsBoard.noiseRead(s.slot());
                after(Math.round(-Math.log(1 - random.nextDouble()) * s.noiseThinkMs()));
            }
        }
    }

    private void onUploaded(ClientPort.Result r) {
        if (!r.ok()) {
            out.add("E|" + s.slot() + "|upload " + step + ": " + r.error().replace('|', '/'));
            return; // the reader never starts; the run ends at its time cap
        }
        if (stat) {
            List<Manifest.BlockRef> blocks = ((ClientPort.FileStat) r.value()).manifest().blocks();
            out.add("R|" + s.slot() + "|" + String.join(";", blocks.get(0).replicas()));
            ReadsBoard.ready(s.slot());
            return;
        }
        step++;
        if (step <= s.sizes().size()) {
            upload();
        } else {
            stat = true;
            trigger(new ClientPort.Stat(++op, s.testName(s.sizes().get(0))), client);
        }
    }

    /** Bytes that crossed every path into {@code region} so far (the network model's links). */
    private static long bytesInto(String region) {
        PathModel path = SimRegistry.path();
        long sum = 0;
        for (Map.Entry<String, BottleneckLink> e : path.links().entrySet()) {
            if (e.getKey().endsWith(">" + region)) {
                sum += e.getValue().bytes();
            }
        }
        return sum;
    }
}
