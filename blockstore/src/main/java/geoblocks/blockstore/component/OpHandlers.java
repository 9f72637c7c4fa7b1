package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.FileOp;
import geoblocks.net.NetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Which part of the file service handles each op that arrives: one handler per op class, registered
 * as a client request (anyone who proved the cluster secret may send it) or a peer request (only
 * cluster members; anyone else gets {@code notMember}). An op with no handler, or whose handler's
 * condition does not hold (a {@code ManifestPart} that is not a publication), is a reply: {@link
 * #dispatch} says so and the caller routes it to the request waiting for it. Pure: no Kompics.
 */
final class OpHandlers {
    private record Handler(boolean peerOnly, Predicate<FileOp> when, BiConsumer<NetAddress, FileOp> handle) {}

    private final Map<Class<?>, Handler> byClass = new HashMap<>();

    /** {@code type} is a client request, handled by {@code handle}. */
    <T extends FileOp> OpHandlers client(Class<T> type, BiConsumer<NetAddress, T> handle) {
        return add(type, false, op -> true, handle);
    }

    /** {@code type} is a node-to-node request, handled by {@code handle} when a cluster member sent it. */
    <T extends FileOp> OpHandlers peer(Class<T> type, BiConsumer<NetAddress, T> handle) {
        return add(type, true, op -> true, handle);
    }

    /** As {@link #peer(Class, BiConsumer)}, for the ops of {@code type} that satisfy {@code when}; the others are replies. */
    <T extends FileOp> OpHandlers peer(Class<T> type, Predicate<T> when, BiConsumer<NetAddress, T> handle) {
        return add(type, true, op -> when.test(type.cast(op)), handle);
    }

    private <T extends FileOp> OpHandlers add(Class<T> type, boolean peerOnly, Predicate<FileOp> when,
            BiConsumer<NetAddress, T> handle) {
        Handler h = new Handler(peerOnly, when, (from, op) -> handle.accept(from, type.cast(op)));
        if (byClass.putIfAbsent(type, h) != null) {
            throw new IllegalStateException(type.getSimpleName() + " has a handler already");
        }
        return this;
    }

    /** True when {@code type} has a handler. */
    boolean handles(Class<? extends FileOp> type) {
        return byClass.containsKey(type);
    }

    /**
     * Hands {@code op} from {@code from} to its handler, or for a peer request from a non-member
     * ({@code member} false) to {@code notMember}; false when {@code op} is a reply (no handler).
     */
    boolean dispatch(NetAddress from, FileOp op, Predicate<NetAddress> member, BiConsumer<NetAddress, FileOp> notMember) {
        Handler h = byClass.get(op.getClass());
        if (h == null || !h.when().test(op)) {
            return false;
        }
        if (h.peerOnly() && !member.test(from)) {
            notMember.accept(from, op);
        } else {
            h.handle().accept(from, op);
        }
        return true;
    }
}
