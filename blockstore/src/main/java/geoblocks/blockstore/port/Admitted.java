package geoblocks.blockstore.port;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import java.util.Objects;
import se.sics.kompics.PatternExtractor;

/**
 * A message admitted at one family's door ({@link ClientOpsPort}, {@link PeerOpsPort}, {@link AdminOpsPort},
 * {@link BenchOpsPort}): each port has its own record type (a handler of one door's messages cannot be
 * subscribed to another's), and they share this shape. The op's class is its pattern, so a component may
 * subscribe to one op of the family ({@code ClassMatchedHandler}).
 */
public interface Admitted extends PatternExtractor<Class<Object>, FileOp> {
    NetAddress from();

    FileOp op();

    @Override
    @SuppressWarnings("unchecked")
    default Class<Object> extractPattern() {
        return (Class<Object>) (Class<?>) op().getClass();
    }

    @Override
    default FileOp extractValue() {
        return op();
    }

    /** Checks what every door's record holds: a sender, and an op of the door's family. */
    static void check(NetAddress from, FileOp op, OpFamily family) {
        Objects.requireNonNull(from, "from");
        if (OpFamily.of(op) != family) {
            throw new IllegalArgumentException(op.getClass().getSimpleName() + " is of the " + OpFamily.of(op)
                    + " family, not " + family);
        }
    }
}
