package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOps;
import geoblocks.blockstore.wire.OpFamily;
import geoblocks.net.NetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Which part of the file service handles each op that arrives at one door ({@link OpFamily}): one
 * handler per op class of that family that a node handles ({@link FileOp.Handled}: every request,
 * and manifest publications).
 * Who may send an op is not decided here but at its family's door ({@link Doors}, in
 * {@link FileIngress}); a reply goes back to the caller, which routes it to the request waiting
 * for it. {@link #complete()} checks that every handled op class has a handler.
 * Pure: no Kompics.
 */
final class OpHandlers {
    /** The handler of the ops another component handles: nothing to do here. */
    private static final BiConsumer<NetAddress, FileOp> ELSEWHERE = (from, op) -> { };
    private final Map<Class<?>, BiConsumer<NetAddress, FileOp>> byClass = new HashMap<>();
    private final OpFamily family;

    /** Handlers for the ops of {@code family}. */
    OpHandlers(OpFamily family) {
        this.family = family;
    }

    /** The door whose ops these handlers take. */
    OpFamily family() {
        return family;
    }

    /** The ops of {@code type} are handled by {@code handle}; a second handler for one class is refused. */
    <T extends FileOp & FileOp.Handled> OpHandlers on(Class<T> type, BiConsumer<NetAddress, T> handle) {
        ofThisFamily(type);
        if (byClass.putIfAbsent(type, (from, op) -> handle.accept(from, type.cast(op))) != null) {
            throw new IllegalStateException(type.getSimpleName() + " has a handler already");
        }
        return this;
    }

    /**
     * The ops of {@code types} are handled by another component: one that takes them at the same door (the
     * membership's layout gossip and cluster requests), or the peer service, to which the ingress sends them
     * ({@link RequestRoutes#PEER_SERVICE}). They count as handled, and {@link #dispatch} takes them without a
     * handler here.
     */
    @SafeVarargs
    final OpHandlers elsewhere(Class<? extends FileOp>... types) {
        return elsewhere(List.of(types));
    }

    /** As {@link #elsewhere(Class[])}, for a list of op classes. */
    OpHandlers elsewhere(List<Class<? extends FileOp>> types) {
        for (Class<? extends FileOp> type : types) {
            ofThisFamily(type);
            if (byClass.putIfAbsent(type, ELSEWHERE) != null) {
                throw new IllegalStateException(type.getSimpleName() + " has a handler already");
            }
        }
        return this;
    }

    /** Whether {@code op} is handled by another component ({@link #elsewhere}). */
    boolean elsewhere(FileOp op) {
        return byClass.get(op.getClass()) == ELSEWHERE;
    }

    /**
     * This registry, after checking that every op class of its family that a node handles
     * ({@link FileOps#handled()}) has a handler.
     */
    OpHandlers complete() {
        List<String> missing = FileOps.handled().stream().filter(c -> OpFamily.of(c) == family)
                .filter(c -> !byClass.containsKey(c)).map(Class::getSimpleName).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("no " + family + " handler for " + String.join(", ", missing));
        }
        return this;
    }

    private void ofThisFamily(Class<?> type) {
        if (OpFamily.of(type) != family) {
            throw new IllegalArgumentException(type.getSimpleName() + " enters by the " + OpFamily.of(type)
                    + " door, not " + family);
        }
    }

    /** True when {@code type} has a handler. */
    boolean handles(Class<? extends FileOp> type) {
        return byClass.containsKey(type);
    }

    /**
     * Hands request {@code op} from {@code from} to its handler; false when {@code op} is a reply. Who may
     * send it was decided at its family's door ({@link Doors}) before it got here.
     *
     * @throws IllegalStateException for a request without a handler (a registry not {@link #complete()})
     */
    boolean dispatch(NetAddress from, FileOp op) {
        if (op.kind() == FileOp.Kind.REPLY) {
            return false;
        }
        handler(op).accept(from, op);
        return true;
    }

    private BiConsumer<NetAddress, FileOp> handler(FileOp op) {
        BiConsumer<NetAddress, FileOp> h = byClass.get(op.getClass());
        if (h == null) {
            throw new IllegalStateException("no handler for " + op.getClass().getSimpleName());
        }
        return h;
    }
}
