package geoblocks.blockstore.core;

import geoblocks.blockstore.wire.BlockStreamHeader;
import geoblocks.net.NetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The background blocks this node has agreed to receive, by (sending peer, block id), each with the
 * length and CRC32C it must have (from the manifest or the sender's offer) and a deadline. A stream
 * header is admitted only when it matches an expectation that is not already being received; an
 * expectation ends when its block is stored or refused ({@link #remove}) or when its deadline passes
 * without progress ({@link #expire}).
 *
 * <p>A peer's blocks share one flow and arrive roughly in the order they were asked for, so while
 * any of them arrives the idle others wait their turn ({@link #touchPeer}); a block being received
 * lives on its own data ({@link #touch}). A block the peer will never
 * send (it restarted and forgot the request, or the request was lost) must not wait forever behind
 * that progress: once the peer starts sending a block asked for more than the timeout after an idle
 * one (the timeout is also the reordering allowed), the idle one is {@linkplain Expected#passedOver
 * passed over}: no progress keeps it any more and the next {@link #expire} ends it, so its caller
 * asks again. Pure: time is passed in as nanoseconds.
 *
 * @param <T> what the caller attaches to an expectation (its callback)
 */
public final class BackgroundExpectations<T> {
    /** One expected block; {@code deadline} moves on progress. */
    public static final class Expected<T> {
        public final NetAddress peer;
        public final String blockId;
        public final int length;
        public final int crc;
        /** When it was asked for (made). */
        public final long asked;
        /** The caller's attachment; {@link #join} may replace it. */
        public T attachment;
        private long deadline;
        private boolean receiving;
        private boolean passedOver;

        Expected(NetAddress peer, String blockId, int length, int crc, T attachment, long asked, long deadline) {
            this.asked = asked;
            this.peer = peer;
            this.blockId = blockId;
            this.length = length;
            this.crc = crc;
            this.attachment = attachment;
            this.deadline = deadline;
        }

        /**
         * The peer sent a block asked for more than the timeout after this one while this one was
         * idle: it will not come (the peer restarted or lost the request).
         */
        public boolean passedOver() {
            return passedOver;
        }
    }

    private record Key(NetAddress peer, String blockId) {}

    private final long timeoutNanos;
    private final Map<Key, Expected<T>> expected = new HashMap<>();

    public BackgroundExpectations(long timeoutNanos) {
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("expectation timeout must be > 0 ns, was " + timeoutNanos);
        }
        this.timeoutNanos = timeoutNanos;
    }

    /** Expects block {@code blockId} from {@code peer}; false (nothing changed) if it is already expected. */
    public boolean expect(NetAddress peer, String blockId, int length, int crc, T attachment, long now) {
        Key k = new Key(Objects.requireNonNull(peer, "peer"), Objects.requireNonNull(blockId, "blockId"));
        if (length < 0) {
            throw new IllegalArgumentException("expected length must not be negative, was " + length);
        }
        if (expected.containsKey(k)) {
            return false;
        }
        expected.put(k, new Expected<>(peer, blockId, length, crc, attachment, now, now + timeoutNanos));
        return true;
    }

    /**
     * A second wish for a block already expected from {@code peer} with this length and CRC32C (a
     * retried copy while the first is still on its way): the expectation's attachment becomes
     * {@code combine} of the old one, so both callers learn how it ends; false (nothing changed) when
     * nothing, or a different block, is expected under that key.
     */
    public boolean join(NetAddress peer, String blockId, int length, int crc, UnaryOperator<T> combine) {
        Expected<T> e = expected.get(new Key(peer, blockId));
        if (e == null || e.length != length || e.crc != crc) {
            return false;
        }
        e.attachment = combine.apply(e.attachment);
        return true;
    }

    /**
     * Null when {@code h} from {@code peer} matches an idle expectation (now marked receiving), else
     * why not. Admitting it passes over every idle expectation from the peer asked for more than the
     * timeout before it (they end at the next {@link #expire}); one passed over that arrives before
     * then is still admitted.
     */
    public String admit(NetAddress peer, BlockStreamHeader h, long now) {
        Expected<T> e = expected.get(new Key(peer, h.blockId()));
        if (e == null) {
            return "block " + h.blockId() + " from " + peer + " was not expected";
        }
        if (e.receiving) {
            return "block " + h.blockId() + " from " + peer + " is already being received";
        }
        if (e.length != h.length()) {
            return "block " + h.blockId() + " announced with " + h.length() + " bytes, expected " + e.length;
        }
        if (e.crc != h.crc()) {
            return "block " + h.blockId() + " announced with checksum " + Checksums.hex(h.crc()) + ", expected "
                    + Checksums.hex(e.crc);
        }
        e.receiving = true;
        e.passedOver = false;
        e.deadline = now + timeoutNanos;
        for (Expected<T> other : expected.values()) {
            if (other.peer.equals(peer) && !other.receiving && e.asked - other.asked > timeoutNanos) {
                other.passedOver = true;
                other.deadline = now - 1; // due now
            }
        }
        return null;
    }

    /** Progress on {@code peer}'s block: its deadline moves (not if passed over); the expectation, or null. */
    public Expected<T> touch(NetAddress peer, String blockId, long now) {
        Expected<T> e = expected.get(new Key(peer, blockId));
        if (e != null && !e.passedOver) {
            e.deadline = now + timeoutNanos;
        }
        return e;
    }

    /** Ends an expectation; the removed one, or null. */
    public Expected<T> remove(NetAddress peer, String blockId) {
        return expected.remove(new Key(peer, blockId));
    }

    /**
     * Progress from {@code peer} on any block: every idle expectation from it (not yet being
     * received, not passed over) moves its deadline, since the peer's blocks share one flow and wait
     * their turn behind the one arriving; returns them. A block already being received moves only
     * with its own data ({@link #touch}): its stream is sent, so if its data stops while the peer's
     * other blocks arrive, the peer no longer sends it (it restarted mid-stream).
     */
    public List<Expected<T>> touchPeer(NetAddress peer, long now) {
        List<Expected<T>> touched = new ArrayList<>();
        for (Expected<T> e : expected.values()) {
            if (e.peer.equals(peer) && !e.receiving && !e.passedOver) {
                e.deadline = now + timeoutNanos;
                touched.add(e);
            }
        }
        return touched;
    }

    /** Removes and returns every expectation whose deadline has passed. */
    public List<Expected<T>> expire(long now) {
        List<Expected<T>> out = new ArrayList<>();
        for (Iterator<Expected<T>> it = expected.values().iterator(); it.hasNext(); ) {
            Expected<T> e = it.next();
            if (now - e.deadline > 0) {
                it.remove();
                out.add(e);
            }
        }
        return out;
    }

    public int size() {
        return expected.size();
    }
}
