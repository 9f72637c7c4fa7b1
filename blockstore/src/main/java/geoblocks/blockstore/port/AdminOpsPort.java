package geoblocks.blockstore.port;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import se.sics.kompics.PortType;

/**
 * The door of the {@link OpFamily#ADMIN} family: changes to the cluster and to where data lives (cluster, move,
 * purge) and their answers. Every message of the family that the node's ingress ({@code component.FileIngress})
 * admitted arrives here as {@link Arrived}: a request authorized at this door, or a reply for the request
 * waiting for it. A request refused because its sender is no admin client (here, or a reserved name at the
 * client door) is answered by the door and announced here as {@link Forbidden} (for the node's count of
 * unauthenticated input); it never reaches a handler.
 */
public final class AdminOpsPort extends PortType {
    {
        indication(Arrived.class);
        indication(Forbidden.class);
    }

    /** A message of the family from {@code from}, admitted at the door. */
    public record Arrived(NetAddress from, FileOp op) implements Admitted {
        public Arrived {
            Admitted.check(from, op, OpFamily.ADMIN);
        }
    }
}
