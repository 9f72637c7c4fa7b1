package geoblocks.blockstore.component;

import geoblocks.blockstore.wire.Failure;
import geoblocks.blockstore.wire.FailureCode;
import geoblocks.blockstore.wire.FileOp;
import geoblocks.blockstore.wire.FileOp.Failed;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Outstanding requests this node sent to other nodes, by request id. A reply is accepted only from
 * the node the request went to. A request that sees no reply (or, for multi-part replies, no
 * progress) before its deadline times out. Pure: time is passed in.
 */
final class Pending {

    /** What to do with the replies to one request. */
    interface Waiter {
        /** Handles one reply; returns true when the request is complete. */
        boolean onReply(FileOp op);

        /** The request failed: no reply in time, or the peer is unreachable. */
        void onTimeout(String why);

        /**
         * The request never left this node: no connection to its peer could be made (refused, unreachable; the
         * network dropped the queued message, see {@link geoblocks.net.PeerUnreachable}), so it did not happen
         * there. By default as {@link #onTimeout}; a waiter whose timeout means "may have happened" tells apart.
         */
        default void onUnsent(String why) {
            onTimeout(why);
        }

        /**
         * Waits for one answer: the first {@code type} reply gives {@code done} what {@code outcome}
         * makes of it (null: success), a {@link Failed} reply its failure (code kept), a timeout an
         * {@link FailureCode#UNAVAILABLE} failure.
         */
        static <T extends FileOp> Waiter until(Class<T> type, Function<T, Failure> outcome, Consumer<Failure> done) {
            return of(op -> {
                if (type.isInstance(op)) {
                    done.accept(outcome.apply(type.cast(op)));
                    return true;
                }
                if (op instanceof Failed f) {
                    done.accept(Failure.of(f));
                    return true;
                }
                return false;
            }, done);
        }

        /**
         * Waits for one answer: a {@code type} reply gives {@code done} null, a {@link Failed} reply
         * its failure (code kept), a timeout an {@link FailureCode#UNAVAILABLE} failure.
         */
        static Waiter outcome(Class<? extends FileOp> type, Consumer<Failure> done) {
            return until(type, op -> null, done);
        }

        /** As {@link #outcome}. */
        static Waiter until(Class<? extends FileOp> type, Consumer<Failure> done) {
            return outcome(type, done);
        }

        /** {@code onReply} takes the replies; a timeout (or an unsent request) gives {@code failed} an UNAVAILABLE failure. */
        static Waiter of(Predicate<FileOp> onReply, Consumer<Failure> failed) {
            return new Waiter() {
                @Override
                public boolean onReply(FileOp op) {
                    return onReply.test(op);
                }

                @Override
                public void onTimeout(String why) {
                    failed.accept(new Failure(FailureCode.UNAVAILABLE, why));
                }
            };
        }
    }

    private record Entry(NetAddress peer, Waiter waiter, long timeoutNanos, long[] deadline) {}

    private final Map<Long, Entry> byReq = new HashMap<>();

    void add(long req, NetAddress peer, Waiter waiter, long timeoutNanos, long now) {
        byReq.put(req, new Entry(peer, waiter, timeoutNanos, new long[] {now + timeoutNanos}));
    }

    /** Routes a reply; false when nobody waits for it (late, duplicate or forged). */
    boolean reply(NetAddress from, FileOp op, long now) {
        Entry e = byReq.get(op.req());
        if (e == null || !e.peer.equals(from)) {
            return false;
        }
        e.deadline[0] = now + e.timeoutNanos;
        if (e.waiter.onReply(op)) {
            byReq.remove(op.req());
        }
        return true;
    }

    /** Moves the deadline of {@code req} as a reply would (progress seen another way, e.g. on LEDBAT). */
    void touch(long req, long now) {
        Entry e = byReq.get(req);
        if (e != null) {
            e.deadline[0] = now + e.timeoutNanos;
        }
    }

    /** Stops waiting for {@code req} without telling its waiter (the caller knows the outcome). */
    void cancel(long req) {
        byReq.remove(req);
    }

    /** Fails {@code req} now with {@code why}; nothing when nobody waits for it. */
    void fail(long req, String why) {
        Entry e = byReq.remove(req);
        if (e != null) {
            e.waiter.onTimeout(why);
        }
    }

    /** Times out every request past its deadline. */
    void expire(long now, String peerDescription) {
        List<Entry> expired = new ArrayList<>();
        for (Iterator<Entry> it = byReq.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (now - e.deadline[0] > 0) {
                it.remove();
                expired.add(e);
            }
        }
        for (Entry e : expired) {
            e.waiter.onTimeout("no answer from " + e.peer + " within " + (e.timeoutNanos / 1_000_000) + " ms"
                    + peerDescription);
        }
    }

    /** Fails {@code req}, sent to {@code peer}, as never sent ({@link Waiter#onUnsent}); nothing when nobody waits for it there. */
    void failUnsent(long req, NetAddress peer, String why) {
        Entry e = byReq.get(req);
        if (e != null && e.peer.equals(peer)) {
            byReq.remove(req);
            e.waiter.onUnsent(why);
        }
    }

    /** Fails every request sent to {@code peer} (it cannot be reached), now rather than at the deadline. */
    void failPeer(NetAddress peer, String why) {
        List<Entry> failed = new ArrayList<>();
        for (Iterator<Entry> it = byReq.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.peer.equals(peer)) {
                it.remove();
                failed.add(e);
            }
        }
        for (Entry e : failed) {
            e.waiter.onTimeout(why);
        }
    }
}
