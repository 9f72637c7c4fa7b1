package geoblocks.sim.databridge;

import geoblocks.blockstore.wire.ClientOp;
import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.core.NodeSettings;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.net.NetAddress;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimRegistry;
import geoblocks.sim.tcp.TcpTransport;
import java.util.List;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.simulator.run.LauncherComp;
import se.sics.kompics.timer.ScheduleTimeout;
import se.sics.kompics.timer.Timeout;
import se.sics.kompics.timer.Timer;

/**
 * The simulated client machine of {@code simulate databridge}, in the near region: the production
 * {@link ClientComponent} toward the near node and toward the home node, over simulated TCP. At
 * {@code startMs} it runs one upload along its path, as {@code bench databridge} does live:
 * <ul>
 *   <li>direct: put at the home node (policy local, ack all); home when the put returns;</li>
 *   <li>redirect: put at the near node (policy local, ack local), then move to the home region;
 *       home when the move is done.</li>
 * </ul>
 * then checks with a stat at the home node that every block is held there only, records
 * {@code R|waitMs|homeMs|error} (simulated ms from the put; -1 when not reached) and ends the simulation.
 */
public final class DataBridgeClientHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private enum Step { PUT, MOVE, STAT }

    private final ClientHostInit init;
    private final Positive<ClientPort> nearClient;
    private final Positive<ClientPort> homeClient;
    private final String name;
    private Step step;
    private long op;
    private long startMs;
    private long waitMs = -1;
    private long homeMs = -1;

    public DataBridgeClientHost(ClientHostInit init) {
        this.init = init;
        this.name = "databridge-" + init.path;
        Component tcp = create(TcpTransport.class, init.tcp);
        connect(tcp.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(tcp.getNegative(Timer.class), timer, Channel.TWO_WAY);
        nearClient = client(tcp, init.near, init.nearRegion);
        homeClient = client(tcp, init.home, init.homeRegion);
        onStart(s -> {
            ScheduleTimeout st = new ScheduleTimeout(init.startMs);
            st.setTimeoutEvent(new Begin(st));
            trigger(st, timer);
        });
        handle(timer, Begin.class, b -> begin());
        handle(nearClient, ClientPort.Result.class, this::onResult);
        handle(homeClient, ClientPort.Result.class, this::onResult);
    }

    private Positive<ClientPort> client(Component tcp, NetAddress node, String region) {
        Component c = create(ClientComponent.class, new ClientComponent.ClientInit(init.self, node, region,
                NodeSettings.defaults(), init.timeoutMs));
        connect(c.getNegative(Network.class), tcp.getPositive(Network.class), Channel.TWO_WAY);
        connect(c.getNegative(Timer.class), timer, Channel.TWO_WAY);
        return c.getPositive(ClientPort.class);
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private boolean direct() {
        return DataBridgeResult.DIRECT.equals(init.path);
    }

    private void begin() {
        startMs = now();
        step = Step.PUT;
        trigger(new ClientPort.Put(++op, null, Content.source(Content.key(init.seed, 0), init.bytes), name, "local",
                init.blockSize, direct() ? ClientOp.ACK_ALL : ClientOp.ACK_LOCAL, false), direct() ? homeClient : nearClient);
    }

    private void onResult(ClientPort.Result r) {
        if (r.op() != op) {
            return;
        }
        if (!r.ok()) {
            finish(step.name().toLowerCase() + ": " + r.error());
            return;
        }
        switch (step) {
            case PUT -> {
                waitMs = now() - startMs;
                if (direct()) {
                    homeMs = waitMs;
                    stat();
                } else {
                    step = Step.MOVE;
                    trigger(new ClientPort.Move(++op, name, List.of(init.homeRegion)), nearClient);
                }
            }
            case MOVE -> {
                homeMs = now() - startMs;
                stat();
            }
            case STAT -> finish(HomeCheck.isHome((ClientPort.FileStat) r.value(), List.of(init.homeRegion)) ? ""
                    : "not home at " + init.homeRegion + ": " + ((ClientPort.FileStat) r.value()).manifest().blocks());
        }
    }

    private void stat() {
        step = Step.STAT;
        trigger(new ClientPort.Stat(++op, name), homeClient);
    }

    private void finish(String error) {
        SimRegistry.extraRecords().add("R|" + waitMs + "|" + (error.isEmpty() ? homeMs : -1) + "|"
                + error.replace('|', '/').replace('\n', ' '));
        LauncherComp.simulatorScheduler.shutdown();
    }

    static final class Begin extends Timeout {
        Begin(ScheduleTimeout st) {
            super(st);
        }
    }

    /** Who the client is, the two nodes, the upload and its path, and its simulated TCP. */
    public static final class ClientHostInit extends Init<DataBridgeClientHost> {
        final NetAddress self;
        final NetAddress near;
        final String nearRegion;
        final NetAddress home;
        final String homeRegion;
        final String path;
        final long bytes;
        final int blockSize;
        final long seed;
        final long startMs;
        final long timeoutMs;
        final TcpTransport.TcpTransportInit tcp;

        ClientHostInit(NetAddress self, NetAddress near, String nearRegion, NetAddress home, String homeRegion, String path,
                long bytes, int blockSize, long seed, long startMs, long timeoutMs, TcpTransport.TcpTransportInit tcp) {
            this.self = self;
            this.near = near;
            this.nearRegion = nearRegion;
            this.home = home;
            this.homeRegion = homeRegion;
            this.path = path;
            this.bytes = bytes;
            this.blockSize = blockSize;
            this.seed = seed;
            this.startMs = startMs;
            this.timeoutMs = timeoutMs;
            this.tcp = tcp;
        }
    }
}
