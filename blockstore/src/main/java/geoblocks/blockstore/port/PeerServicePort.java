package geoblocks.blockstore.port;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import se.sics.kompics.PortType;

/**
 * The second outlet of the {@link OpFamily#PEER} door: the node-to-node requests the peer service handles
 * (block fetches, plain and paced), which the node's ingress ({@code component.FileIngress}) sends here, authorized at
 * the peer door, instead of on {@link PeerOpsPort}. Which ops these are is one table
 * ({@code component.RequestRoutes.PEER_SERVICE}).
 */
public final class PeerServicePort extends PortType {
    {
        indication(Arrived.class);
    }

    /** A request of the peer service from {@code from}, admitted at the peer door. */
    public record Arrived(NetAddress from, FileOp op) implements Admitted {
        public Arrived {
            Admitted.check(from, op, OpFamily.PEER);
        }
    }
}
