package geoblocks.blockstore.port;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import java.util.Objects;
import se.sics.kompics.PatternExtractor;
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
    public record Arrived(NetAddress from, FileOp op) implements PatternExtractor<Class<Object>, FileOp> {
        public Arrived {
            Objects.requireNonNull(from, "from");
            if (OpFamily.of(op) != OpFamily.ADMIN) {
                throw new IllegalArgumentException(op.getClass().getSimpleName() + " is of the " + OpFamily.of(op)
                        + " family, not ADMIN");
            }
        }

        /** The op's class: a component may subscribe to one op of the family ({@code ClassMatchedHandler}). */
        @Override
        @SuppressWarnings("unchecked")
        public Class<Object> extractPattern() {
            return (Class<Object>) (Class<?>) op.getClass();
        }

        @Override
        public FileOp extractValue() {
            return op;
        }
    }
}
