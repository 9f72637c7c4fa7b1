package geoblocks.sim.databridge;

import geoblocks.blockstore.client.ClientComponent;
import geoblocks.blockstore.client.ClientPort;
import geoblocks.blockstore.wire.ClientOp;
import geoblocks.sim.harness.Content;
import geoblocks.sim.harness.SimClientHost;
import geoblocks.sim.tcp.TcpTransport;
import java.util.List;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
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
public final class DataBridgeClientHost extends SimClientHost<DataBridgeNodes.Client> {
    private enum Step { PUT, MOVE, STAT }

    private final Positive<ClientPort> nearClient;
    private final Positive<ClientPort> homeClient;
    private final String name;
    private Step step;
    private long op;
    private long startMs;
    private long waitMs = -1;
    private long homeMs = -1;

    public DataBridgeClientHost(HostInit<DataBridgeNodes.Client> init) {
        super(init);
        this.name = "databridge-" + plan.path();
        Component tcp = create(TcpTransport.class, plan.tcp(self));
        connect(tcp.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(tcp.getNegative(Timer.class), timer, Channel.TWO_WAY);
        Positive<Network> overTcp = tcp.getPositive(Network.class);
        nearClient = client(nodeOf(plan.near(), plan.regions()), plan.near(), plan.timeoutMs(), overTcp);
        homeClient = client(nodeOf(plan.home(), plan.regions()), plan.home(), plan.timeoutMs(), overTcp);
    }

    private boolean direct() {
        return DataBridgeResult.DIRECT.equals(plan.path());
    }

    @Override
    protected void start() {
        after(plan.startMs());
    }

    @Override
    protected void wake() {
        startMs = now();
        step = Step.PUT;
        trigger(new ClientPort.Put(++op, null, Content.source(Content.key(plan.seed(), 0), plan.bytes()), name, "local",
                plan.blockSize(), direct() ? ClientOp.ACK_ALL : ClientOp.ACK_LOCAL, false), direct() ? homeClient : nearClient);
    }

    @Override
    protected void onResult(ClientPort.Result r) {
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
                    trigger(new ClientPort.Move(++op, name, List.of(plan.home())), nearClient);
                }
            }
            case MOVE -> {
                homeMs = now() - startMs;
                stat();
            }
            case STAT -> finish(HomeCheck.isHome((ClientPort.FileStat) r.value(), List.of(plan.home())) ? ""
                    : "not home at " + plan.home() + ": " + ((ClientPort.FileStat) r.value()).manifest().blocks());
        }
    }

    private void stat() {
        step = Step.STAT;
        trigger(new ClientPort.Stat(++op, name), homeClient);
    }

    private void finish(String error) {
        out.add("R|" + waitMs + "|" + (error.isEmpty() ? homeMs : -1) + "|" + field(error));
        endSimulation();
    }
}
