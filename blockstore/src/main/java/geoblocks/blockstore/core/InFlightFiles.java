package geoblocks.blockstore.core;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The files whose blocks are in flight at this node, for the block collector: a file is in flight
 * while something holds it ({@link #hold}, counted: an upload this node coordinates, a move it
 * coordinates) or for {@code windowNanos} after its last sign of life ({@link #touch}: a block of it
 * stored here, a move's copy or keep-alive for it). Pure: time is passed in (monotonic nanoseconds);
 * kept in memory only, so a restart forgets it; the collector makes up for that by counting no
 * block's grace from before the node started. Thread-safe (each method holds its monitor and calls nothing
 * outside it): the components of a node share it.
 */
public final class InFlightFiles {
    private final long windowNanos;
    private final Map<String, Integer> holds = new HashMap<>();
    private final Map<String, Long> touched = new HashMap<>();
    private long lastPrune = Long.MIN_VALUE;

    /** @param windowNanos how long a touch keeps a file in flight (the collector's grace) */
    public InFlightFiles(long windowNanos) {
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("in-flight window must be > 0 ns, was " + windowNanos);
        }
        this.windowNanos = windowNanos;
    }

    /** Keeps {@code fileId} in flight until as many {@link #release}s. */
    public synchronized void hold(String fileId) {
        holds.merge(fileId, 1, Integer::sum);
    }

    /** Ends one {@link #hold}; the file then stays in flight for the window, as after a touch. */
    public synchronized void release(String fileId, long now) {
        Integer n = holds.get(fileId);
        if (n == null) {
            return;
        }
        if (n <= 1) {
            holds.remove(fileId);
        } else {
            holds.put(fileId, n - 1);
        }
        touch(fileId, now);
    }

    /** A sign of life of {@code fileId} at {@code now}: in flight for the window from now. */
    public synchronized void touch(String fileId, long now) {
        touched.put(fileId, now);
        if (lastPrune == Long.MIN_VALUE || now - lastPrune > windowNanos) {
            prune(now);
        }
    }

    /** True while {@code fileId} is held or was touched within the window before {@code now}. */
    public synchronized boolean inFlight(String fileId, long now) {
        if (holds.containsKey(fileId)) {
            return true;
        }
        Long at = touched.get(fileId);
        return at != null && now - at < windowNanos;
    }

    /** Files held now (moves and uploads under way). */
    public synchronized int held() {
        return holds.size();
    }

    /** Forgets touches older than the window (so the map stays as small as the recent activity). */
    private void prune(long now) {
        lastPrune = now;
        for (Iterator<Map.Entry<String, Long>> it = touched.entrySet().iterator(); it.hasNext();) {
            if (now - it.next().getValue() >= windowNanos) {
                it.remove();
            }
        }
    }
}
