package geoblocks.sim.capacity;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.Manifest;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimRegistry;
import java.util.List;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A simulated client machine in one region running the real {@link ClientComponent} against that
 * region's node; it performs the operations of its run whose site is its region, when the
 * {@link CapacityBoard} says it is their turn. An upload streams generated content (then its
 * manifest is asked for, to record the replicas); a download checks every byte. Records:
 * {@code U|run|file|site|ms|error}, {@code D|run|file|site|ms|error} (error empty when it worked),
 * {@code R|run|file|block|regions}. Times are simulated ms from request to result.
 */
public final class CapacityClientHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final CapacityClientInit init;
    private final Positive<ClientPort> client;
    private final List<String> out;
    private CapacityOp op;
    private long startedMs;
    private boolean statPending;
    private long opId;

    public CapacityClientHost(CapacityClientInit init) {
        this.init = init;
        this.out = SimRegistry.extraRecords();
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(init.self, init.node, init.region,
                NodeSettings.defaults(), 120_000));
        connect(c.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        client = c.getPositive(ClientPort.class);
        CapacityBoard.plan(init.run, init.ops, init.last);
        onStart(s -> {
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(init.startDelayMs, 50);
            spt.setTimeoutEvent(new Poll(spt));
            trigger(spt, timer);
        });
        handle(timer, Poll.class, p -> poll());
        handle(client, ClientPort.Result.class, this::onResult);
    }

    private void poll() {
        if (op != null) {
            return;
        }
        CapacityOp next = CapacityBoard.current(init.run);
        if (next == null || !next.site().equals(init.region)) {
            return;
        }
        op = next;
        startedMs = System.currentTimeMillis();
        opId++;
        long key = Content.key(init.seed, op.file());
        if (op.upload()) {
            trigger(new ClientPort.Put(opId, null, Content.source(key, init.fileBytes), op.name(), init.policy,
                    init.blockBytes), client);
        } else {
            trigger(new ClientPort.Get(opId, op.name(), null, Content.failing(key)), client);
        }
    }

    private void onResult(ClientPort.Result r) {
        String key = init.run + "|" + op.file() + "|" + op.site();
        if (statPending) {
            if (r.ok()) {
                List<Manifest.BlockRef> blocks = ((ClientPort.FileStat) r.value()).manifest().blocks();
                for (int b = 0; b < blocks.size(); b++) {
                    out.add("R|" + init.run + "|" + op.file() + "|" + b + "|" + String.join(";", blocks.get(b).replicas()));
                }
            }
            statPending = false;
            next();
            return;
        }
        long ms = System.currentTimeMillis() - startedMs;
        String error = r.ok() ? "" : r.error().replace('|', '/').replace('\n', ' ');
        out.add((op.upload() ? "U|" : "D|") + key + "|" + ms + "|" + error);
        if (op.upload() && r.ok()) {
            statPending = true;
            trigger(new ClientPort.Stat(++opId, op.name()), client);
            return;
        }
        if (op.upload()) {
            CapacityBoard.uploadFailed(init.run, op.file());
        }
        next();
    }

    private void next() {
        op = null;
        CapacityBoard.done(init.run);
        poll(); // the next operation may be this client's too
    }

    static final class Poll extends Timeout {
        Poll(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    public static final class CapacityClientInit extends Init<CapacityClientHost> {
        final NetAddress self;
        final NetAddress node;
        final String region;
        final int run;
        final boolean last;
        final String policy;
        final List<CapacityOp> ops;
        final long seed;
        final long fileBytes;
        final int blockBytes;
        final long startDelayMs;

        public CapacityClientInit(NetAddress self, NetAddress node, String region, int run, boolean last, String policy,
                List<CapacityOp> ops, long seed, long fileBytes, int blockBytes, long startDelayMs) {
            this.self = self;
            this.node = node;
            this.region = region;
            this.run = run;
            this.last = last;
            this.policy = policy;
            this.ops = List.copyOf(ops);
            this.seed = seed;
            this.fileBytes = fileBytes;
            this.blockBytes = blockBytes;
            this.startDelayMs = startDelayMs;
        }
    }
}
