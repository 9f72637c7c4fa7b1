package geoblocks.blockstore.client;

import geoblocks.blockstore.wire.BenchOp;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.wire.ClientOp.GetData;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.ClientOp.DeleteReq;
import geoblocks.blockstore.wire.ClientOp.StatReq;
import geoblocks.blockstore.wire.ClientOp.StatusReq;
import geoblocks.blockstore.wire.ClientOp.VersionsReq;
import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.net.PeerVersions;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.KompicsEvent;
import se.sics.kompics.Negative;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.network.ConnectionStatus;
import se.sics.kompics.network.NetworkControl;
import se.sics.kompics.network.NetworkException;
import se.sics.kompics.network.Transport;
import se.sics.kompics.timer.CancelPeriodicTimeout;
import se.sics.kompics.timer.SchedulePeriodicTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * A geoblocks client as a Kompics component: turns {@link ClientPort} requests into the file
 * protocol with one node (the coordinator), streaming files from and to disk. An operation that
 * hears nothing from the node for the timeout fails with a message naming the node.
 */
public final class ClientComponent extends ComponentDefinition {
    private final Negative<ClientPort> port = provides(ClientPort.class);
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);
    /** The periodic timeout check while operations are open, else null. */
    private UUID tickId;
    /** Connection failures (NettyNetwork); left unconnected in the simulator. */
    private final Positive<NetworkControl> control = requires(NetworkControl.class);

    private final NetAddress self;
    private final NetAddress node;
    private final String nodeName;
    private final NodeSettings settings;
    private final long timeoutNanos;
    private final Map<Long, Transfer> active = new HashMap<>();
    private final Map<Long, Long> lastHeard = new HashMap<>();
    /** This component as its transfers see it. */
    private final ClientLink link = new ClientLink() {
        @Override
        public void send(FileOp op) {
            ClientComponent.this.send(op);
        }

        @Override
        public void progress(long op, long bytes, long total) {
            ClientComponent.this.progress(op, bytes, total);
        }

        @Override
        public void finish(long op, Failure failure, Object value) {
            ClientComponent.this.finish(op, failure, value);
        }
    };

    private final PeerVersions versions;

    public ClientComponent(ClientInit init) {
        this.self = init.self;
        this.node = init.node;
        this.nodeName = init.nodeName;
        this.settings = init.settings;
        this.timeoutNanos = init.timeoutMs * 1_000_000L;
        this.versions = init.versions;
        handle(timer, Tick.class, t -> expire());
        handle(port, ClientPort.Put.class, p -> begin(p.op(),
                new PutTransfer(this, p, settings.putWindowBytes(), settings.chunkBytes())));
        handle(port, ClientPort.Get.class, g -> begin(g.op(), new GetTransfer(link, g, settings.getWindowBytes())));
        handle(port, ClientPort.ListFiles.class, l -> begin(l.op(), SimpleTransfers.list(this, l.op())));
        handle(port, ClientPort.ListPage.class, l -> begin(l.op(), SimpleTransfers.page(this, l.op(), l)));
        handle(port, ClientPort.Stat.class, s -> begin(s.op(),
                SimpleTransfers.stat(this, s.op(), new StatReq(s.op(), s.name(), s.version()))));
        handle(port, ClientPort.Delete.class, d -> begin(d.op(),
                SimpleTransfers.oneShot(this, d.op(), new DeleteReq(d.op(), d.name(), d.condition(), d.meta()))));
        handle(port, ClientPort.Purge.class, p -> begin(p.op(),
                SimpleTransfers.oneShot(this, p.op(), new ClientOp.PurgeReq(p.op(), p.name(), p.version()))));
        handle(port, ClientPort.Move.class, m -> begin(m.op(),
                SimpleTransfers.oneShot(this, m.op(), new ClientOp.MoveReq(m.op(), m.name(), m.regions()))));
        handle(port, ClientPort.Versions.class, v -> begin(v.op(),
                SimpleTransfers.versions(this, v.op(), new VersionsReq(v.op(), v.name()))));
        handle(port, ClientPort.Status.class, s -> begin(s.op(),
                SimpleTransfers.oneShot(this, s.op(), new StatusReq(s.op()))));
        handle(port, ClientPort.Cluster.class, c -> begin(c.op(), SimpleTransfers.oneShot(this, c.op(),
                new ClientOp.ClusterReq(c.op(), c.action(), c.region(), c.address(), c.zone(), c.capacityBytes(), c.force(),
                        c.key()))));
        handle(port, ClientPort.Policies.class, p -> begin(p.op(),
                SimpleTransfers.oneShot(this, p.op(), new ClientOp.PoliciesReq(p.op()))));
        handle(port, ClientPort.NetBench.class, b -> begin(b.op(), SimpleTransfers.oneShot(this, b.op(),
                new BenchOp.NetBenchReq(b.op(), b.to(), b.mode(), b.streams(), b.bytes(), b.rateBps(), b.durationMs(),
                        b.payload()))));
        handle(net, FileMsg.class, this::onMsg);
        handle(control, NetworkException.class, this::onNetworkFailure);
        handle(control, ConnectionStatus.Dropped.class, d -> {
            if (d.last && d.peer != null && node.asSocket().equals(d.peer.asSocket())) {
                failAll("node " + nodeName + " (" + node + ") closed the connection (is it running, with the same"
                        + " cluster secret? nodes close connections that send unauthenticated messages)");
            }
        });
    }

    private void begin(long op, Transfer t) {
        if (active.containsKey(op)) {
            trigger(new ClientPort.Result(op,
                    new Failure(FailureCode.INVALID, "operation id " + op + " is already in use"), null), port);
            return;
        }
        active.put(op, t);
        lastHeard.put(op, System.nanoTime());
        if (tickId == null) { // the timeout check runs only while operations are open: an idle gateway takes no timer events
            SchedulePeriodicTimeout spt = new SchedulePeriodicTimeout(250, 250);
            spt.setTimeoutEvent(new Tick(spt));
            tickId = spt.getTimeoutEvent().getTimeoutId();
            trigger(spt, timer);
        }
        try {
            t.start();
        } catch (Exception e) {
            finish(op, new Failure(FailureCode.of(e, e instanceof IllegalArgumentException ? FailureCode.INVALID
                    : FailureCode.INTERNAL), text(e)), null);
        }
    }

    private void onMsg(FileMsg msg) {
        try {
            onOp(msg);
        } finally {
            // Every client component on a network sees every message (one per region in a client
            // host): the one whose node sent it owns its bytes and returns them to the pool.
            if (msg.op() instanceof GetData d && msg.getHeader().source().equals(node)) {
                d.data().release();
            }
        }
    }

    private void onOp(FileMsg msg) {
        FileOp op = msg.op();
        Transfer t = active.get(op.req());
        if (t == null || !msg.getHeader().source().equals(node)) {
            return;
        }
        lastHeard.put(op.req(), System.nanoTime());
        if (op instanceof ClientOp.Waiting) {
            return; // the node still works on it (waiting for memory): heard, nothing else to do
        }
        try {
            t.onReply(op);
        } catch (Exception e) {
            finish(op.req(), new Failure(FailureCode.of(e, FailureCode.INTERNAL), text(e)), null);
        }
    }

    private static String text(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** The node cannot be reached (e.g. connection refused): every operation with it fails now. */
    private void onNetworkFailure(NetworkException e) {
        if (e.peer == null || !node.asSocket().equals(e.peer.asSocket())) {
            return;
        }
        failAll("cannot reach node " + nodeName + " (" + node + "): " + e.message + "; is it running?");
    }

    private void failAll(String why) {
        for (Long op : active.keySet().toArray(new Long[0])) {
            finish(op, new Failure(FailureCode.UNAVAILABLE, why), null);
        }
    }

    private void expire() {
        if (active.isEmpty()) {
            if (tickId != null) {
                trigger(new CancelPeriodicTimeout(tickId), timer);
                tickId = null;
            }
            return;
        }
        long now = System.nanoTime();
        for (Long op : active.keySet().toArray(new Long[0])) {
            if (now - lastHeard.get(op) > timeoutNanos) {
                // the request may have taken effect before the node went silent
                String state = active.get(op).state();
                finish(op, new Failure(FailureCode.OUTCOME_UNKNOWN, "no answer from node " + nodeName + " (" + node
                        + ") within " + timeoutNanos / 1_000_000 + " ms (is it running, with the same cluster secret?)"
                        + (state.isEmpty() ? "" : "; " + state)), null);
            }
        }
    }

    void send(FileOp op) {
        trigger(FileMsg.to(versions, new NetHeader(self, node, Transport.TCP), op), net);
    }

    void progress(long op, long bytes, long total) {
        trigger(new ClientPort.Progress(op, bytes, total), port);
    }

    /** Ends an operation with a failure or (failure null) a value; later replies for it are ignored. */
    void finish(long op, Failure failure, Object value) {
        Transfer t = active.remove(op);
        lastHeard.remove(op);
        if (t == null) {
            return;
        }
        t.close();
        KompicsEvent result = new ClientPort.Result(op, failure, value);
        trigger(result, port);
    }

    static final class Tick extends Timeout {
        Tick(SchedulePeriodicTimeout spt) {
            super(spt);
        }
    }

    public static final class ClientInit extends Init<ClientComponent> {
        final NetAddress self;
        final NetAddress node;
        final String nodeName;
        final NodeSettings settings;
        final long timeoutMs;
        /** The file protocol version agreed with the node (see PeerVersions); nothing fills it unless set. */
        PeerVersions versions = new PeerVersions();

        /** Writes to the node at the version {@code versions} holds for it: the one the client's network agreed. */
        public ClientInit withVersions(PeerVersions versions) {
            this.versions = versions;
            return this;
        }

        public ClientInit(NetAddress self, NetAddress node, String nodeName, NodeSettings settings, long timeoutMs) {
            this.self = self;
            this.node = node;
            this.nodeName = nodeName;
            this.settings = settings;
            this.timeoutMs = timeoutMs;
        }
    }
}
