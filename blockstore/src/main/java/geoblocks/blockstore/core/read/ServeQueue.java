package geoblocks.blockstore.core.read;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The replica side of cancellable block fetches, without I/O: which chunks of which fetched blocks
 * to send now. A fetch's block is sent in chunks, in arrival order of the fetches (FIFO), while
 * <ul>
 *   <li>its own bytes sent but not acknowledged by the fetching node stay under {@code window}, and
 *   <li>the bytes sent and not acknowledged over every fetch stay under {@code maxInFlight}
 *       (the replica's send queue);
 * </ul>
 * one chunk may always go when nothing is in flight. A cancelled fetch sends nothing more, so a
 * loser of a parallel or hedged read stops costing bandwidth once its cancel arrives, and a fetch
 * still waiting in the queue costs none. A fetch is forgotten when its block is fully acknowledged,
 * cancelled, or idle too long. Time is passed in. Not thread-safe: one component owns it.
 *
 * @param <K> what identifies a fetch (the fetching node and its request id)
 */
public final class ServeQueue<K> {
    /** One chunk to send: bytes {@code offset .. offset + length} of fetch {@code key}'s block. */
    public record Send<K>(K key, int offset, int length) {}

    private final int chunk;
    private final long window;
    private final long maxInFlight;
    private final Map<K, Fetch> fetches = new LinkedHashMap<>();
    private long inFlight;

    private static final class Fetch {
        final int total;
        int sent;
        int acked;
        long lastActivity;

        Fetch(int total, long now) {
            this.total = total;
            this.lastActivity = now;
        }
    }

    public ServeQueue(int chunk, long window, long maxInFlight) {
        if (chunk < 1 || window < chunk || maxInFlight < window) {
            throw new IllegalArgumentException("serve queue needs 1 <= chunk <= window <= max in flight, were " + chunk
                    + ", " + window + ", " + maxInFlight);
        }
        this.chunk = chunk;
        this.window = window;
        this.maxInFlight = maxInFlight;
    }

    /**
     * A window of 2 MiB per fetch (at least 2 chunks), so a block of up to 2 MiB goes out at once as
     * with an unpaced fetch, and 16 MiB over all fetches (at least 4 windows).
     */
    public static <K> ServeQueue<K> forChunk(int chunkBytes) {
        long window = Math.max(2L * chunkBytes, 2L << 20);
        return new ServeQueue<>(chunkBytes, window, Math.max(4 * window, 16L << 20));
    }

    /**
     * A fetch of a block of {@code total} bytes (at least 1; an empty block needs no queue), read and
     * ready to send; false if {@code key} is already queued.
     */
    public boolean add(K key, int total, long now) {
        if (total < 1) {
            throw new IllegalArgumentException("a queued fetch needs a block of at least 1 byte, was " + total);
        }
        if (fetches.containsKey(key)) {
            return false;
        }
        fetches.put(key, new Fetch(total, now));
        return true;
    }

    /**
     * The chunks that may go now, oldest fetch first; each is counted as sent. A fetch at its own
     * window lets the next one send; the shared limit stops every fetch behind it.
     */
    public List<Send<K>> next() {
        List<Send<K>> out = new ArrayList<>();
        for (Map.Entry<K, Fetch> e : fetches.entrySet()) {
            Fetch f = e.getValue();
            while (f.sent < f.total) {
                int len = Math.min(chunk, f.total - f.sent);
                if (inFlight > 0 && inFlight + len > maxInFlight) {
                    return out;
                }
                if (inFlight > 0 && f.sent - f.acked + len > window) {
                    break;
                }
                out.add(new Send<>(e.getKey(), f.sent, len));
                f.sent += len;
                inFlight += len;
            }
        }
        return out;
    }

    /** The fetching node has received {@code received} bytes of {@code key}'s block; false if unknown. */
    public boolean acknowledge(K key, long received, long now) {
        Fetch f = fetches.get(key);
        if (f == null) {
            return false;
        }
        f.lastActivity = now;
        int upTo = (int) Math.min(received, f.sent);
        if (upTo > f.acked) {
            inFlight -= upTo - f.acked;
            f.acked = upTo;
        }
        if (f.acked == f.total) {
            fetches.remove(key);
        }
        return true;
    }

    /** Stops {@code key}: nothing more of its block is sent. Returns the bytes that will not be sent, or -1 if unknown. */
    public long cancel(K key) {
        Fetch f = fetches.remove(key);
        if (f == null) {
            return -1;
        }
        inFlight -= f.sent - f.acked;
        return f.total - f.sent;
    }

    /** Forgets fetches with no acknowledgement for {@code idleNanos}; returns their keys. */
    public List<K> expire(long now, long idleNanos) {
        List<K> gone = new ArrayList<>();
        for (Iterator<Map.Entry<K, Fetch>> it = fetches.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<K, Fetch> e = it.next();
            if (now - e.getValue().lastActivity > idleNanos) {
                inFlight -= e.getValue().sent - e.getValue().acked;
                gone.add(e.getKey());
                it.remove();
            }
        }
        return gone;
    }

    /** Bytes sent and not acknowledged, over every fetch. */
    public long inFlight() {
        return inFlight;
    }

    /** Fetches queued or sending. */
    public int size() {
        return fetches.size();
    }

    public boolean contains(K key) {
        return fetches.containsKey(key);
    }
}
