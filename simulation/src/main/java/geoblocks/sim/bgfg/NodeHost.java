package geoblocks.sim.bgfg;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.wire.FileMsg;
import geoblocks.blockstore.wire.PeerOp.BlockData;
import geoblocks.blockstore.wire.PeerOp.ReplicaData;
import geoblocks.sim.tcp.TcpTransport;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.Timer;

/**
 * A simulated machine running one production {@link NodeParent}, unchanged, whose node-to-node TCP
 * messages ride the simulated {@link TcpTransport} (as they ride one TCP connection per peer in
 * production). On the far node it also counts, for the measurement, the block bytes its TCP
 * messages deliver: replica messages (in this experiment only the replication queue sends them,
 * so they are the background copy when background-transport = tcp) and block messages (remote
 * reads for a get: foreground).
 */
public final class NodeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    public NodeHost(HostInit init) {
        Component tcp = create(TcpTransport.class, init.tcp);
        connect(tcp.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(tcp.getNegative(Timer.class), timer, Channel.TWO_WAY);
        Component node = create(NodeParent.class, init.node);
        connect(node.getNegative(Network.class), tcp.getPositive(Network.class), Channel.TWO_WAY);
        connect(node.getNegative(Timer.class), timer, Channel.TWO_WAY);
        if (init.countDelivered) {
            handle(tcp.getPositive(Network.class), FileMsg.class, m -> {
                if (m.op() instanceof ReplicaData r) {
                    BgFgBoard.tcpReplicaBytes += r.data().length;
                } else if (m.op() instanceof BlockData b) {
                    BgFgBoard.tcpBlockBytes += b.data().length;
                }
            });
        }
    }

    /** The node, its TCP transport, and whether this is the far node whose deliveries are counted. */
    public static final class HostInit extends Init<NodeHost> {
        final NodeParent.NodeInit node;
        final TcpTransport.TcpTransportInit tcp;
        final boolean countDelivered;

        public HostInit(NodeParent.NodeInit node, TcpTransport.TcpTransportInit tcp, boolean countDelivered) {
            this.node = node;
            this.tcp = tcp;
            this.countDelivered = countDelivered;
        }
    }
}
