package geoblocks.sim.consistency;

import geoblocks.blockstore.component.NodeParent;
import geoblocks.blockstore.port.NodeSnapshot;
import geoblocks.blockstore.port.OpsPort;
import se.sics.kompics.Channel;
import se.sics.kompics.Component;
import se.sics.kompics.ComponentDefinition;
import se.sics.kompics.Handler;
import se.sics.kompics.Init;
import se.sics.kompics.Positive;
import se.sics.kompics.network.Network;
import se.sics.kompics.timer.Timer;

/**
 * The production node ({@link NodeParent}, unchanged) under a thin host that does what the
 * production host's HTTP server does with the file service's snapshots: keeps the latest
 * ({@link ConsistencyNodes#SNAPSHOTS}), so that a scenario can read what the node reports to its
 * operator (its layout figures: what its rebalancer has left to drain, the bytes its committed moves
 * copied), and counts the snapshots that reported a storage fault
 * ({@link ConsistencyNodes#STORAGE_FAULT_SNAPSHOTS}).
 */
public final class ObservedNodeHost extends ComponentDefinition {
    private final Positive<Network> net = requires(Network.class);
    private final Positive<Timer> timer = requires(Timer.class);

    public ObservedNodeHost(ObservedInit init) {
        Component node = create(NodeParent.class, init.node);
        connect(node.getNegative(Network.class), net, Channel.TWO_WAY);
        connect(node.getNegative(Timer.class), timer, Channel.TWO_WAY);
        subscribe(new Handler<NodeSnapshot>() {
            @Override
            public void handle(NodeSnapshot s) {
                ConsistencyNodes.SNAPSHOTS.put(init.region, s);
                if (s.storageFault() != null) {
                    ConsistencyNodes.STORAGE_FAULT_SNAPSHOTS.merge(init.region, 1, Integer::sum);
                }
            }
        }, node.getPositive(OpsPort.class));
    }

    /** The node's region and the production node's init. */
    public static final class ObservedInit extends Init<ObservedNodeHost> {
        final String region;
        final NodeParent.NodeInit node;

        ObservedInit(String region, NodeParent.NodeInit node) {
            this.region = region;
            this.node = node;
        }
    }
}
