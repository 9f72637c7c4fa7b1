package geoblocks.sim.bgfg;

import geoblocks.blockstore.client.ByteSink;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.sim.bgfg.BgFgBoard.Phase;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import java.util.List;
import se.sics.kompics.Positive;

/**
 * A simulated client machine running the production {@link ClientComponent} against the node of
 * its region, and its part of the script ({@link BgFgBoard}), checked every 100 ms. The uploader
 * (near region) puts the foreground file with policy local, later the background file with ack
 * local, and asks its node for the background file's pending copies until none is left. The
 * downloader (far region) gets the foreground file twice and asks its node for its status every
 * 100 ms, recording {@code S|ms|downloaded|ledbatReceived|tcpReceived|tcpReplicaBytes|tcpBlockBytes}.
 * Gets are recorded as {@code G|n|startMs|endMs|bytes|error}, errors as {@code E|what}.
 */
public final class BgFgClientHost extends SimClientHost<BgFgNodes.Client> {
    private static final long TICK_MS = 100;
    private static final String FG_NAME = "foreground";
    private static final String BG_NAME = "background";

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

    public BgFgClientHost(HostInit<BgFgNodes.Client> init) {
        super(init);
        client = client(nodeOf(plan.region(), plan.regions()), plan.region(), 120_000);
    }

    @Override
    protected void start() {
        every(plan.startMs(), TICK_MS);
    }

    @Override
    protected void wake() {
        if (plan.uploader()) {
            uploaderTick();
        } else {
            downloaderTick();
        }
    }

    private void uploaderTick() {
        Phase p = BgFgBoard.phase();
        if (busyOp < 0 && p == Phase.PUT_FG) {
            busyOp = ++nextOp;
            trigger(new ClientPort.Put(busyOp, null, Content.source(Content.key(plan.seed(), 0), plan.fgBytes()), FG_NAME,
                    "local", plan.blockSize(), ClientOp.ACK_ALL, false), client);
        } else if (busyOp < 0 && p == Phase.PUT_BG) {
            busyOp = ++nextOp;
            trigger(new ClientPort.Put(busyOp, null, Content.source(Content.key(plan.seed(), 1), plan.bgBytes()), BG_NAME,
                    "localclosest", plan.blockSize(), ClientOp.ACK_LOCAL, false), client);
        } else if (!statPending && p.compareTo(Phase.WARMUP) >= 0 && p != Phase.DONE && now() - lastStatMs >= 500) {
            statPending = true;
            lastStatMs = now();
            trigger(new ClientPort.Stat(++nextOp, BG_NAME), client);
        }
    }

    private void downloaderTick() {
        if (!statusPending) {
            statusPending = true;
            trigger(new ClientPort.Status(++nextOp), client);
        }
        Phase p = BgFgBoard.phase();
        boolean second = p == Phase.WARMUP && BgFgBoard.inPhaseMs() >= plan.warmupMs();
        if (busyOp < 0 && (p == Phase.GET_ALONE || second)) {
            if (second) {
                BgFgBoard.enter(Phase.GET_WITH_BG);
            }
            busyOp = ++nextOp;
            gets++;
            getStartMs = now();
            getBytes = 0;
            trigger(new ClientPort.Get(busyOp, FG_NAME, null, new Sink()), client);
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

    @Override
    protected void onResult(ClientPort.Result r) {
        if (r.op() == busyOp) {
            busyOp = -1;
            if (plan.uploader()) {
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
            boolean none = st.pendingKnown() && st.pending().values().stream().allMatch(List::isEmpty);
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
            BgFgBoard.record("E|" + (plan.uploader() ? "stat: " : "status: ") + r.error());
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
        endSimulation();
    }
}
