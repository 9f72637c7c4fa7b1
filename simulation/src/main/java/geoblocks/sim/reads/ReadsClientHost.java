package geoblocks.sim.reads;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.core.read.ReadOptions;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimRegistry;
import geoblocks.sim.net.BottleneckLink;
import geoblocks.sim.net.PathModel;
import java.util.List;
import java.util.Map;
import java.util.Random;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A simulated client machine of a reads simulation, running the real {@link ClientComponent}
 * against its region's node in the role {@link ReadsRole} gives it. Records (times in simulated
 * ms): the reader {@code D|slot|size|i|ms|error} per read and {@code B|slot|size|bytes} (bytes that
 * crossed the paths into its region during the size's reads); the uploader
 * {@code R|slot|regions} (the replicas of the first test file); the reader, when it is done,
 * {@code N|slot|reads} (noise reads finished in the slot so far).
 */
public final class ReadsClientHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final ReadsClientInit init;
    private final ReadsScript s;
    private final Positive<ClientPort> client;
    private final List<String> out;
    private final Random random;
    private long op;
    private int step;
    private long startedMs;
    private long bytesBefore;
    private boolean stat;

    public ReadsClientHost(ReadsClientInit init) {
        this.init = init;
        this.s = init.script;
        this.out = SimRegistry.extraRecords();
        this.random = new Random(s.seed() * 131 + init.index);
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(init.self, init.node, init.region,
                NodeSettings.defaults(), 600_000));
        connect(c.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        client = c.getPositive(ClientPort.class);
        if (init.role == ReadsRole.READER) {
            ReadsBoard.register(s.slot());
        }
        onStart(x -> after(init.startDelayMs));
        handle(timer, Wake.class, w -> wake());
        handle(client, ClientPort.Result.class, this::onResult);
    }

    private void after(long ms) {
        ScheduleTimeout st = new ScheduleTimeout(Math.max(1, ms));
        st.setTimeoutEvent(new Wake(st));
        trigger(st, timer);
    }

    private void wake() {
        switch (init.role) {
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
            bytesBefore = bytesInto(init.linkRegion);
        }
        startedMs = System.currentTimeMillis();
        ReadOptions options = s.read().isEmpty() ? null : ReadOptions.parse(s.read(), s.rank());
        trigger(new ClientPort.Get(++op, s.testName(size), null, Content.failing(s.testKey(size)), "", options), client);
    }

    private void onResult(ClientPort.Result r) {
        switch (init.role) {
            case UPLOADER -> onUploaded(r);
            case READER -> {
                int size = s.sizes().get(step / s.readsPerSize());
                String error = r.ok() ? "" : r.error().replace('|', '/').replace('\n', ' ');
                out.add("D|" + s.slot() + "|" + size + "|" + step % s.readsPerSize() + "|"
                        + (System.currentTimeMillis() - startedMs) + "|" + error);
                step++;
                if (step % s.readsPerSize() == 0) {
                    out.add("B|" + s.slot() + "|" + size + "|" + (bytesInto(init.linkRegion) - bytesBefore));
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

    static final class Wake extends Timeout {
        Wake(ScheduleTimeout st) {
            super(st);
        }
    }

    public static final class ReadsClientInit extends Init<ReadsClientHost> {
        final NetAddress self;
        final NetAddress node;
        final String region;
        final String linkRegion;
        final ReadsRole role;
        final int index;
        final ReadsScript script;
        final long startDelayMs;

        public ReadsClientInit(NetAddress self, NetAddress node, String region, String linkRegion, ReadsRole role,
                int index, ReadsScript script, long startDelayMs) {
            this.self = self;
            this.node = node;
            this.region = region;
            this.linkRegion = linkRegion;
            this.role = role;
            this.index = index;
            this.script = script;
            this.startDelayMs = startDelayMs;
        }
    }
}
