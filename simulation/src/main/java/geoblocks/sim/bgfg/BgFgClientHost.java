package geoblocks.sim.bgfg;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.net.NetAddress;
import geoblocks.sim.bgfg.BgFgBoard.Phase;
import geoblocks.sim.harness.Content;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.simulator.run.LauncherComp;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A simulated client machine running the production {@link ClientComponent} against the node of
 * its region, and its part of the script ({@link BgFgBoard}), checked every 100 ms. The uploader
 * (near region) puts the foreground file with policy local, later the background file with ack
 * local, and asks its node for the background file's pending copies until none is left. The
 * downloader (far region) gets the foreground file twice and asks its node for its status every
 * 100 ms, recording {@code S|ms|downloaded|ledbatReceived|tcpReceived|tcpReplicaBytes|tcpBlockBytes}.
 * Gets are recorded as {@code G|n|startMs|endMs|bytes|error}, errors as {@code E|what}.
 */
public final class BgFgClientHost extends ComponentDefinition {
    private static final long TICK_MS = 100;

    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final ClientHostInit init;
    private final Positive<ClientPort> client;
    private long nextOp;
    private long busyOp = -1;
    private boolean statusPending;
    private boolean statPending;
    private long lastStatMs = -1_000_000;
    private boolean copied;
    private int gets;
    private long getStartMs;
    private long getBytes;

    public BgFgClientHost(ClientHostInit init) {
        this.init = init;
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(init.self, init.node, init.nodeRegion,
                NodeSettings.defaults(), 120_000));
        connect(c.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        client = c.getPositive(ClientPort.class);
        onStart(s -> {
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(init.startMs, TICK_MS);
            spt.setTimeoutEvent(new Tick(spt));
            trigger(spt, timer);
        });
        handle(timer, Tick.class, t -> {
            if (init.uploader) {
                uploaderTick();
            } else {
                downloaderTick();
            }
        });
        handle(client, ClientPort.Result.class, this::onResult);
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private void uploaderTick() {
        Phase p = BgFgBoard.phase();
        if (busyOp < 0 && p == Phase.PUT_FG) {
            busyOp = ++nextOp;
            trigger(new ClientPort.Put(busyOp, null, Content.source(Content.key(init.seed, 0), init.fgBytes), init.fgName, "local",
                    init.blockSize, ClientOp.ACK_ALL, false), client);
        } else if (busyOp < 0 && p == Phase.PUT_BG) {
            busyOp = ++nextOp;
            trigger(new ClientPort.Put(busyOp, null, Content.source(Content.key(init.seed, 1), init.bgBytes), init.bgName,
                    "localclosest", init.blockSize, ClientOp.ACK_LOCAL, false), client);
        } else if (!statPending && p.compareTo(Phase.WARMUP) >= 0 && p != Phase.DONE && now() - lastStatMs >= 500) {
            statPending = true;
            lastStatMs = now();
            trigger(new ClientPort.Stat(++nextOp, init.bgName), client);
        }
    }

    private void downloaderTick() {
        if (!statusPending) {
            statusPending = true;
            trigger(new ClientPort.Status(++nextOp), client);
        }
        Phase p = BgFgBoard.phase();
        boolean second = p == Phase.WARMUP && BgFgBoard.inPhaseMs() >= init.warmupMs;
        if (busyOp < 0 && (p == Phase.GET_ALONE || second)) {
            if (second) {
                BgFgBoard.enter(Phase.GET_WITH_BG);
            }
            busyOp = ++nextOp;
            gets++;
            getStartMs = now();
            getBytes = 0;
            trigger(new ClientPort.Get(busyOp, init.fgName, null, new Sink()), client);
        }
    }

    /** Counts what a get delivers. */
    private final class Sink implements ByteSink {
        @Override
        public void begin() {
            getBytes = 0;
        }

        @Override
        public void write(long offset, byte[] data) {
            getBytes += data.length;
            BgFgBoard.downloaded += data.length;
        }
    }

    private void onResult(ClientPort.Result r) {
        if (r.op() == busyOp) {
            busyOp = -1;
            if (init.uploader) {
                uploaded(r);
            } else {
                got(r);
            }
            return;
        }
        if (r.value() instanceof ClientOp.StatusReply s) {
            statusPending = false;
            ClientOp.Transfers t = s.transfers();
            BgFgBoard.record("S|" + now() + "|" + BgFgBoard.downloaded + "|" + t.ledbatReceived() + "|" + t.tcpReceived()
                    + "|" + BgFgBoard.tcpReplicaBytes + "|" + BgFgBoard.tcpBlockBytes);
        } else if (r.value() instanceof ClientPort.FileStat st) {
            statPending = false;
            boolean none = st.pendingKnown() && st.pending().values().stream().allMatch(java.util.List::isEmpty);
            if (none && !copied) {
                copied = true;
                BgFgBoard.record("C|" + now());
            }
            if (copied && BgFgBoard.phase() == Phase.BG_ALONE) {
                finish();
            }
        } else if (!r.ok()) {
            statusPending = false;
            statPending = false;
            BgFgBoard.record("E|" + (init.uploader ? "stat: " : "status: ") + r.error());
        }
    }

    private void uploaded(ClientPort.Result r) {
        if (!r.ok()) {
            BgFgBoard.record("E|put: " + r.error());
            finish();
            return;
        }
        BgFgBoard.enter(BgFgBoard.phase() == Phase.PUT_FG ? Phase.GET_ALONE : Phase.WARMUP);
    }

    private void got(ClientPort.Result r) {
        BgFgBoard.record("G|" + gets + "|" + getStartMs + "|" + now() + "|" + getBytes + "|"
                + (r.ok() ? "" : r.error().replace('|', '/')));
        if (!r.ok()) {
            finish();
            return;
        }
        BgFgBoard.enter(BgFgBoard.phase() == Phase.GET_ALONE ? Phase.PUT_BG : Phase.BG_ALONE);
    }

    private static void finish() {
        BgFgBoard.enter(Phase.DONE);
        LauncherComp.simulatorScheduler.shutdown();
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    /** Who the client is, its node, its role, the files and the script's timing. */
    public static final class ClientHostInit extends Init<BgFgClientHost> {
        final NetAddress self;
        final NetAddress node;
        final String nodeRegion;
        final boolean uploader;
        final long seed;
        final String fgName;
        final long fgBytes;
        final String bgName;
        final long bgBytes;
        final int blockSize;
        final long startMs;
        final long warmupMs;

        ClientHostInit(NetAddress self, NetAddress node, String nodeRegion, boolean uploader, long seed, String fgName,
                long fgBytes, String bgName, long bgBytes, int blockSize, long startMs, long warmupMs) {
            this.self = self;
            this.node = node;
            this.nodeRegion = nodeRegion;
            this.uploader = uploader;
            this.seed = seed;
            this.fgName = fgName;
            this.fgBytes = fgBytes;
            this.bgName = bgName;
            this.bgBytes = bgBytes;
            this.blockSize = blockSize;
            this.startMs = startMs;
            this.warmupMs = warmupMs;
        }
    }
}
