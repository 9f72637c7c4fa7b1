package geoblocks.sim.tcp;

import geoblocks.net.NetAddress;
import geoblocks.net.NetHeader;
import geoblocks.sim.harness.FlowProbe;
import geoblocks.sim.harness.SimRegistry;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.Timer;

/**
 * The receiving end of a simulated TCP flow: acknowledges every segment (cumulative ACK with the
 * segment's timestamp echoed) and counts in-order bytes as delivered on the flow's probe.
 */
public final class TcpReceiver extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    private final TcpReceiverCore core = new TcpReceiverCore();
    private final NetAddress self;
    private final String flow;
    private FlowProbe probe;

    public TcpReceiver(TcpReceiverInit init) {
        self = init.self;
        flow = init.flow;
        handle(net, TcpSegment.class, this::onSegment);
    }

    private void onSegment(TcpSegment seg) {
        if (probe == null) {
            probe = SimRegistry.flow(flow, "tcp", seg.getHeader().source(), self);
        }
        long before = core.delivered();
        long ack = core.onSegment(seg.seq, seg.len);
        probe.delivered(core.delivered() - before);
        trigger(new TcpAck(seg.getHeader().reply(), ack, seg.tsNs, core.sackBlocks(seg.seq)), net);
    }

    /** The receiver's address and the flow it terminates. */
    public static final class TcpReceiverInit extends Init<TcpReceiver> {
        final NetAddress self;
        final String flow;

        public TcpReceiverInit(NetAddress self, String flow) {
            this.self = self;
            this.flow = flow;
        }
    }
}
