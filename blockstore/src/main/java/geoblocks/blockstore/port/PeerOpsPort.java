package geoblocks.blockstore.port;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import se.sics.kompics.PortType;

/**
 * The door of the {@link OpFamily#PEER} family: node-to-node work (replication, replica reads, claims, anti-
 * entropy, layout gossip) and the answers of the nodes this node asked. Every message of the family that the
 * node's ingress ({@code component.FileIngress}) admitted arrives here as {@link Arrived}: a request authorized
 * at this door, or a reply for the request waiting for it.
 */
public final class PeerOpsPort extends PortType {
    {
        indication(Arrived.class);
    }

    /** A message of the family from {@code from}, admitted at the door. */
    public record Arrived(NetAddress from, FileOp op) implements Admitted {
        public Arrived {
            Admitted.check(from, op, OpFamily.PEER);
        }
    }
}
