package geoblocks.blockstore.port;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import se.sics.kompics.PortType;

/**
 * The door of the {@link OpFamily#CLIENT} family: a client's work on names (puts, gets, lists, status) and its
 * answers, and requests whose tag this node does not know. Every message of the family that the node's ingress
 * ({@code component.FileIngress}) admitted arrives here as {@link Arrived}: a request authorized at this door,
 * or a reply for the request waiting for it. A request refused at this door (a name reserved to admins, from
 * a client that is none) is answered by the door, announced as {@link Forbidden} on {@link AdminOpsPort}, and
 * never reaches a handler.
 */
public final class ClientOpsPort extends PortType {
    {
        indication(Arrived.class);
    }

    /** A message of the family from {@code from}, admitted at the door. */
    public record Arrived(NetAddress from, FileOp op) implements Admitted {
        public Arrived {
            Admitted.check(from, op, OpFamily.CLIENT);
        }
    }
}
